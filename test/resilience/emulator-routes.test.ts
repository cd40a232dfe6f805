import fc from "fast-check";
import { request } from "undici";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { RunningEmulator } from "../../emulator";
import {
  type Client,
  createEndpoint,
  KEY,
  OTHER_KEY,
  runJob,
  startTestEmulator,
} from "../integration/emulator/helpers";
import { type IdKind, requestArb } from "./route-requests";
import { announceSeed, resilienceSeed } from "./seed";

/** The run's seed drives every generated case (fast-check prints it, with a replay path, on failure). */
const SEED = resilienceSeed();
fc.configureGlobal({ ...fc.readConfigureGlobal(), seed: SEED });
announceSeed("emulator-routes", SEED);

/**
 * Property-based bad input, the emulator's routes: random methods, paths, ids, queries, content types,
 * bodies and keys at every route (test/integration/emulator/http-robustness.test.ts sends random
 * JSON bodies to fixed routes; this widens every other part of the request). The emulator never
 * answers 5xx, and a refused request changes nothing: the volumes, endpoints, templates,
 * registry auths and jobs of both accounts are the same before and after it.
 */
const RUNS = 2000;

let emu: RunningEmulator;
let api: Client;
let other: Client;

beforeAll(async () => {
  // Manual clock: nothing changes by itself; no rate limits, so every request reaches validation.
  const ctx = await startTestEmulator({ rateLimits: false });
  emu = ctx.emu;
  api = ctx.api;
  other = ctx.other;
  await replenish();
  const theirs = await createEndpoint(other, { workersMax: 0 });
  await runJob(other, theirs, { input: { theirs: true } });
  await other.post("/v1/networkvolumes", { name: "theirs", size: 5, dataCenterId: "EU-RO-1" });
  const theirAuth = (await other.post("/v1/containerregistryauth", { name: "theirs", username: "u", password: "p" }))
    .body;
  await other.post("/v1/templates", { name: "theirs", imageName: "x", containerRegistryAuthId: theirAuth.id });
});
afterAll(() => emu?.close());

function account(key: string) {
  const a = emu.store.accountForKey(key);
  if (!a) throw new Error("no account");
  return a;
}

/** What a refused request must not change: both accounts' management records, and the jobs each endpoint holds. */
function snapshot(): string {
  return JSON.stringify(
    [KEY, OTHER_KEY].map((key) => {
      const a = account(key);
      // A pre-deployed model's runtime springs up empty on first mention: only held jobs count.
      const jobs = [...a.allRuntimes()]
        .filter(([, runtime]) => runtime.jobs.size > 0)
        .map(([id, runtime]) => [id, [...runtime.jobs.keys()].sort()]);
      return {
        volumes: [...a.networkVolumes.values()],
        endpoints: [...a.endpoints.values()],
        templates: [...a.templates.values()],
        auths: [...a.containerRegistryAuths.values()],
        jobs,
      };
    }),
  );
}

let made = 0;
/**
 * Keeps at least two volumes, two registry auths, two templates (pulling with an auth, so it is
 * in use) and two endpoints with a queued job each in the main account, one endpoint running a
 * template of the account (so it is in use too).
 */
async function replenish(): Promise<void> {
  const a = account(KEY);
  while (a.networkVolumes.size < 2)
    await api.post("/v1/networkvolumes", { name: "v", size: 5, dataCenterId: "EU-RO-1" });
  while (a.containerRegistryAuths.size < 2)
    await api.post("/v1/containerregistryauth", { name: `auth-${made++}`, username: "u", password: "p" });
  while (a.templates.size < 2) {
    const containerRegistryAuthId = [...a.containerRegistryAuths.keys()][0];
    const body = {
      name: `tpl-${made++}`,
      imageName: "ghcr.io/acme/echo:1",
      isServerless: true,
      containerRegistryAuthId,
    };
    await api.post("/v1/templates", body);
  }
  const own = [...a.templates.values()].find((t) => t.serverless);
  if (own && ![...a.endpoints.values()].some((e) => a.templates.has(e.templateId ?? ""))) {
    await createEndpoint(api, { workersMax: 0, templateId: own.id });
  }
  while (a.endpoints.size < 2) await createEndpoint(api, { workersMax: 0 });
  for (const id of a.endpoints.keys()) {
    if ((a.runtime(id)?.jobs.size ?? 0) === 0) await runJob(api, id, { input: { n: 1 } });
  }
}

