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
 * Runs scripts/provide-pulumi.sh (progress on stderr) and returns the directory holding `pulumi`
 * and its Node.js plugins, having put it first on this process's PATH: the engine looks its
 * plugins up on PATH.
 */
export function providePulumiCli(): Promise<string> {
  const script = path.join(REPO_ROOT, "scripts", "provide-pulumi.sh");
  return new Promise((resolve, reject) => {
    const child = spawn("bash", [script], { stdio: ["ignore", "pipe", "inherit"] });
    let out = "";
    child.stdout.on("data", (d) => {
      out += d;
    });
    child.on("error", reject);
    child.on("close", (code) => {
      const bin = out.trim().split("\n").pop() ?? "";
      if (code !== 0 || !bin) return reject(new Error(`${script} failed (exit code ${code}); see the messages above`));
      if (!(process.env.PATH ?? "").split(path.delimiter).includes(bin)) {
        process.env.PATH = `${bin}${path.delimiter}${process.env.PATH ?? ""}`;
      }
      resolve(bin);
    });
  });
}
