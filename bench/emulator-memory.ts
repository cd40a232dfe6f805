import { ManualClock, startEmulator } from "../emulator";
import { JOB_DEFAULTS } from "../sdk/schemas";

/**
 * Heap bytes per held job (target: under 600 bytes per held job plus payload). Jobs are submitted
 * in process to an endpoint without workers, so they all stay queued with their TTL timers armed.
 * Run with `node --expose-gc dist/bench/emulator-memory.js [jobs]`; prints figures, asserts nothing.
 */
export async function measureJobMemory(
  jobs = 200_000,
): Promise<{ jobs: number; bytesPerJob: number; payloadBytes: number }> {
  const gc = (globalThis as { gc?: () => void }).gc;
  if (!gc) throw new Error("run node with --expose-gc");
  const key = "bench-memory-key";
  const emu = await startEmulator({ port: 0, apiKeys: [key], clock: new ManualClock() });
  try {
    const account = emu.store.accountForKey(key)!;
    const res = await fetch(`${emu.apiUrlV1}/endpoints`, {
      method: "POST",
      headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
      body: JSON.stringify({ templateId: "echo", workersMax: 0 }),
    });
    const { id } = (await res.json()) as { id: string };
    const runtime = account.runtime(id)!;
    const inputs = Array.from({ length: jobs }, () => ({}));
    gc();
    const before = process.memoryUsage().heapUsed;
    for (let i = 0; i < jobs; i++) runtime.submit({ input: inputs[i]! }, JOB_DEFAULTS.runRetentionMs);
    gc();
    const after = process.memoryUsage().heapUsed;
    // The empty input objects existed before the measurement, so they are not counted.
    return { jobs, bytesPerJob: Math.round((after - before) / jobs), payloadBytes: 0 };
  } finally {
    await emu.close();
  }
}

if (require.main === module) {
  measureJobMemory(Number(process.argv[2] ?? 200_000)).then(
    (r) => console.log(`emulator memory: ${r.jobs} held jobs, ${r.bytesPerJob} bytes per job (payload excluded)`),
    (e: unknown) => {
      console.error(e);
      process.exitCode = 1;
    },
  );
}
