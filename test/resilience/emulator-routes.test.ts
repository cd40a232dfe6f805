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
  const own = [...a.templates.values()].find((t) => t.isServerless);
  if (own && ![...a.endpoints.values()].some((e) => a.templates.has(e.templateId ?? ""))) {
    await createEndpoint(api, { workersMax: 0, templateId: own.id });
  }
  while (a.endpoints.size < 2) await createEndpoint(api, { workersMax: 0 });
  for (const id of a.endpoints.keys()) {
    if ((a.runtime(id)?.jobs.size ?? 0) === 0) await runJob(api, id, { input: { n: 1 } });
  }
}

type IdKind = "own" | "other" | "random" | "junk";
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

const TEMPLATES = [
  "/v1/networkvolumes",
  "/v1/networkvolumes/{vol}",
  "/v1/networkvolumes/{vol}/update",
  "/v1/endpoints",
  "/v1/endpoints/{ep}",
  "/v1/endpoints/{ep}/update",
  "/v1/templates",
  "/v1/templates/{tpl}",
  "/v1/templates/{tpl}/update",
  "/v1/templates/echo",
  "/v1/containerregistryauth",
  "/v1/containerregistryauth/{auth}",
  "/v2/{ep}/run",
  "/v2/{ep}/runsync",
  "/v2/{ep}/status/{job}",
  "/v2/{ep}/status-sync/{job}",
  "/v2/{ep}/stream/{job}",
  "/v2/{ep}/cancel/{job}",
  "/v2/{ep}/retry/{job}",
  "/v2/{ep}/purge-queue",
  "/v2/{ep}/health",
  "/v2/sdxl-turbo/run",
  "/v2/sdxl-turbo/status/{job}",
  "/_emulator/state",
  "/_emulator/stats",
  "/_emulator/faults",
  "/",
  "/v1",
  "/v2",
  "/v3/{ep}",
];
const JUNK = ["%", "%E0%A4%A", "..", "%00", "a".repeat(300), "%2F", "{}", "%20", "\u00e9", "null"];

/** The routes with their own methods, so most requests get past routing to validation. */
const ROUTES: [string, string][] = [
  ["POST", "/v1/networkvolumes"],
  ["PATCH", "/v1/networkvolumes/{vol}"],
  ["POST", "/v1/networkvolumes/{vol}/update"],
  ["POST", "/v1/endpoints"],
  ["PATCH", "/v1/endpoints/{ep}"],
  ["POST", "/v1/endpoints/{ep}/update"],
  ["POST", "/v1/templates"],
  ["PATCH", "/v1/templates/{tpl}"],
  ["POST", "/v1/templates/{tpl}/update"],
  ["DELETE", "/v1/templates/{tpl}"],
  ["POST", "/v1/containerregistryauth"],
  ["DELETE", "/v1/containerregistryauth/{auth}"],
  ["POST", "/v2/{ep}/run"],
  ["POST", "/v2/{ep}/runsync"],
  ["GET", "/v2/{ep}/status/{job}"],
  ["POST", "/v2/{ep}/cancel/{job}"],
  ["POST", "/v2/{ep}/retry/{job}"],
  ["POST", "/v2/sdxl-turbo/run"],
  ["POST", "/v2/serverless"],
  ["PATCH", "/v2/serverless/{ep}"],
  ["GET", "/v2/serverless/{ep}/workers/{job}/logs"],
  ["POST", "/v2/templates"],
  ["PATCH", "/v2/templates/{tpl}"],
  ["POST", "/v2/registries"],
  ["POST", "/v2/registries/delegations"],
  ["POST", "/lb/{ep}/{job}"],
];
/** Mostly `valid` (three times in four), else one of `invalid`. */
const mostly = (valid: fc.Arbitrary<unknown>, ...invalid: fc.Arbitrary<unknown>[]) =>
  fc.oneof({ weight: 3, arbitrary: valid }, { weight: 1, arbitrary: fc.oneof(...invalid) });
const METHODS = ["GET", "POST", "PUT", "PATCH", "DELETE", "HEAD", "OPTIONS"];

