import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type RunningEmulator, startEmulator } from "../../emulator";
import {
  type CliResult,
  createEngineStack,
  type EngineStack,
  ensureBuilt,
  RAISED_MANAGEMENT_QUOTA,
} from "./engine-harness";
import { accountCounters, platformInventory, reconcile, stateInventory } from "./inventory";
import { setFaults } from "./kill-window";
import { managementRoutes } from "./management-routes";
import { announceSeed, resilienceSeed, seedStreams, withSeed } from "./seed";

/**
 * 200 resources (100 volumes, 100 endpoints) with `pulumi up --parallel 32`
 * against the emulator with the platform's rate limits on and 10% of management requests answered 429
 * (`Retry-After: 1`). `up` converges in one run and stays within the platform's limits, which for
 * a `pulumi up` means (docs/reliability.md "Load"): no request refused by the platform's limits (the
 * limiter stays on; `up` calls only the management API, which has no published limit), at most 32
 * requests in flight at once (what `--parallel 32` allows), and every injected 429 retried, none
 * given up on. `destroy` under the same 429s leaves nothing.
 */
const KEY = "rpa_RESILIENCELOAD0001";
const SEED = resilienceSeed();
const PARALLEL = 32;
const COUNT = 100;

let emulator: RunningEmulator;
let e: EngineStack;

beforeAll(async () => {
  announceSeed("load", SEED);
  ensureBuilt();
  const streams = seedStreams(SEED, "load");
  emulator = await startEmulator({
    port: 0,
    apiKeys: [KEY],
    seed: streams.emulator,
    // At 60 a minute the run's ~450 management calls would spend about 7 minutes waiting.
    managementQuota: RAISED_MANAGEMENT_QUOTA,
  });
  // On the routes of the API the emulator advertises (v2 by default).
  await setFaults(emulator, KEY, [{ route: managementRoutes(emulator.apiUrl).base, rateLimitRate: 0.1 }]);
  e = await createEngineStack(
    "fleet",
    { apiUrl: emulator.apiUrl, queueUrl: emulator.queueUrl, apiKey: KEY },
    {
      config: { "fleet:count": { value: String(COUNT) } },
      label: "load",
      env: { RUNPOD_RETRY_SEED: String(streams.retries) },
    },
  );
});
afterAll(async () => {
  await emulator?.close();
  e?.dispose();
});

const ok = (step: string, r: CliResult) =>
  expect(r.code, withSeed(SEED, `${step}:\n${r.stdout.slice(-4000)}\n${r.stderr.slice(-4000)}`)).toBe(0);

describe("200 resources with pulumi up --parallel 32 under rate limits and 10% 429s", { timeout: 1_800_000 }, () => {
  it("converges in one run within the platform's limits, with zero orphans, and destroy leaves nothing", async () => {
    const t0 = Date.now();
    ok("pulumi up", await e.cli(["up", "--yes", "--skip-preview", "--parallel", String(PARALLEL)]));
    const upMs = Date.now() - t0;
    const up = accountCounters(emulator, KEY);
    const state = await e.exportState();
    const result = reconcile(platformInventory(emulator, KEY), state);
    expect(stateInventory(state).pending, withSeed(SEED, "pending operations")).toEqual([]);
    expect(result, withSeed(SEED, "state and platform")).toMatchObject({
      platform: 2 * COUNT,
      state: 2 * COUNT,
      orphans: [],
      missing: [],
      duplicates: [],
      doubleRecorded: [],
    });
    expect(up.rateLimited, withSeed(SEED, "requests refused by the platform's limits")).toBe(0);
    expect(up.peakInFlight, withSeed(SEED, "requests in flight at once")).toBeLessThanOrEqual(PARALLEL);
    expect(up.faults.rateLimit, withSeed(SEED, "injected 429s")).toBeGreaterThan(0);

    const t1 = Date.now();
    ok("pulumi destroy", await e.cli(["destroy", "--yes", "--skip-preview", "--parallel", String(PARALLEL)]));
    const destroyMs = Date.now() - t1;
    const all = accountCounters(emulator, KEY);
    expect(platformInventory(emulator, KEY), withSeed(SEED, "left after destroy")).toEqual([]);
    expect(all.rateLimited).toBe(0);
    expect(all.peakInFlight).toBeLessThanOrEqual(PARALLEL);
    const destroy429 = all.faults.rateLimit - up.faults.rateLimit;
    console.log(
      `resilience/load: seed=${SEED} resources=${2 * COUNT} parallel=${PARALLEL} upRuns=1 ` +
        `upAttempts=${up.requests} up429s=${up.faults.rateLimit} upRequests=${up.requests - up.faults.rateLimit} ` +
        `upWallS=${(upMs / 1000).toFixed(1)} destroyAttempts=${all.requests - up.requests} destroy429s=${destroy429} ` +
        `destroyWallS=${(destroyMs / 1000).toFixed(1)} peakInFlight=${all.peakInFlight} limiter429s=${all.rateLimited} quota429s=${all.quotaRefused} orphans=0`,
    );
  });
});
