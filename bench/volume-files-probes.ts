import { spawn } from "node:child_process";
import { readFileSync } from "node:fs";
import { mkdir, writeFile } from "node:fs/promises";
import * as path from "node:path";
import { HashCache } from "../sdk/s3/content-hash";
import { planSync } from "../sdk/s3/sync-plan";

/* What the volume files benchmark (bench/volume-files-bench.ts) measures with: processes and hashing. */

/** A process's run: wall time from start to exit, its peak resident memory (VmHWM), what it printed. */
export interface Measured {
  ms: number;
  peakRssMiB: number;
  stdout: string;
}

/** Runs `command args` to its end, sampling its peak RSS from /proc every 20 ms; rejects on a non-zero exit. */
export function measured(command: string, args: readonly string[], env: Record<string, string>): Promise<Measured> {
  const started = performance.now();
  const child = spawn(command, args, { env: { ...process.env, ...env }, stdio: ["ignore", "pipe", "pipe"] });
  let peakKiB = 0;
  const sample = () => {
    try {
      const hwm = /VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${child.pid}/status`, "utf8"));
      if (hwm) peakKiB = Math.max(peakKiB, Number(hwm[1]));
    } catch {
      // Gone between two samples: its last one stands.
    }
  };
  const timer = setInterval(sample, 20);
  let stdout = "";
  let stderr = "";
  child.stdout.on("data", (d) => (stdout += d));
  child.stderr.on("data", (d) => (stderr += d));
  return new Promise((resolve, reject) => {
    child.on("exit", (code) => {
      clearInterval(timer);
      const ms = performance.now() - started;
      if (code === 0) resolve({ ms, peakRssMiB: peakKiB / 1024, stdout });
      else reject(new Error(`${path.basename(command)} ${args.join(" ")} exited with ${code}\n${stdout}\n${stderr}`));
    });
  });
}

/** Hashes `count` files of 1 KiB once (a fresh cache), then again with the same cache (what a second plan of one process costs). */
export async function hashBench(
  work: string,
  count: number,
): Promise<{ firstMs: number; cachedMs: number; reads: number; count: number }> {
  const dir = path.join(work, "hash");
  for (let d = 0; d < 100; d++) {
    await mkdir(path.join(dir, `d${d}`), { recursive: true });
    for (let i = d; i < count; i += 100)
      await writeFile(path.join(dir, `d${d}`, `f${i}.txt`), `${i}`.padEnd(1024, "."));
  }
  const hashes = new HashCache();
  let started = performance.now();
  const plan = await planSync({ source: { folder: dir }, hashes });
  const firstMs = performance.now() - started;
  const previous = Object.fromEntries(plan.files.map((f) => [f.name, { size: f.size, sha256: f.sha256, etag: f.md5 }]));
  started = performance.now();
  const again = await planSync({ source: { folder: dir }, hashes, previous });
  const cachedMs = performance.now() - started;
  if (again.upload.length !== 0 || plan.fileCount !== count)
    throw new Error("hashing bench: the unchanged plan is not unchanged");
  return { firstMs, cachedMs, reads: hashes.reads, count };
}
