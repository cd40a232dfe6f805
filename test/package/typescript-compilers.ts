import { execFileSync } from "node:child_process";
import * as crypto from "node:crypto";
import * as fs from "node:fs";
import * as path from "node:path";
import { cacheRoot } from "../../scripts/release/node-runtimes";

/*
 * TypeScript 6 and 7 from npm, for compiling users' programs with them: installed with `npm ci`
 * from test/package/typescript-compilers/ (its lockfile pins each release with its integrity) into
 * a folder outside the repository, keyed by the lockfile's hash, so a run after the first needs no
 * registry. Not in the repository's own devDependencies: an aliased `typescript` links its `tsc`
 * over the repository's, and the build runs `tsc`.
 */

const SOURCE = path.join(__dirname, "typescript-compilers");

/** The compilers' folders, each a `typescript` package. */
export interface TypeScriptCompilers {
  /** typescript@6.0.3: the JavaScript compiler, with its API (ts-node uses it). */
  ts6: string;
  /** typescript@7.0.2: the native compiler; its package's API is the version only. */
  ts7: string;
}

/** Installs (once) and returns the compilers; throws with npm's words when the registry cannot be reached. */
export function provideTypeScriptCompilers(): TypeScriptCompilers {
  const lock = fs.readFileSync(path.join(SOURCE, "package-lock.json"));
  const key = crypto.createHash("sha256").update(lock).digest("hex").slice(0, 16);
  const root = cacheRoot();
  const dest = path.join(root, `typescript-compilers-${key}`);
  const found = (dir: string): TypeScriptCompilers => ({
    ts6: path.join(dir, "node_modules", "typescript-6"),
    ts7: path.join(dir, "node_modules", "typescript-7"),
  });
  if (fs.existsSync(path.join(dest, "node_modules", ".package-lock.json"))) return found(dest);
  fs.mkdirSync(root, { recursive: true });
  const work = fs.mkdtempSync(path.join(root, ".typescript-compilers-"));
  try {
    for (const file of ["package.json", "package-lock.json"])
      fs.copyFileSync(path.join(SOURCE, file), path.join(work, file));
    execFileSync("npm", ["ci", "--ignore-scripts", "--no-audit", "--no-fund"], {
      cwd: work,
      stdio: ["ignore", "ignore", "pipe"],
      env: { ...process.env, npm_config_loglevel: "error" },
    });
    // Another run may have finished first; either copy is the same lockfile's.
    fs.rmSync(dest, { recursive: true, force: true });
    fs.renameSync(work, dest);
  } finally {
    fs.rmSync(work, { recursive: true, force: true });
  }
  return found(dest);
}
