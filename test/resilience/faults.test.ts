import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type FaultRule, type RunningEmulator, startEmulator } from "../../emulator";
import { createEngineStack, type EngineStack, ensureBuilt, RAISED_MANAGEMENT_QUOTA } from "./engine-harness";
import { accountCounters, platformInventory, reconcile, stateInventory } from "./inventory";
import { setFaults } from "./kill-window";
import { managementRoutes } from "./management-routes";
import { announceSeed, resilienceSeed, seedStreams, withSeed } from "./seed";

/**
 * `pulumi up` of a 20-resource stack while the management API misbehaves
 * converges in at most 3 runs, with nothing duplicated and nothing orphaned; `destroy` under the
 * same faults leaves nothing behind. The seed picks the faults and the provider's retry jitter
 * (RESILIENCE_SEED replays them for the same requests in the same order).
 */
const KEY = "rpa_RESILIENCEFAULTS0001";
const MAX_RUNS = 3;
const SEED = resilienceSeed();
const streams = seedStreams(SEED, "faults");
/** The fault mix of docs/reliability.md: 500s, 429s, dropped connections and latency jitter on the management API. */
const MIX = { errorRate: 0.2, rateLimitRate: 0.1, dropRate: 0.05, latencyMs: 5, jitterMs: 60 };
/**
 * Plus lost answers (handled, effect kept, connection dropped): 5% of every request, and 30% of
 * creates, where a lost answer is the case that could duplicate a resource (first match wins).
 */
function faultsOn(base: string): FaultRule[] {
  return [
    { route: `POST ${base}`, ...MIX, lostResponseRate: 0.3 },
    { route: base, ...MIX, lostResponseRate: 0.05 },
  ];
}

let emulator: RunningEmulator;
let e: EngineStack;

beforeAll(async () => {
  announceSeed("faults", SEED);
  ensureBuilt();
  emulator = await startEmulator({
    port: 0,
    apiKeys: [KEY],
    rateLimits: false,
    seed: streams.emulator,
    managementQuota: RAISED_MANAGEMENT_QUOTA,
  });
  // On the routes of the API the emulator advertises (v2 by default).
  await setFaults(emulator, KEY, faultsOn(managementRoutes(emulator.apiUrl).base));
  e = await createEngineStack(
    "fleet",
    { apiUrl: emulator.apiUrl, queueUrl: emulator.queueUrl, apiKey: KEY },
    { label: "fleet", env: { RUNPOD_RETRY_SEED: String(streams.retries) } },
  );
});
afterAll(async () => {
  await emulator?.close();
  e?.dispose();
});

/** Calls an emulator admin route for the test's account (admin routes are never faulted). */
async function admin(method: string, path: string): Promise<void> {
  const res = await fetch(`${emulator.url}${path}`, { method, headers: { authorization: `Bearer ${KEY}` } });
  expect(res.status).toBeLessThan(300);
}

/** Runs `op` until it succeeds, at most MAX_RUNS times; returns the number of runs and the errors. */
async function untilSucceeded(op: () => Promise<{ summary: { result?: string } }>) {
  const errors: string[] = [];
  for (let run = 1; run <= MAX_RUNS; run++) {
    const outcome = await op().then(
      (r) => r.summary.result,
      (err: Error) => err.message,
    );
    if (outcome === "succeeded") return { runs: run, errors };
    errors.push(outcome ?? "no result");
  }
  return { runs: MAX_RUNS + 1, errors };
}

/** The first resource error of a failed run's output, for the figures line. */
function firstError(output: string): string {
  const line = output.split("\n").find((l) => /^\s*error: (?!update failed)/.test(l)) ?? "no error line";
  return line.trim().replace(/ \(request id [^)]*\)/, "");
}

describe("pulumi up and destroy while the platform fails", { timeout: 300_000 }, () => {
  it("converges in at most 3 up runs and 3 destroy runs, with zero orphans and zero duplicates", async () => {
    const up = await untilSucceeded(() => e.stack.up());
    expect(up.runs, withSeed(SEED, up.errors.join("\n---\n"))).toBeLessThanOrEqual(MAX_RUNS);
    const state = await e.exportState();
    const afterUp = reconcile(platformInventory(emulator, KEY), state);
    expect(stateInventory(state).pending, withSeed(SEED, "pending")).toEqual([]);
    expect(afterUp, withSeed(SEED, "after up")).toMatchObject({
      platform: 20,
      state: 20,
      orphans: [],
      missing: [],
      duplicates: [],
    });
    expect(afterUp.doubleRecorded).toEqual([]);

    const destroy = await untilSucceeded(() => e.stack.destroy());
    expect(destroy.runs, withSeed(SEED, destroy.errors.join("\n---\n"))).toBeLessThanOrEqual(MAX_RUNS);
    const afterDestroy = reconcile(platformInventory(emulator, KEY), await e.exportState());
    expect(afterDestroy, withSeed(SEED, "after destroy")).toMatchObject({
      platform: 0,
      state: 0,
      orphans: [],
      missing: [],
      duplicates: [],
    });

    const faulty = accountCounters(emulator, KEY);
    const { latency, ...faults } = faulty.faults;
    const injected = Object.values(faults).reduce((a, b) => a + b, 0);
    // Every kind of fault happened (drops, at 5% of about a hundred requests, are reported, not required).
    expect(faults.error * faults.rateLimit * faults.lostResponse).toBeGreaterThan(0);

    // The same up and destroy without faults: the requests the work itself takes. Everything
    // beyond it under faults is a retry (the client's, or the provider's lookup after a lost create).
    await admin("DELETE", "/_emulator/faults");
    await admin("POST", "/_emulator/stats/reset");
    expect((await e.stack.up()).summary.result).toBe("succeeded");
    expect((await e.stack.destroy()).summary.result).toBe("succeeded");
    expect(platformInventory(emulator, KEY)).toEqual([]);
    const baseline = accountCounters(emulator, KEY).requests;
    console.log(
      `resilience/faults: seed=${SEED} resources=20 upRuns=${up.runs} destroyRuns=${destroy.runs} requests=${faulty.requests} ` +
        `faultFreeRequests=${baseline} retries=${faulty.requests - baseline} injected=${injected} ` +
        `faults=${JSON.stringify(faults)} delayed=${latency} orphans=${afterUp.orphans.length + afterDestroy.orphans.length} ` +
        `duplicates=${afterUp.duplicates.length} missing=${afterUp.missing.length} ` +
        `failedRuns=${JSON.stringify([...up.errors, ...destroy.errors].map(firstError))}`,
    );
  });
});
