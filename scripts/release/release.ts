import { execFileSync } from "node:child_process";
import * as fs from "node:fs";
import * as path from "node:path";
import { projectHome } from "../../plugin/project-home";
import { writeChecksums } from "./archives";
import type { BundleReport } from "./bundle-plugin";
import { commitTime, dirtyFiles, versionProblems } from "./checks";
import { writeGoModule } from "./go-module";
import { type Platform, PLATFORMS } from "./node-runtimes";
import { buildPluginTarballs } from "./plugin-tarballs";
import { buildPythonDist } from "./python-dist";

/*
 * `npm run release:artifacts`: every artifact of a release, under dist/release/, from the
 * commit checked out (docs/releasing.md). Refuses a working tree with changes and versions that
 * disagree, before anything is built.
 */

/** The kinds of artifact. */
export const PARTS = ["npm", "plugin", "python", "go", "schema"] as const;
/** One kind of artifact. */
export type Part = (typeof PARTS)[number];

/** What to build, and how. */
export interface ReleaseOptions {
  root: string;
  out: string;
  platforms: readonly Platform[];
  parts: readonly Part[];
  /** Build from a working tree with changes (tests, trying out); a release never does. */
  allowDirty: boolean;
  /** The release's tag (`v<version>`), checked against package.json's version. */
  tag?: string;
  /** Executables built before (SeaTools.cache): for the tests and the benchmark, never a release. */
  cache?: string;
  /** gzip's level for the plugin tarballs (9 when not given: a release's). */
  gzipLevel?: number;
  log(line: string): void;
}

/** What was built. */
export interface ReleaseResult {
  version: string;
  /** Every artifact, relative to `out`, with its bytes. */
  files: [string, number][];
  bundle?: BundleReport;
  sourceDateEpoch: number;
}

/** A tool on PATH, or an error saying what it is for and where it comes from. */
function tool(name: string, why: string, from: string): string {
  const found = (process.env.PATH ?? "")
    .split(path.delimiter)
    .map((dir) => path.join(dir, name))
    .find((file) => fs.existsSync(file));
  if (!found) throw new Error(`${name} is not on PATH: it ${why} (${from})`);
  return found;
}

/** Builds the release's artifacts; an error naming every problem when the tree or the versions are not fit. */
export async function buildRelease(o: ReleaseOptions): Promise<ReleaseResult> {
  const problems = o.allowDirty
    ? []
    : dirtyFiles(o.root).map((line) => `the working tree has a change: ${line.trim()} (commit or stash it)`);
  problems.push(...versionProblems(o.root, o.tag));
  if (problems.length > 0) throw new Error(`no release from this tree:\n  ${problems.join("\n  ")}`);
  const manifest = JSON.parse(fs.readFileSync(path.join(o.root, "package.json"), "utf8")) as {
    version: string;
    repository: unknown;
  };
  const version = manifest.version;
  const sourceDateEpoch = commitTime(o.root);
  const mtime = new Date(sourceDateEpoch * 1000);
  fs.rmSync(o.out, { recursive: true, force: true });
  fs.mkdirSync(o.out, { recursive: true });
  const work = fs.mkdtempSync(path.join(path.dirname(o.out), ".release-work-"));
  let bundle: BundleReport | undefined;
  try {
    if (o.parts.includes("schema")) {
      fs.copyFileSync(
        path.join(o.root, "plugin", "schema.json"),
        path.join(o.out, `runpod-iac-schema-v${version}.json`),
      );
    }
    if (o.parts.includes("npm")) {
      o.log("npm package");
      execFileSync("npm", ["pack", "--ignore-scripts", "--pack-destination", o.out], {
        cwd: o.root,
        stdio: ["ignore", "ignore", "inherit"],
        env: { ...process.env, npm_config_loglevel: "error" },
      });
    }
    if (o.parts.includes("python")) {
      o.log("Python wheel and sdist");
      buildPythonDist(o.root, o.out, version, sourceDateEpoch);
    }
    if (o.parts.includes("go")) {
      o.log("Go module");
      await writeGoModule(o.root, path.join(o.out, "go"), projectHome(manifest.repository).goModule, version, mtime);
    }
    if (o.parts.includes("plugin")) {
      const linux = o.platforms.some((p) => p.startsWith("linux"));
      const windows = o.platforms.some((p) => p.startsWith("windows"));
      const tools = {
        strip: linux ? tool("llvm-strip", "strips the Linux binaries", "Debian/Ubuntu: apt-get install llvm") : "",
        osslsigncode: windows
          ? tool(
              "osslsigncode",
              "removes Node's Authenticode signature from the Windows binary",
              "Debian/Ubuntu: apt-get install osslsigncode",
            )
          : "",
        cache: o.cache,
        gzipLevel: o.gzipLevel,
        log: o.log,
      };
      bundle = (await buildPluginTarballs(o.root, o.out, work, version, o.platforms, mtime, tools)).bundle;
    }
    writeChecksums(o.out);
  } finally {
    fs.rmSync(work, { recursive: true, force: true });
  }
  const files: [string, number][] = [];
  const walk = (rel: string) => {
    for (const entry of fs.readdirSync(path.join(o.out, rel), { withFileTypes: true })) {
      const child = rel ? `${rel}/${entry.name}` : entry.name;
      if (entry.isDirectory()) walk(child);
      else files.push([child, fs.statSync(path.join(o.out, child)).size]);
    }
  };
  walk("");
  return { version, files: files.sort(([a], [b]) => (a < b ? -1 : 1)), bundle, sourceDateEpoch };
}

/** Every platform, every part: a whole release. */
export const WHOLE_RELEASE = { platforms: PLATFORMS, parts: PARTS };
