import { spawn } from "node:child_process";
import * as fs from "node:fs";
import { createRequire } from "node:module";
import * as os from "node:os";
import * as path from "node:path";
import type { PulumiCommand } from "@pulumi/pulumi/automation";
import type { RunningEmulator } from "../emulator";
import { REPO_ROOT } from "../scripts/pulumi-cli";
import { executableName } from "../scripts/release/sea";
import { NODE_RUNTIMES, type Platform } from "../scripts/release/node-runtimes";
import { buildRelease, PARTS } from "../scripts/release/release";
import { tar } from "../scripts/release/tar";
import { processCpuMs } from "./process-usage";
import { createPluginStack } from "./pulumi-bench";
import type { BenchStack } from "./pulumi-stack";
import { interleaved } from "./stats";

/*
 * The standalone plugin's part of the plugin benchmark (bench/plugin-bench.ts): the release's
 * artifacts built by `npm run release:artifacts`' code (their sizes), this machine's plugin
 * unpacked into a folder a stack names, and the start of each plugin, from its process's start to
 * the answer to its first request, beside the package's plugin (the launcher, on the node on PATH).
 */

/** What the benchmark built. */
export interface StandaloneBuild {
  /** Every artifact of the release, relative to its folder, with its bytes. */
  artifacts: [string, number][];
  /** The bytes of the executable inside each plugin tarball, by platform. */
  executables: [Platform, number][];
  /** The folder holding this machine's standalone plugin, unpacked (a stack's Pulumi.yaml names it). */
  folder: string;
  /** The Node.js release inside this machine's plugin. */
  node: string;
  dispose(): void;
}

/** The platform of this machine, as the release names it; the benchmark runs where a plugin is built for. */
function thisPlatform(): Platform {
  const platform = `${os.platform() === "win32" ? "windows" : os.platform()}-${os.arch() === "x64" ? "amd64" : os.arch()}`;
  if (!(platform in NODE_RUNTIMES)) throw new Error(`no standalone plugin is built for ${platform}`);
  return platform as Platform;
}

/**
 * Builds the release's artifacts (every platform's plugin when `platforms` is undefined; the
 * executables reused from the build cache when their inputs are unchanged, the tarballs at gzip's
 * level 9, as a release's), and unpacks this machine's plugin.
 */
export async function buildStandalone(
  platforms: readonly Platform[] | undefined,
  cache: string,
  log: (line: string) => void,
): Promise<StandaloneBuild> {
  const here = thisPlatform();
  const work = fs.mkdtempSync(path.join(os.tmpdir(), "runpod-bench-release-"));
  const out = path.join(work, "release");
  const wanted = platforms ?? (Object.keys(NODE_RUNTIMES) as Platform[]);
  const built = await buildRelease({
    root: REPO_ROOT,
    out,
    platforms: wanted.includes(here) ? wanted : [...wanted, here],
    parts: PARTS,
    // A measurement of the tree as it is, not a release.
    allowDirty: true,
    cache,
    log: (line) => log(`release: ${line}`),
  });
  const executables: [Platform, number][] = [];
  const folder = path.join(work, "standalone-plugin");
  fs.mkdirSync(folder);
  for (const [file] of built.files) {
    const platform = /-v[^-]+-(\w+-\w+)\.tar\.gz$/.exec(file)?.[1] as Platform | undefined;
    if (!platform || !file.startsWith("pulumi-resource-")) continue;
    const exe = executableName(platform);
    const into = platform === here ? folder : fs.mkdtempSync(path.join(work, "unpacked-"));
    tar.x({ file: path.join(out, file), cwd: into, sync: true, filter: (p) => p === exe });
    executables.push([platform, fs.statSync(path.join(into, exe)).size]);
  }
  return {
    artifacts: built.files,
    executables,
    folder,
    node: NODE_RUNTIMES[here].version,
    dispose: () => fs.rmSync(work, { recursive: true, force: true }),
  };
}

