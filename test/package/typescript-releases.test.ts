import { execFileSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { projectWithPackedPackage } from "./packed-package";
import { provideTypeScriptCompilers, type TypeScriptCompilers } from "./typescript-compilers";
import { PROGRAM, TEMPLATE_OPTIONS } from "./user-program";

/*
 * The TypeScript releases a user's project may be on, against the packed package:
 * - `pulumi new typescript` today (TypeScript ^5, run by Pulumi's built-in ts-node, which
 *   type-checks), and a project on TypeScript 6 (`tsc`; through ts-node it is the same check of
 *   the same declarations as with 5);
 * - TypeScript 7, which has no compiler API for ts-node: the program is compiled ahead of time
 *   (`tsc`, `main` naming the output, `typescript: false` in Pulumi.yaml: docs/languages.md), and
 *   the output is run under Pulumi's mocks. The engine's part of that path (running `main` as
 *   JavaScript) is Pulumi's; what is this package's is that TypeScript 7 accepts its
 *   declarations and that the JavaScript it emits loads the package and registers its resources
 *   (test/e2e/languages/standalone-plugin.test.ts also deploys a TypeScript 7 build with the engine).
 */

/** Today's template: what `pulumi new typescript` writes (module and resolution `nodenext`). */
const TEMPLATE_TSCONFIG = {
  compilerOptions: { ...TEMPLATE_OPTIONS, target: "es2020", module: "nodenext", moduleResolution: "nodenext" },
  files: ["index.ts"],
};

/**
 * Registers Pulumi's built-in ts-node (vendored in @pulumi/pulumi) as its language host does for a
 * template project, whose tsconfig.json sets every option the host would otherwise default: the
 * project's compiler and tsconfig.json, type-checked. In an installed project @pulumi/pulumi finds
 * the project's `typescript` itself; the linked layout here names it. Then loads the program and a
 * file with a type error, which must be refused (so the check ran).
 */
const RUN_WITH_TS_NODE = `const path = require("node:path");
const pulumiDir = path.dirname(require.resolve("@pulumi/pulumi/package.json"));
require(path.join(pulumiDir, "vendor", "ts-node@7.0.1")).register({ compiler: process.argv[2], project: "tsconfig.json" });
const program = require("./index.ts");
let refused = [];
try { require("./wrong.ts"); } catch (err) { refused = err.diagnosticCodes ?? [String(err)]; }
console.log(JSON.stringify({ compiler: require(process.argv[2]).version, policyCount: program.policyCount, problems: program.problems, refused }));
`;

/** A program that declares resources as it loads, for the TypeScript 7 build. */
const DEPLOYING_PROGRAM = `import * as pulumi from "@pulumi/pulumi";
import { NetworkVolume, ServerlessEndpoint, Template } from "runpod-iac";
import * as plugin from "runpod-iac/plugin";
import { WorkerBoundsConfigSchema } from "runpod-iac/policy";

const config = new pulumi.Config();
const volume = new NetworkVolume("models", { size: config.requireNumber("size"), dataCenterId: "EU-RO-1" });
const worker = new Template("worker", { imageName: "ghcr.io/acme/worker:1.4.2", isServerless: true });
const api = new ServerlessEndpoint("api", {
  templateId: worker.id,
  gpuTypeIds: ["NVIDIA L4"],
  networkVolumeId: volume.id,
  dataCenterIds: [volume.dataCenterId],
});
const weights = new plugin.NetworkVolume("weights", { size: 20, dataCenterId: "EU-RO-1" });

export const endpointId: pulumi.Output<string> = api.id;
export const weightsSize: pulumi.Output<number> = weights.size;
const checked = WorkerBoundsConfigSchema.safeParse({ workersMaxCap: 3, workersMinCap: -1 });
export const problems: string[] = checked.success ? [] : checked.error.issues.map((i) => \`\${i.path.join(".")}: \${i.code}\`);
`;

/** Runs package.json's \`main\` under Pulumi's mocks; prints its outputs and what it registered. */
const RUN_WITH_MOCKS = `const path = require("node:path");
const pulumi = require("@pulumi/pulumi");
const registered = [];
pulumi.runtime.setMocks(
  {
    newResource: (args) => {
      registered.push({ type: args.type, name: args.name, size: args.inputs.size });
      return { id: args.name + "-id", state: args.inputs };
    },
    call: (args) => args.inputs,
  },
  "user-program",
  "dev",
  false,
);
pulumi.runtime.setAllConfig({ "user-program:size": "30" });
const program = require(path.resolve(require("./package.json").main));
const value = (output) => new Promise((resolve) => output.apply(resolve));
(async () => {
  const outputs = { endpointId: await value(program.endpointId), weightsSize: await value(program.weightsSize) };
  console.log(JSON.stringify({ outputs, problems: program.problems, registered }));
})();
`;

describe("a user's program on TypeScript 5, 6 and 7 against the packed package", { timeout: 180_000 }, () => {
  let dir: string;
  let compilers: TypeScriptCompilers;
  beforeAll(() => {
    compilers = provideTypeScriptCompilers();
    dir = projectWithPackedPackage().dir;
    fs.writeFileSync(path.join(dir, "index.ts"), PROGRAM);
    fs.writeFileSync(path.join(dir, "wrong.ts"), `export const count: number = "three";\n`);
    fs.writeFileSync(path.join(dir, "tsconfig.json"), JSON.stringify(TEMPLATE_TSCONFIG));
    fs.writeFileSync(path.join(dir, "run-with-ts-node.js"), RUN_WITH_TS_NODE);
  }, 180_000);
  afterAll(() => {
    if (dir) fs.rmSync(dir, { recursive: true, force: true });
  });

  /** The program through the built-in ts-node with the compiler (a `typescript` package) at `compiler`. */
  function throughTsNode(compiler: string) {
    const out = execFileSync(process.execPath, ["run-with-ts-node.js", compiler], {
      cwd: dir,
      encoding: "utf8",
      // ts-node's cache of compiled files, inside the project (it is removed with it).
      env: { ...process.env, TS_NODE_CACHE_DIRECTORY: path.join(dir, ".ts-node") },
    });
    return JSON.parse(out.trim().split("\n").pop()!) as {
      compiler: string;
      policyCount: number;
      problems: string[];
      refused: unknown[];
    };
  }

  it("pulumi new's template (TypeScript 5): Pulumi's built-in ts-node type-checks and runs the program", () => {
    const result = throughTsNode(path.join(__dirname, "..", "..", "node_modules", "typescript"));
    // What the template's `typescript: ^5.0.0` installs today, as the repository's own.
    expect(result.compiler).toMatch(/^5\./);
    expect(result.policyCount).toBeGreaterThan(0);
    expect(result.problems).toEqual(["workersMinCap: too_small"]);
    // TS2322: a string is not assignable to a number: ts-node checked types.
    expect(result.refused).toEqual([2322]);
  });

  it("TypeScript 6.0.3's tsc type-checks the program under today's template, the declarations included", () => {
    let output = "";
    try {
      execFileSync(process.execPath, [path.join(compilers.ts6, "bin", "tsc"), "--noEmit", "-p", "tsconfig.json"], {
        cwd: dir,
        encoding: "utf8",
      });
    } catch (err) {
      output = String((err as { stdout?: string }).stdout);
    }
    expect(output).toBe("");
  });

  it("TypeScript 7.0.2 compiles the program ahead of time, and its JavaScript registers the resources", () => {
    const project = path.join(dir, "ts7");
    fs.mkdirSync(project);
    fs.symlinkSync(path.join(dir, "node_modules"), path.join(project, "node_modules"), "dir");
    fs.writeFileSync(path.join(project, "index.ts"), DEPLOYING_PROGRAM);
    fs.writeFileSync(path.join(project, "tsconfig.json"), JSON.stringify(TEMPLATE_TSCONFIG));
    fs.writeFileSync(
      path.join(project, "package.json"),
      JSON.stringify({ name: "user-program", main: "bin/index.js" }),
    );
    fs.writeFileSync(path.join(project, "run-with-mocks.js"), RUN_WITH_MOCKS);
    const tsc = path.join(compilers.ts7, "bin", "tsc");
    expect(execFileSync(process.execPath, [tsc, "--version"], { encoding: "utf8" })).toContain("7.0.2");
    // No output on stdout: no diagnostic, in the program or the declarations.
    expect(execFileSync(process.execPath, [tsc, "-p", "tsconfig.json"], { cwd: project, encoding: "utf8" })).toBe("");
    const run = execFileSync(process.execPath, ["run-with-mocks.js"], { cwd: project, encoding: "utf8" });
    const result = JSON.parse(run.trim().split("\n").pop()!) as {
      outputs: Record<string, unknown>;
      problems: string[];
      registered: { type: string; name: string; size?: number }[];
    };
    expect(result.outputs).toEqual({ endpointId: "api-id", weightsSize: 20 });
    expect(result.problems).toHaveLength(1);
    expect(result.registered.sort((a, b) => a.name.localeCompare(b.name))).toEqual([
      { type: "pulumi-nodejs:dynamic/runpod:ServerlessEndpoint", name: "api" },
      { type: "pulumi-nodejs:dynamic/runpod:NetworkVolume", name: "models", size: 30 },
      { type: "runpod-iac:index:NetworkVolume", name: "weights", size: 20 },
      { type: "pulumi-nodejs:dynamic/runpod:Template", name: "worker" },
    ]);
  });
});
