import { execFileSync } from "node:child_process";
import * as fs from "node:fs";
import * as path from "node:path";
import { blobPreparer, NODE_RUNTIMES, type Platform, provideRuntime } from "./node-runtimes";

/*
 * One platform's standalone plugin: a Node.js single executable application (SEA). The bundled
 * program and the schema become a blob (`node --experimental-sea-config`, run by the Linux x64
 * binary of the same release as the target's), which postject injects into the target platform's
 * official binary. No code cache and no snapshot: both are tied to the machine that prepares the
 * blob, and a blob without them is the same for every platform of a release (it starts in about a
 * fifth of the time the package's plugin takes to load its modules anyway: bench/RESULTS.md).
 */

/** The fuse Node.js looks for in a binary that carries a blob (Node's documentation gives it). */
const SEA_FUSE = "NODE_SEA_FUSE_fce680ab2cc467b6e072b8b5df1996b2";

/** The asset key of the schema (scripts/release/standalone-entry.ts reads it). */
export const SCHEMA_ASSET = "schema.json";

/** The executable's name on `platform`, as the engine looks for it in a plugin folder. */
export function executableName(platform: Platform): string {
  return `pulumi-resource-runpod-iac${platform.startsWith("windows") ? ".exe" : ""}`;
}

/** What building one executable needs from outside: the tools, found by the caller. */
export interface SeaTools {
  /** `llvm-strip`: takes the debug symbols out of the Linux binaries (about 18 MB each). */
  strip: string;
  log(line: string): void;
}

function run(command: string, args: string[], cwd: string): void {
  execFileSync(command, args, { cwd, stdio: ["ignore", "ignore", "pipe"] });
}

/** The program's name inside the executable (stack traces show it); a fixed one, for the same bytes anywhere. */
const PROGRAM_NAME = "pulumi-resource-runpod-iac.js";

/**
 * The blob of `bundle` and `schema` for Node.js `version`, written to `out`. The blob records the
 * program's path as given, so it is given relative to the folder the blob is made in.
 */
export function prepareBlob(version: string, bundle: string, schema: string, out: string, tools: SeaTools): void {
  const node = provideRuntime(blobPreparer(version), tools.log);
  const dir = path.dirname(out);
  fs.copyFileSync(bundle, path.join(dir, PROGRAM_NAME));
  fs.copyFileSync(schema, path.join(dir, SCHEMA_ASSET));
  const config = `${out}.json`;
  fs.writeFileSync(
    config,
    JSON.stringify({
      main: PROGRAM_NAME,
      output: path.basename(out),
      disableExperimentalSEAWarning: true,
      useCodeCache: false,
      useSnapshot: false,
      assets: { [SCHEMA_ASSET]: SCHEMA_ASSET },
    }),
  );
  run(node, ["--experimental-sea-config", path.basename(config)], dir);
  fs.rmSync(config);
}

/**
 * The standalone plugin of `platform` at `out`: the platform's Node.js binary (its debug symbols
 * stripped on Linux) with the blob of `bundle` and `schema` injected. A macOS binary leaves here
 * with the signature the injection broke: arm64 Macs run only signed code, and
 * scripts/release/sign-darwin.ts signs it ad hoc with `codesign` on a Mac (the release workflow's
 * macOS job; docs/releasing.md). Returns the Node.js release it carries.
 */
export function buildExecutable(
  platform: Platform,
  bundle: string,
  schema: string,
  out: string,
  tools: SeaTools,
): string {
  const runtime = NODE_RUNTIMES[platform];
  const work = fs.mkdtempSync(`${out}.work-`);
  try {
    const blob = path.join(work, "sea.blob");
    prepareBlob(runtime.version, bundle, schema, blob, tools);
    const exe = path.join(work, path.basename(out));
    fs.copyFileSync(provideRuntime(runtime, tools.log), exe);
    fs.chmodSync(exe, 0o755);
    if (platform.startsWith("linux")) run(tools.strip, ["--strip-all", exe], work);
    const macho = platform.startsWith("darwin") ? ["--macho-segment-name", "NODE_SEA"] : [];
    run(
      process.execPath,
      [require.resolve("postject/dist/cli.js"), exe, "NODE_SEA_BLOB", blob, "--sentinel-fuse", SEA_FUSE, ...macho],
      work,
    );
    fs.renameSync(exe, out);
  } finally {
    fs.rmSync(work, { recursive: true, force: true });
  }
  return runtime.version;
}

/** The LICENSE of the Node.js binary `platform`'s plugin carries (from its npm package). */
export function runtimeLicense(platform: Platform, log: (line: string) => void): string {
  return fs.readFileSync(path.join(path.dirname(provideRuntime(NODE_RUNTIMES[platform], log)), "LICENSE"), "utf8");
}
