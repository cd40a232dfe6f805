import { spawn } from "node:child_process";
import * as fs from "node:fs";
import * as path from "node:path";

/** The repository root: the nearest directory above this file with the package's package.json (source or dist). */
export const REPO_ROOT = findRoot(__dirname);

function findRoot(from: string): string {
  for (let dir = from; ; dir = path.dirname(dir)) {
    const pkg = path.join(dir, "package.json");
    if (fs.existsSync(pkg) && JSON.parse(fs.readFileSync(pkg, "utf8")).name === "runpod-iac") return dir;
    if (path.dirname(dir) === dir) throw new Error(`no runpod-iac package.json above ${from}`);
  }
}

/**
 * Runs `scripts/<script>` with `args` (a provide-*.sh script: progress on stderr, one directory on
 * stdout) and resolves to the directory it printed. A failure rejects with the script's name; its
 * own messages are already on stderr, so a missing tool fails the run with its reason, never skips.
 */
export function runProvideScript(script: string, args: readonly string[] = []): Promise<string> {
  const file = path.join(REPO_ROOT, "scripts", script);
  return new Promise((resolve, reject) => {
    const child = spawn("bash", [file, ...args], { stdio: ["ignore", "pipe", "inherit"] });
    let out = "";
    child.stdout.on("data", (d) => {
      out += d;
    });
    child.on("error", reject);
    child.on("close", (code) => {
      const dir = out.trim().split("\n").pop() ?? "";
      if (code !== 0 || !dir) return reject(new Error(`${file} failed (exit code ${code}); see the messages above`));
      resolve(dir);
    });
  });
}

/**
 * The directory the first {@link providePulumiCli} of a process tree found, for its child
 * processes (vitest's workers, which inherit the environment of the run whose global setup
 * provided the CLI), so each does not run the script again.
 */
const PROVIDED_CLI_ENV = "PULUMI_RUNPOD_PROVIDED_CLI";
let provided: Promise<string> | undefined;

/**
 * Runs scripts/provide-pulumi.sh and returns the directory holding `pulumi` and its Node.js
 * plugins, having put it first on this process's PATH: the engine looks its plugins up on PATH.
 * The script runs once per process tree: it checks the cached build (hashing the language host's
 * sources, `pulumi version`), about half a second of CPU that each end-to-end stack used to pay.
 */
export function providePulumiCli(): Promise<string> {
  provided ??= provideOnce();
  return provided;
}

async function provideOnce(): Promise<string> {
  const known = process.env[PROVIDED_CLI_ENV];
  const bin =
    known !== undefined && fs.existsSync(path.join(known, "pulumi"))
      ? known
      : await runProvideScript("provide-pulumi.sh");
  process.env[PROVIDED_CLI_ENV] = bin;
  if (!(process.env.PATH ?? "").split(path.delimiter).includes(bin)) {
    process.env.PATH = `${bin}${path.delimiter}${process.env.PATH ?? ""}`;
  }
  return bin;
}