/** The plugin-stack program served by the standalone plugin in `folder` (its Pulumi.yaml names the folder). */
export async function createStandaloneStack(
  command: PulumiCommand,
  emulator: RunningEmulator,
  size: number,
  label: string,
  folder: string,
): Promise<BenchStack> {
  const bench = await createPluginStack(command, emulator, size, label);
  const project = path.join(bench.workDir, "Pulumi.yaml");
  const text = fs.readFileSync(project, "utf8");
  if (!text.includes("path: ../../plugin")) throw new Error(`${project} does not name the repository's plugin folder`);
  fs.writeFileSync(project, text.replace("path: ../../plugin", `path: ${folder}`));
  return bench;
}

/** One start of a plugin: until it printed its port, until it answered its first request, and what it held then. */
export interface StartupSample {
  portMs: number;
  answerMs: number;
  /** CPU time of the plugin's process when it answered. */
  cpuMs: number;
  /** Its resident memory then (VmRSS), in bytes. */
  rssBytes: number;
}

const fromPulumi = createRequire(require.resolve("@pulumi/pulumi"));
const grpc = fromPulumi("@grpc/grpc-js") as typeof import("@grpc/grpc-js");
const services = fromPulumi("./proto/provider_grpc_pb") as {
  ResourceProviderClient: new (
    address: string,
    credentials: unknown,
  ) => {
    getPluginInfo(request: unknown, done: (error: Error | null) => void): void;
    close(): void;
  };
};
const { Empty } = fromPulumi("google-protobuf/google/protobuf/empty_pb") as { Empty: new () => unknown };

/** The resident memory of a process, in bytes, from /proc; NaN where there is none. */
function rssBytes(pid: number): number {
  try {
    const kb = /VmRSS:\s+(\d+) kB/.exec(fs.readFileSync(`/proc/${pid}/status`, "utf8"))?.[1];
    return kb ? Number(kb) * 1024 : Number.NaN;
  } catch {
    return Number.NaN;
  }
}

/**
 * Starts the plugin executable `command` as the engine does (the engine's address as its
 * argument; nothing listens there, and a provider calls it only to log), then asks it
 * GetPluginInfo, the first request the engine sends; stops it.
 */
export function startOnce(command: string): Promise<StartupSample> {
  const started = performance.now();
  const child = spawn(command, ["127.0.0.1:1"], { stdio: ["ignore", "pipe", "pipe"] });
  return new Promise<StartupSample>((resolve, reject) => {
    let stderr = "";
    child.stderr!.on("data", (d) => (stderr += String(d)));
    child.on("exit", (code) => reject(new Error(`${command} exited with ${code} before answering: ${stderr}`)));
    child.stdout!.once("data", (d) => {
      const portMs = performance.now() - started;
      const client = new services.ResourceProviderClient(
        `127.0.0.1:${String(d).trim()}`,
        grpc.credentials.createInsecure(),
      );
      client.getPluginInfo(new Empty(), (error) => {
        const answerMs = performance.now() - started;
        const sample = { portMs, answerMs, cpuMs: processCpuMs(child.pid!), rssBytes: rssBytes(child.pid!) };
        client.close();
        child.removeAllListeners("exit");
        child.kill();
        if (error) reject(error);
        else resolve(sample);
      });
    });
  }).finally(() => {
    if (child.exitCode === null) child.kill("SIGKILL");
  });
}

/** Starts each plugin `rounds` times, in a balanced order; the samples by plugin. */
export async function measureStartups<K extends string>(
  commands: Record<K, string>,
  rounds: number,
): Promise<Record<K, StartupSample[]>> {
  const keys = Object.keys(commands) as K[];
  const samples = Object.fromEntries(keys.map((k) => [k, [] as StartupSample[]])) as Record<K, StartupSample[]>;
  for (let round = 0; round < rounds; round++) {
    for (const key of interleaved(keys, round)) samples[key].push(await startOnce(commands[key]));
  }
  return samples;
}