const requestArb = fc.record({
  route: fc.oneof(
    { weight: 3, arbitrary: fc.constantFrom(...ROUTES) },
    { weight: 2, arbitrary: fc.tuple(fc.constantFrom(...METHODS), fc.constantFrom(...TEMPLATES)) },
    {
      weight: 1,
      arbitrary: fc.tuple(
        fc.constantFrom(...METHODS),
        fc
          .array(fc.oneof(fc.constantFrom("v1", "v2", "endpoints", "{ep}", "{vol}", "run"), fc.string()), {
            maxLength: 5,
          })
          .map((segments) => `/${segments.map((s) => (s.startsWith("{") ? s : encodeURIComponent(s))).join("/")}`),
      ),
    },
  ),
  idKind: fc.constantFrom<IdKind>("own", "own", "other", "random", "junk"),
  pick: fc.nat(),
  randomId: fc.oneof(fc.string({ maxLength: 30 }).map(encodeURIComponent), fc.constantFrom(...JUNK)),
  query: fc.option(
    fc.oneof(
      fc
        .dictionary(
          fc.oneof(
            fc.constantFrom("wait", "ttl", "includeTemplate", "includeWorkers", "includeRunpodTemplates"),
            fc.string(),
          ),
          fc.oneof(fc.integer({ min: -10, max: 400_000 }).map(String), fc.constantFrom("true", "1e3", ""), fc.string()),
          { maxKeys: 3 },
        )
        .map((q) => new URLSearchParams(q).toString()),
      fc.constantFrom("%%", "wait=%", "=&=", "ttl[]=1"),
    ),
  ),
  contentType: fc.constantFrom(
    "application/json",
    "application/json",
    "application/json; charset=utf-8",
    "text/plain",
    "application/x-www-form-urlencoded",
    "multipart/form-data; boundary=x",
    undefined,
  ),
  body: fc.option(
    fc.oneof(
      fc.json(),
      fc
        .record(
          {
            name: fc.anything({ maxDepth: 1 }),
            size: fc.oneof(fc.integer({ min: -5, max: 5000 }), fc.anything({ maxDepth: 1 })),
            dataCenterId: fc.constantFrom("EU-RO-1", "XX", 3),
            templateId: fc.constantFrom("echo", "nope", ""),
            workersMin: fc.integer({ min: -1, max: 5 }),
            workersMax: fc.integer({ min: -1, max: 5 }),
            networkVolumeId: fc.constantFrom("nope", ""),
            input: fc.anything({ maxDepth: 2 }),
            policy: fc.anything({ maxDepth: 1 }),
            webhook: fc.constantFrom("https://example.invalid/hook", "nope"),
          },
          { requiredKeys: [] },
        )
        .map((v) => JSON.stringify(v)),
      // Template and registry auth bodies: mostly valid values, names that clash with replenish's.
      fc
        .record(
          {
            name: mostly(
              fc.constantFrom("fresh", "tpl-0", "auth-0"),
              fc.constantFrom(""),
              fc.anything({ maxDepth: 0 }),
            ),
            imageName: mostly(
              fc.constantFrom("ghcr.io/acme/echo:1", "x/nope@sha256:00"),
              fc.constantFrom("", "a b", 7),
            ),
            env: mostly(fc.constant({ TOKEN: "v" }), fc.constant({ "1X": "v" }), fc.anything({ maxDepth: 1 })),
            ports: mostly(fc.constant(["8000/http"]), fc.constantFrom(["22/udp"], "80/http", [80])),
            category: mostly(fc.constant("CPU"), fc.constant("TPU")),
            isServerless: mostly(fc.boolean(), fc.constant("yes")),
            containerRegistryAuthId: mostly(fc.constant(""), fc.constant("cnope")),
            readme: fc.string(),
            username: mostly(fc.constant("robot"), fc.constantFrom("", 1)),
            password: mostly(fc.constant("pw"), fc.constantFrom("", null)),
          },
          { requiredKeys: ["name", "imageName", "username", "password"] },
        )
        .map((v) => JSON.stringify(v)),
      fc.string(),
      fc.constantFrom('{"a":', "[", '{"__proto__":{"x":1}}', '{"constructor":{"prototype":{"x":1}}}', "\u0000"),
    ),
  ),
  auth: fc.oneof(
    { weight: 12, arbitrary: fc.constant("own" as const) },
    { weight: 1, arbitrary: fc.constantFrom("other" as const, "none" as const, "wrong" as const, "empty" as const) },
  ),
});

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
