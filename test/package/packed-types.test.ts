import { execFileSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { projectWithPackedPackage } from "./packed-package";
import { PROGRAM, SETTINGS, TEMPLATE_OPTIONS } from "./user-program";

// A user's program that imports every public entry point type-checks against the
// packed package under each generation of Pulumi's TypeScript template, and under `bundler`
// resolution, with the template's own settings: no esModuleInterop, no skipLibCheck added.

describe("a user's program against the packed package", { timeout: 120_000 }, () => {
  let project: { dir: string; tsc: string };
  beforeAll(() => {
    project = projectWithPackedPackage();
    fs.writeFileSync(path.join(project.dir, "index.ts"), PROGRAM);
  });
  afterAll(() => {
    if (project) fs.rmSync(project.dir, { recursive: true, force: true });
  });

  it.each(SETTINGS)("type-checks under %s, with no option added", (_name, options) => {
    const config = path.join(project.dir, `tsconfig.${String(options.moduleResolution)}.json`);
    fs.writeFileSync(
      config,
      JSON.stringify({ compilerOptions: { ...TEMPLATE_OPTIONS, ...options }, files: ["index.ts"] }),
    );
    let output = "";
    try {
      execFileSync(process.execPath, [project.tsc, "--noEmit", "-p", config], { cwd: project.dir, encoding: "utf8" });
    } catch (err) {
      output = String((err as { stdout?: string }).stdout);
    }
    expect(output).toBe("");
  });

  it("reads the node10 declarations without reaching zod's CommonJS declarations or fastify's", () => {
    const config = path.join(project.dir, "tsconfig.node.json");
    const files = execFileSync(process.execPath, [project.tsc, "--noEmit", "--listFilesOnly", "-p", config], {
      cwd: project.dir,
      encoding: "utf8",
    }).split("\n");
    expect(files.filter((f) => f.includes("/node_modules/runpod-iac/dist/types-node10/sdk/index.d.ts"))).toHaveLength(
      1,
    );
    expect(files.filter((f) => /\/zod\/.*\.d\.cts$/.test(f) || /\/(fastify|pino)\//.test(f))).toEqual([]);
  });
});
