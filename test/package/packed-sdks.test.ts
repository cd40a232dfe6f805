import { execFileSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { projectWithPackedPackage, REPO } from "./packed-package";

/** Every file under `dir`, relative, with its content. */
function tree(dir: string): Map<string, string> {
  const files = new Map<string, string>();
  const walk = (rel: string) => {
    for (const entry of fs.readdirSync(path.join(dir, rel), { withFileTypes: true })) {
      const child = path.join(rel, entry.name);
      if (entry.isDirectory()) walk(child);
      else files.set(child.split(path.sep).join("/"), fs.readFileSync(path.join(dir, child), "utf8"));
    }
  };
  walk("");
  return files;
}

// What a Python or Go user runs: `npx runpod-iac sdk <language> --out DIR` from the installed
// package (needs `npm run build`) writes the committed SDK, file for file. npm leaves out the
// Python SDK's .gitignore (it never packs one), which the SDK does not need.
describe("runpod-iac sdk from the installed package", () => {
  let project: string;
  beforeAll(() => {
    project = projectWithPackedPackage().dir;
  }, 120_000);
  afterAll(() => {
    if (project) fs.rmSync(project, { recursive: true, force: true });
  });

  for (const language of ["python", "go"]) {
    it(`writes the committed ${language} SDK`, () => {
      const out = path.join(project, `sdk-${language}`);
      const bin = path.join(project, "node_modules", "runpod-iac", "dist", "cli", "main.js");
      const printed = execFileSync(process.execPath, [bin, "sdk", language, "--out", out], {
        cwd: project,
        encoding: "utf8",
      });
      expect(printed).toContain(`Wrote the ${language} SDK of runpod-iac`);
      const committed = tree(path.join(REPO, "plugin", "sdks", language));
      committed.delete(".gitignore");
      expect(tree(out)).toEqual(committed);
    });
  }
});
