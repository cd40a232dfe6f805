import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { REPO_ROOT } from "../../../scripts/pulumi-cli";
import { projectHome } from "../../../plugin/project-home";
import { generateSdks } from "./language-tools";

/**
 * The Python and Go SDKs are committed (users have no Go to generate them) and shipped in the
 * package: they must be exactly what the generator writes from the plugin's schema today. A
 * change to the schema (or to the generator) without `npm run gen:sdks` fails here.
 */
const COMMITTED = path.join(REPO_ROOT, "plugin", "sdks");
const VERSION = (JSON.parse(fs.readFileSync(path.join(REPO_ROOT, "package.json"), "utf8")) as { version: string })
  .version;

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

describe("the committed SDKs (plugin/sdks)", () => {
  let fresh: string;
  beforeAll(async () => {
    fresh = fs.mkdtempSync(path.join(os.tmpdir(), "runpod-sdks-"));
    // Cold: the generator's build (1-2 minutes on 2 cores); warm: a few seconds (go mod tidy included).
    await generateSdks(path.join(REPO_ROOT, "plugin", "schema.json"), fresh);
  }, 600_000);
  afterAll(() => {
    if (fresh) fs.rmSync(fresh, { recursive: true, force: true });
  });

  for (const language of ["python", "go"]) {
    it(`are what npm run gen:sdks writes from plugin/schema.json today: ${language}`, () => {
      const committed = tree(path.join(COMMITTED, language));
      const generated = tree(path.join(fresh, language));
      const stale = [...new Set([...committed.keys(), ...generated.keys()])]
        .filter((file) => committed.get(file) !== generated.get(file))
        .map(
          (file) =>
            `${language}/${file}: ${!committed.has(file) ? "missing" : !generated.has(file) ? "no longer generated" : "differs"}`,
        );
      expect(stale, "plugin/sdks is stale: run npm run gen:sdks and commit the result").toEqual([]);
      expect(committed.size).toBeGreaterThan(10);
    });
  }

  it("name the plugin runpod-iac at package.json's version, and where the engine downloads it", () => {
    const repository = (
      JSON.parse(fs.readFileSync(path.join(REPO_ROOT, "package.json"), "utf8")) as { repository: unknown }
    ).repository;
    const plugin = {
      resource: true,
      name: "runpod-iac",
      version: VERSION,
      server: projectHome(repository).pluginDownloadURL,
    };
    for (const file of ["python/pulumi_runpod_iac/pulumi-plugin.json", "go/runpodiac/pulumi-plugin.json"]) {
      expect(JSON.parse(fs.readFileSync(path.join(COMMITTED, file), "utf8")), file).toEqual(plugin);
    }
  });
});
