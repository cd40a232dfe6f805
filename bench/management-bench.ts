import { performance } from "node:perf_hooks";
import { RunpodClient } from "../sdk/client";
import { EmulatorApi, type EmulatorProcess, startEmulatorProcess } from "./emulator-process";
import { type BurstSample, type DialectSamples, managementSection } from "./management-report";
import { type ManagementBenchSettings, UNBINDING_QUOTA } from "./management-settings";
import type { BenchSection } from "./report";
import { drive, format, interleaved } from "./stats";

const KEY = "bench-management-key";

type Alternative = { name: string; call: () => Promise<unknown>; client: RunpodClient };

/** Benchmark: management calls per second on v2 against v1, then bursts against a short-window quota. */
export async function runManagementBench(
  s: ManagementBenchSettings,
  log: (line: string) => void,
): Promise<BenchSection> {
  const dialects = await runDialects(s, log);
  const bursts = await runBursts(s, log);
  return managementSection(s, dialects, bursts);
}

/** Part (a): the same version-neutral `networkVolumes.get` through a v1 and a v2 client, side by side. */
async function runDialects(s: ManagementBenchSettings, log: (line: string) => void): Promise<DialectSamples> {
  const open = await startEmulatorProcess(KEY, ["--no-rate-limits", "--no-management-quota"]);
  const quota = await startEmulatorProcess(KEY, ["--no-rate-limits", "--management-quota", UNBINDING_QUOTA]);
  const alternatives: Alternative[] = [];
  try {
    const made = async (emu: EmulatorProcess) =>
      (
        await new EmulatorApi(emu.url, KEY).call<{ id: string }>("POST", "/v1/networkvolumes", {
          name: "bench",
          size: 10,
          dataCenterId: "EU-RO-1",
        })
      ).id;
    const openId = await made(open);
    const quotaId = await made(quota);
    const alternative = (name: string, emu: EmulatorProcess, version: "v1" | "v2", id: string): Alternative => {
      const client = new RunpodClient({ apiKey: KEY, apiUrl: `${emu.url}/${version}`, queueUrl: emu.queueUrl });
      return { name, client, call: () => client.networkVolumes.get(id) };
    };
    alternatives.push(
      alternative("v1", open, "v1", openId),
      alternative("v2 (quota off)", open, "v2", openId),
      alternative("v2 (quota headers parsed)", quota, "v2", quotaId),
    );
    const samples: DialectSamples = new Map(
      alternatives.map((a) => [a.name, { callsPerSecond: [], cpuMicros: [], errors: 0 }]),
    );
    for (const a of alternatives) await drive(Math.min(1_000, s.dialectCalls), s.dialectConcurrency, a.call);
    for (let round = 0; round < s.dialectRounds; round++) {
      for (const a of interleaved(alternatives, round)) {
        await settle();
        const cpu = process.cpuUsage();
        const r = await drive(s.dialectCalls, s.dialectConcurrency, a.call);
        const used = process.cpuUsage(cpu);
        const sample = samples.get(a.name)!;
        sample.callsPerSecond.push((s.dialectCalls * 1000) / r.ms);
        sample.cpuMicros.push((used.user + used.system) / s.dialectCalls);
        sample.errors += r.errors;
        sample.firstError ??= r.firstError;
        log(
          `management round ${round + 1}/${s.dialectRounds} ${a.name}: ${format.int((s.dialectCalls * 1000) / r.ms)}/s`,
        );
      }
    }
    return samples;
  } finally {
    for (const a of alternatives) await a.client.close();
    await Promise.all([open.stop(), quota.stop()]);
  }
}

/**
 * Part (b): bursts of `burstCalls` v2 management calls from `burstCallers` callers against a quota
 * of `burstQuota` per `burstWindowSeconds`, each on a fresh account (an API key of its own), so
 * each starts with the window's whole quota.
 */
