import { execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";

/** The repository root (the package as it is packed). */
export const REPO = path.resolve(__dirname, "..", "..");

/** One file of `npm pack --json`'s listing. */
export interface PackedFile {
  path: string;
  size: number;
}

function npm(args: string[], cwd: string): string {
  // npm-cli.js next to the running node, so the test uses the npm of the Node it runs on.
  const npmCli = path.join(path.dirname(process.execPath), "..", "lib", "node_modules", "npm", "bin", "npm-cli.js");
  const command = fs.existsSync(npmCli) ? [process.execPath, npmCli] : ["npm"];
  return execFileSync(command[0]!, [...command.slice(1), ...args], {
    cwd,
    encoding: "utf8",
    stdio: ["ignore", "pipe", "pipe"],
    env: { ...process.env, npm_config_loglevel: "error" },
  });
}

/** The files `npm publish` would publish, as `npm pack --dry-run --json` lists them (needs `npm run build`). */
export function packedFiles(): PackedFile[] {
  const [report] = JSON.parse(npm(["pack", "--dry-run", "--json", "--ignore-scripts"], REPO)) as [
    { files: PackedFile[] },
  ];
  return report.files;
}

/**
 * A fresh project folder holding the packed package under `node_modules/runpod-iac`, installed
 * from the tarball `npm pack` writes, with its dependencies and peer dependencies (and
 * `@types/node` and TypeScript, which a Pulumi TypeScript project has) linked from this
 * repository's `node_modules`, so no registry is needed. The caller removes `dir`.
 */
export function projectWithPackedPackage(): { dir: string; tsc: string } {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "runpod-iac-packed-"));
  const [report] = JSON.parse(npm(["pack", "--json", "--ignore-scripts", "--pack-destination", dir], REPO)) as [
    { filename: string },
  ];
  const modules = path.join(dir, "node_modules");
  const installed = path.join(modules, "runpod-iac");
  fs.mkdirSync(installed, { recursive: true });
  execFileSync("tar", ["xzf", path.join(dir, report.filename), "-C", installed, "--strip-components=1"]);
  const manifest = JSON.parse(fs.readFileSync(path.join(REPO, "package.json"), "utf8")) as {
    dependencies: Record<string, string>;
    peerDependencies: Record<string, string>;
  };
  const linked = [
    ...Object.keys(manifest.dependencies),
    ...Object.keys(manifest.peerDependencies),
    "@types/node",
    "typescript",
  ];
  for (const name of linked) {
    const link = path.join(modules, name);
    fs.mkdirSync(path.dirname(link), { recursive: true });
    fs.symlinkSync(path.join(REPO, "node_modules", name), link, "dir");
  }
  fs.writeFileSync(path.join(dir, "package.json"), JSON.stringify({ name: "user-program", private: true }));
  return { dir, tsc: path.join(modules, "typescript", "bin", "tsc") };
}
