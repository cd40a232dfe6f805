import { execFile } from "node:child_process";
import * as crypto from "node:crypto";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { REPO_ROOT, runProvideScript } from "../../../scripts/pulumi-cli";

/** What a finished command printed, and its exit code. */
export interface ToolResult {
  code: number;
  stdout: string;
  stderr: string;
}

/** Runs `command` with `args` to the end; never rejects on a non-zero exit (the caller asserts the code). */
export function runTool(
  command: string,
  args: string[],
  options: { cwd?: string; env?: NodeJS.ProcessEnv } = {},
): Promise<ToolResult> {
  return new Promise((resolve) => {
    execFile(
      command,
      args,
      { cwd: options.cwd ?? REPO_ROOT, env: options.env ?? process.env, maxBuffer: 64 << 20 },
      (error, stdout, stderr) => {
        const code = error ? Number((error as { code?: number | string }).code ?? 1) : 0;
        resolve({ code: Number.isFinite(code) ? code : 1, stdout, stderr });
      },
    );
  });
}

/** Runs a tool and resolves to its stdout; rejects with everything it printed when it fails. */
export async function runToolOk(
  command: string,
  args: string[],
  options: { cwd?: string; env?: NodeJS.ProcessEnv } = {},
): Promise<string> {
  const result = await runTool(command, args, options);
  if (result.code !== 0) {
    throw new Error(`${command} ${args.join(" ")} exited ${result.code}\n${result.stdout}\n${result.stderr}`);
  }
  return result.stdout;
}

/** The schema fixture of the SDK generator's own tests, shaped like the plugin's schema. */
export const FIXTURE_SCHEMA = path.join(REPO_ROOT, "tools", "pulumi-sdkgen", "testdata", "schema.json");

/** Writes the Python and Go SDKs of `schema` into `out/python` and `out/go` (scripts/gen-sdks.sh). */
export async function generateSdks(schema: string, out: string): Promise<void> {
  await runToolOk("bash", [path.join(REPO_ROOT, "scripts", "gen-sdks.sh"), "--schema", schema, "--out", out]);
}

/**
 * The cached Python environment with `pulumi` and the Python SDK in `sdkDir` installed
 * (scripts/provide-python.sh; the committed SDK by default); resolves to its `bin/python`.
 */
export async function providePython(sdkDir?: string): Promise<string> {
  const venv = await runProvideScript("provide-python.sh", sdkDir ? [sdkDir] : []);
  return path.join(venv, "bin", "python");
}

/** The Go program of the end-to-end tests: test/e2e/languages/go, using the committed Go SDK. */
export const GO_PROGRAM_DIR = path.join(REPO_ROOT, "test", "e2e", "languages", "go");

/** Where builds are cached outside the repository, as scripts/provide-*.sh do. */
export function cacheRoot(env: NodeJS.ProcessEnv = process.env): string {
  return env.PULUMI_RUNPOD_CACHE?.trim() || path.join(os.homedir(), ".cache", "pulumi-runpod");
}

/** Every file under `dir` (relative path and content), sorted, into `hash`. */
function hashTree(hash: crypto.Hash, dir: string): void {
  const files: string[] = [];
  const walk = (rel: string) => {
    for (const entry of fs.readdirSync(path.join(dir, rel), { withFileTypes: true })) {
      const child = path.join(rel, entry.name);
      if (entry.isDirectory()) walk(child);
      else if (entry.isFile()) files.push(child);
    }
  };
  walk("");
  for (const file of files.sort()) {
    hash.update(`${file}\0`);
    hash.update(fs.readFileSync(path.join(dir, file)));
    hash.update("\0");
  }
}

/**
 * The Go program built with `-tags inline` (it runs itself through the Automation API) and
 * `-trimpath` (as every Go build of the repository's tooling: they share Go's build cache with the
 * CLI's build, which compiles much of the same code), cached in
 * `<cache>/go-deployment-<key>/deployment`. The key hashes the Go version, the build's flags, the
 * program's files and the committed Go SDK's, so a warm run neither compiles nor links, and any
 * change rebuilds. The compile itself reuses Go's build cache (GOCACHE): cold, it compiles the
 * Pulumi Go SDK and the Automation API (minutes on 2 cores); with a warm GOCACHE, a rebuild mostly
 * links. A build no run has used for 14 days is removed when another one is made.
 */
export async function provideGoProgram(): Promise<string> {
  const env = { ...process.env, GOWORK: "off", GOFLAGS: "-mod=readonly -buildvcs=false" };
  const goVersion = (await runToolOk("go", ["env", "GOVERSION"], { env })).trim();
  const args = ["build", "-trimpath", "-tags", "inline"];
  const hash = crypto.createHash("sha256").update(`${goVersion}\0${args.join(" ")}\0`);
  hashTree(hash, GO_PROGRAM_DIR);
  // go.mod replaces the SDK's module with the committed one.
  hashTree(hash, path.join(REPO_ROOT, "plugin", "sdks", "go"));
  const dest = path.join(cacheRoot(), `go-deployment-${hash.digest("hex").slice(0, 16)}`);
  const binary = path.join(dest, "deployment");
  if (fs.existsSync(binary)) {
    const now = new Date();
    fs.utimesSync(dest, now, now);
    return binary;
  }
  fs.mkdirSync(cacheRoot(), { recursive: true });
  const work = fs.mkdtempSync(path.join(cacheRoot(), ".go-deployment-build-"));
  try {
    await runToolOk("go", [...args, "-o", path.join(work, "deployment"), "."], {
      cwd: GO_PROGRAM_DIR,
      env,
    });
    // Moved into place with a rename: a build interrupted half-way is never taken for a finished one.
    try {
      fs.renameSync(work, dest);
    } catch (error) {
      // Another worker finished the same build first: use it.
      if (!fs.existsSync(binary)) throw error;
    }
  } finally {
    fs.rmSync(work, { recursive: true, force: true });
  }
  const stale = Date.now() - 14 * 86_400_000;
  for (const entry of fs.readdirSync(cacheRoot())) {
    const dir = path.join(cacheRoot(), entry);
    if (entry.startsWith("go-deployment-") && fs.statSync(dir).mtimeMs < stale) {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  }
  return binary;
}