const idOf = (kind: IdKind, pick: number, ids: (key: string) => string[], random: string): string => {
  if (kind === "random" || kind === "junk") return random;
  const list = ids(kind === "own" ? KEY : OTHER_KEY);
  return list.length ? (list[pick % list.length] as string) : "none";
};
const volumeIds = (key: string) => [...account(key).networkVolumes.keys()];
const endpointIds = (key: string) => [...account(key).endpoints.keys()];
const templateIds = (key: string) => [...account(key).templates.keys()];
const authIds = (key: string) => [...account(key).containerRegistryAuths.keys()];
const jobIds = (key: string) => [...account(key).allRuntimes().values()].flatMap((r) => [...r.jobs.keys()]);

describe("the emulator's routes on random and malformed requests", () => {
  it("never answers 5xx, and a refused request changes no state", { timeout: 120_000 }, async () => {
    const statuses = new Map<number, number>();
    let heldOpen = 0;
    let refused = 0;
    let before = snapshot();
    await fc.assert(
      fc.asyncProperty(requestArb, async (r) => {
        const [routeMethod, template] = r.route;
        const path = template
          .replace("{vol}", idOf(r.idKind, r.pick, volumeIds, r.randomId))
          .replace("{ep}", idOf(r.idKind, r.pick, endpointIds, r.randomId))
          .replace("{job}", idOf(r.idKind, r.pick, jobIds, r.randomId))
          .replace("{tpl}", idOf(r.idKind, r.pick, templateIds, r.randomId))
          .replace("{auth}", idOf(r.idKind, r.pick, authIds, r.randomId));
        // Admin routes that change the emulator itself (reset, faults, clock) are tested elsewhere.
        const method = path.startsWith("/_emulator") ? "GET" : routeMethod;
        const withBody = method !== "GET" && method !== "HEAD" && r.body !== null;
        const key = { own: KEY, other: OTHER_KEY, none: undefined, wrong: "not-a-key-0000", empty: "" }[r.auth];
        const headers: Record<string, string> = {};
        if (key !== undefined) headers.authorization = `Bearer ${key}`;
        if (withBody && r.contentType) headers["content-type"] = r.contentType;
        const url = `${emu.url}${path}${r.query !== null ? `?${r.query}` : ""}`;
        // Valid /runsync, /status-sync and /stream calls wait on the (manual) clock: they are given
        // up on after 300 ms and counted as held open. Every other route must answer; it gets time enough for a loaded
        // machine (a registry auth create hashes its password), so that no write can still be
        // under way when the next snapshot is taken.
        const mayHold = /\/(runsync|status-sync\/\{job\}|stream\/\{job\})$/.test(template);
        let status: number;
        try {
          const res = await request(url, {
            method: method as "GET",
            headers,
            body: withBody ? (r.body as string) : undefined,
            signal: AbortSignal.timeout(mayHold ? 300 : 30_000),
          });
          await res.body.dump();
          status = res.statusCode;
        } catch (err) {
          if ((err as Error).name !== "TimeoutError" && (err as Error).name !== "AbortError") throw err;
          if (!mayHold) throw new Error(`${method} ${url}: no answer within 30 s`, { cause: err });
          heldOpen++;
          await replenish();
          before = snapshot();
          return;
        }
        statuses.set(status, (statuses.get(status) ?? 0) + 1);
        expect(status, `${method} ${url}`).toBeLessThan(500);
        if (status >= 400) {
          refused++;
          expect(snapshot(), `${method} ${url} (${status}) changed state`).toBe(before);
        } else {
          await replenish();
          before = snapshot();
        }
      }),
      { numRuns: RUNS },
    );
    const byStatus = Object.fromEntries([...statuses].sort(([a], [b]) => a - b));
    console.log(
      `resilience/emulator-routes: cases=${RUNS} refused=${refused} accepted=${RUNS - refused - heldOpen} ` +
        `heldOpen=${heldOpen} 5xx=0 stateChangedOnRefusal=0 statuses=${JSON.stringify(byStatus)}`,
    );
    expect(refused).toBeGreaterThan(RUNS / 2);
  });
});
