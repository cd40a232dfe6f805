import { afterEach, describe, expect, it } from "vitest";
import {
  type EmulatorOptions,
  ManualClock,
  parseQuotaSpec,
  type RunningEmulator,
  startEmulator,
} from "../../../emulator";
import { AbortError, QuotaExhaustedError, RunpodClient, type RunpodClientOptions } from "../../../sdk";
import { clientFor, eventually } from "../emulator/helpers";

/**
 * The client paces its management requests on v2 by the account's quota, over
 * real HTTP against the emulator. Tests on the real clock use one-second windows, so each takes
 * a few seconds; the others use a manual emulator clock and are exact.
 */
const KEY = "pacing-key";
let emulator: RunningEmulator | undefined;
const clients: RunpodClient[] = [];

afterEach(async () => {
  await Promise.all(clients.splice(0).map((c) => c.close()));
  await emulator?.close();
  emulator = undefined;
});

async function start(options: EmulatorOptions): Promise<RunningEmulator> {
  emulator = await startEmulator({ port: 0, apiKeys: [KEY], rateLimits: false, ...options });
  return emulator;
}

function clientOf(emu: RunningEmulator, options: RunpodClientOptions = {}): RunpodClient {
  const client = new RunpodClient({ apiKey: KEY, apiUrl: emu.apiUrlV2, queueUrl: emu.queueUrl, ...options });
  clients.push(client);
  return client;
}

async function stats(emu: RunningEmulator) {
  return (await clientFor(emu, KEY).get("/_emulator/stats")).body as {
    requests: { total: number; byRoute: Record<string, number> };
    managementQuotaRefused: number;
  };
}

/** `calls` calls of `call` from `callers` concurrent callers; resolves with every result. */
async function burst<T>(calls: number, callers: number, call: (i: number) => Promise<T>): Promise<T[]> {
  const results: T[] = [];
  let next = 0;
  await Promise.all(
    Array.from({ length: callers }, async () => {
      while (next < calls) {
        const i = next++;
        results[i] = await call(i);
      }
    }),
  );
  return results;
}

describe("pacing under a burst", () => {
  it("keeps 8 concurrent callers under a small quota: every call answered, no 429", async () => {
    const emu = await start({ managementQuota: parseQuotaSpec("second=20") });
    const client = clientOf(emu);
    const volume = await client.networkVolumes.create({ name: "data", size: 10, dataCenterId: "EU-RO-1" });
    const answers = await burst(60, 8, (i) =>
      i % 2 === 0 ? client.networkVolumes.get(volume.id) : client.v2.catalog.cpus(),
    );
    expect(answers).toHaveLength(60);
    expect(answers.filter((a) => Array.isArray(a))).toHaveLength(30);
    const after = await stats(emu);
    expect(after.managementQuotaRefused, "answers of 429").toBe(0);
    // One request per call reached the emulator: nothing was refused and sent again.
    expect(after.requests.byRoute).toMatchObject({
      "GET /v2/network-volumes/:id": 30,
      "GET /v2/catalog/cpus": 30,
    });
  });

  it("runs into 429s under the same burst with pacing off, which retries still get through", async () => {
    const emu = await start({ managementQuota: parseQuotaSpec("second=20") });
    const client = clientOf(emu, { pacing: false, maxAttempts: 10 });
    await burst(60, 8, () => client.v2.catalog.cpus());
    const after = await stats(emu);
    expect(after.managementQuotaRefused).toBeGreaterThan(0);
    expect(client.transport.attempts).toBe(60 + after.managementQuotaRefused);
  });

  it("gets every call through while another process spends the same account's quota", async () => {
    const emu = await start({ managementQuota: parseQuotaSpec("second=10") });
    const client = clientOf(emu, { maxAttempts: 10 });
    const spender = clientFor(emu, KEY);
    let spending = true;
    // Another process on the account: 3 calls every half second, 6 of the 10 a second allows.
    const other = (async () => {
      while (spending) {
        await Promise.all([1, 2, 3].map(() => spender.get("/v2/catalog/cpus")));
        await new Promise((r) => setTimeout(r, 500));
      }
    })();
    try {
      const answers = await burst(24, 8, () => client.v2.catalog.cpus());
      expect(answers.every((a) => Array.isArray(a) && a.length > 0)).toBe(true);
    } finally {
      spending = false;
      await other;
    }
  });
});

describe("pacing decisions against a manual emulator clock", () => {
  it("retries the 429 another client's spending causes, after Retry-After, and the call succeeds", async () => {
    const clock = new ManualClock();
    const emu = await start({ clock, managementQuota: parseQuotaSpec("burst=3/1") });
    const client = clientOf(emu);
    await client.v2.catalog.cpus(); // the client now believes 2 are left
    const other = clientFor(emu, KEY);
    expect((await other.get("/v2/catalog/cpus")).status).toBe(200);
    expect((await other.get("/v2/catalog/cpus")).status).toBe(200);
    const call = client.v2.catalog.cpus();
    // The client sends, meets the 429, and waits the second Retry-After names; the window then ends.
    await eventually(async () => expect((await stats(emu)).managementQuotaRefused).toBe(1));
    await clock.advance(1000);
    await expect(call).resolves.toEqual(expect.any(Array));
    expect(client.transport.attempts).toBe(3);
  });

  it("does not hold job requests when the management quota is spent, though both share one base URL", async () => {
    const emu = await start({ clock: new ManualClock(), managementQuota: parseQuotaSpec("minute=1") });
    expect(emu.apiUrlV2).toBe(emu.queueUrl);
    const client = clientOf(emu);
    await client.v2.catalog.cpus(); // the minute is spent, and the emulator's clock stands still
    const health = await client.jobs("sdxl-turbo").health();
    expect(health.jobs.completed).toBe(0);
  });

  it("fails at once, sending nothing, when the window outlasts the retry budget", async () => {
    const emu = await start({ clock: new ManualClock(), managementQuota: parseQuotaSpec("minute=1") });
    const client = clientOf(emu, { retryBudgetMs: 5000 });
    await client.v2.catalog.cpus();
    const before = (await stats(emu)).requests.total;
    const error = await client.v2.catalog.cpus().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(QuotaExhaustedError);
    expect(error).toMatchObject({ code: "rate_limited", window: "minute", quota: 1 });
    expect((error as Error).message).toMatch(
      /^GET \/v2\/catalog\/cpus: not sent: the account's minute quota of 1 requests is spent for 60 s more, beyond this request's retry budget \(\d+ ms left; raise retryBudgetMs to wait longer\)$/,
    );
    expect((error as Error).message).not.toContain(KEY);
    // Nothing reached the emulator (its admin routes are not counted).
    expect((await stats(emu)).requests.total).toBe(before);
  });

  it("lets a caller abort a call waiting for its turn", async () => {
    const emu = await start({ clock: new ManualClock(), managementQuota: parseQuotaSpec("minute=1") });
    const client = clientOf(emu, { retryBudgetMs: 120_000 });
    await client.v2.catalog.cpus();
    const controller = new AbortController();
    const call = client.v2.catalog.cpus({ signal: controller.signal });
    controller.abort();
    await expect(call).rejects.toBeInstanceOf(AbortError);
  });
});