async function runBursts(s: ManagementBenchSettings, log: (line: string) => void): Promise<BurstSample[]> {
  const plan: ("paced" | "unpaced")[] = Array.from({ length: s.burstRounds + 1 }, (_, i) =>
    i === 1 ? "unpaced" : "paced",
  );
  const keys = plan.map((_, i) => `${KEY}-burst-${i}`);
  const spec = `${s.burstWindowSeconds === 1 ? "second" : "burst"}=${s.burstQuota}${s.burstWindowSeconds === 1 ? "" : `/${s.burstWindowSeconds}`}`;
  const emu = await startEmulatorProcess(`${KEY}-warm-up`, [
    "--no-rate-limits",
    "--management-quota",
    spec,
    ...keys.flatMap((k) => ["--api-key", k]),
  ]);
  try {
    // Warm-up (not measured) on an account of its own: JIT and connections.
    await burst(emu, `${KEY}-warm-up`, true, { ...s, burstCalls: Math.min(2 * s.burstQuota, s.burstCalls) });
    const samples: BurstSample[] = [];
    for (const [i, mode] of plan.entries()) {
      await settle();
      const sample = await burst(emu, keys[i]!, mode === "paced", s);
      samples.push(sample);
      log(
        `management burst ${i + 1}/${plan.length} (${mode}): ${format.seconds(sample.wallMs)}, floor ${format.seconds(sample.floorMs)}, ${sample.refused} answers of 429`,
      );
    }
    return samples;
  } finally {
    await emu.stop();
  }
}

/** One burst on account `key`: wall time, the floor the quota sets for it, 429s, failures, client CPU. */
async function burst(
  emu: EmulatorProcess,
  key: string,
  paced: boolean,
  s: ManagementBenchSettings,
): Promise<BurstSample> {
  const api = new EmulatorApi(emu.url, key);
  // Unpaced, a call may meet a 429 at every attempt for a while: enough attempts that none gives up.
  const client = new RunpodClient({
    apiKey: key,
    apiUrl: `${emu.url}/v2`,
    queueUrl: emu.queueUrl,
    pacing: paced,
    maxAttempts: paced ? 4 : 50,
  });
  const windowMs = s.burstWindowSeconds * 1000;
  try {
    // Where the emulator's window stands (time scale 1: platform ms are real ms), read just before the start.
    const asked = performance.now();
    const { now } = await api.call<{ now: number }>("GET", "/_emulator/clock");
    const read = (asked + performance.now()) / 2;
    const cpu = process.cpuUsage();
    const started = performance.now();
    const r = await drive(s.burstCalls, s.burstCallers, () => client.v2.catalog.cpus());
    const used = process.cpuUsage(cpu);
    const floorMs = quotaFloorMs(s.burstCalls, s.burstQuota, windowMs, windowMs - (now % windowMs) - (started - read));
    const stats = await api.call<{ managementQuotaRefused: number }>("GET", "/_emulator/stats");
    return {
      paced,
      wallMs: r.ms,
      floorMs,
      refused: stats.managementQuotaRefused,
      failed: r.errors,
      firstError: r.firstError,
      cpuMs: (used.user + used.system) / 1000,
    };
  } finally {
    await client.close();
  }
}

/**
 * The floor a quota of `quota` calls per window of `windowMs` sets for `calls` calls started
 * `firstEndMs` before the end of a window, with that window's whole quota left: the last call
 * cannot be sent before window ceil(calls / quota) opens, counting the first as window 1. The calls'
 * own time is left out, so the floor is below what any client can reach.
 */
export function quotaFloorMs(calls: number, quota: number, windowMs: number, firstEndMs: number): number {
  const windows = Math.ceil(calls / quota);
  if (windows <= 1) return 0;
  // The clock was read a moment before the start: the window may have turned in between.
  let firstEnd = firstEndMs;
  while (firstEnd <= 0) firstEnd += windowMs;
  return firstEnd + (windows - 2) * windowMs;
}

/** A full garbage collection between timed runs (with `node --expose-gc`). */
async function settle(): Promise<void> {
  (globalThis as { gc?: () => void }).gc?.();
  await new Promise<void>((resolve) => setImmediate(resolve));
}
