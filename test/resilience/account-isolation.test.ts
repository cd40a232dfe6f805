import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ManualClock, type RunningEmulator, startEmulator } from "../../emulator";
import { type Client, clientFor, createEndpoint, runJob } from "../integration/emulator/helpers";
import { announceSeed, resilienceSeed } from "./seed";

/** The run's seed drives every generated case (fast-check prints it, with a replay path, on failure). */
const SEED = resilienceSeed();
fc.configureGlobal({ ...fc.readConfigureGlobal(), seed: SEED });
announceSeed("account-isolation", SEED);

/**
 * Account isolation under concurrent clients of several keys. Thousands of
 * randomized attempts to read, change, delete, cancel or query another account's volumes,
 * endpoints, templates, registry auths and jobs, sent concurrently; every one is refused (404 as
 * if absent, 400 for attaching another account's volume, template or registry auth, 401 for a bad
 * key), lists never show another account's ids, and every account's state is byte for byte what
 * it was.
 */
const ATTEMPTS = 2000;
const CONCURRENCY = 16;
const KEYS = [
  "rpa_ISOLATION_ALPHA_0001",
  "rpa_ISOLATION_BRAVO_0002",
  "rpa_ISOLATION_CHARLIE_03",
  "rpa_ISOLATION_DELTA_0004",
];

interface Owned {
  key: string;
  client: Client;
  volumes: string[];
  endpoints: string[];
  templates: string[];
  auths: string[];
  jobs: { endpoint: string; job: string }[];
}

let emu: RunningEmulator;
let accounts: Owned[];

beforeAll(async () => {
  // Manual clock and no workers: nothing changes unless a request changes it.
  emu = await startEmulator({ port: 0, apiKeys: KEYS, clock: new ManualClock(), rateLimits: false });
  accounts = await Promise.all(
    KEYS.map(async (key, i) => {
      const client = clientFor(emu, key);
      const volumes: string[] = [];
      const endpoints: string[] = [];
      const jobs: Owned["jobs"] = [];
      const auth = (await client.post("/v1/containerregistryauth", { name: `auth-${i}`, username: "u", password: "p" }))
        .body.id as string;
      const template = (
        await client.post("/v1/templates", {
          name: `tpl-${i}`,
          imageName: "ghcr.io/acme/echo:1",
          isServerless: true,
          containerRegistryAuthId: auth,
        })
      ).body.id as string;
      for (let v = 0; v < 2; v++) {
        const res = await client.post("/v1/networkvolumes", {
          name: `vol-${i}-${v}`,
          size: 10,
          dataCenterId: "EU-RO-1",
        });
        volumes.push(res.body.id);
      }
      for (let n = 0; n < 2; n++) {
        const endpoint = await createEndpoint(client, {
          name: `ep-${i}-${n}`,
          workersMax: 0,
          networkVolumeId: volumes[n],
          ...(n === 0 ? { templateId: template } : {}),
        });
        endpoints.push(endpoint);
        for (let j = 0; j < 2; j++)
          jobs.push({ endpoint, job: await runJob(client, endpoint, { input: { i, n, j } }) });
      }
      return { key, client, volumes, endpoints, templates: [template], auths: [auth], jobs };
    }),
  );
});
afterAll(() => emu?.close());

/** An account's whole state, read in-process. */
function stateOf(key: string): string {
  const a = emu.store.accountForKey(key);
  if (!a) throw new Error("no account");
  const jobs = [...a.allRuntimes()].map(([id, r]) => [id, [...r.jobs.values()].map((j) => [j.id, j.status])]);
  return JSON.stringify({
    volumes: [...a.networkVolumes.values()],
    endpoints: [...a.endpoints.values()],
    templates: [...a.templates.values()],
    auths: [...a.containerRegistryAuths.values()],
    jobs,
  });
}

/** Keys that must not open any account: near misses of real keys included. */
const badKeys = (key: string) => [`${key}x`, key.slice(0, -1), key.toLowerCase(), `${key.slice(0, 8)}`, "emulator-key"];

type Attempt = { op: string; expected: number; send: (c: Client) => Promise<{ status: number; body: unknown }> };

/** What an attacker can try against a victim's resources. */
function attacks(victim: Owned, attacker: Owned, pick: number): Attempt[] {
  const at = <T>(list: T[]) => list[pick % list.length] as T;
  const vol = at(victim.volumes);
  const ep = at(victim.endpoints);
  const { endpoint: jobEp, job } = at(victim.jobs);
  const ownEp = at(attacker.endpoints);
  const tpl = at(victim.templates);
  const auth = at(victim.auths);
  const ownTpl = at(attacker.templates);
  return [
    { op: "get volume", expected: 404, send: (c) => c.get(`/v1/networkvolumes/${vol}`) },
    { op: "patch volume", expected: 404, send: (c) => c.patch(`/v1/networkvolumes/${vol}`, { size: 999 }) },
    { op: "update volume", expected: 404, send: (c) => c.post(`/v1/networkvolumes/${vol}/update`, { name: "x" }) },
    { op: "delete volume", expected: 404, send: (c) => c.del(`/v1/networkvolumes/${vol}`) },
    { op: "get endpoint", expected: 404, send: (c) => c.get(`/v1/endpoints/${ep}?includeWorkers=true`) },
    { op: "patch endpoint", expected: 404, send: (c) => c.patch(`/v1/endpoints/${ep}`, { workersMax: 9 }) },
    { op: "update endpoint", expected: 404, send: (c) => c.post(`/v1/endpoints/${ep}/update`, { name: "x" }) },
    { op: "delete endpoint", expected: 404, send: (c) => c.del(`/v1/endpoints/${ep}`) },
    { op: "run", expected: 404, send: (c) => c.post(`/v2/${ep}/run`, { input: { x: 1 } }) },
    { op: "runsync", expected: 404, send: (c) => c.post(`/v2/${ep}/runsync?wait=1000`, { input: { x: 1 } }) },
    { op: "health", expected: 404, send: (c) => c.get(`/v2/${ep}/health`) },
    { op: "purge-queue", expected: 404, send: (c) => c.post(`/v2/${ep}/purge-queue`) },
    { op: "requests", expected: 404, send: (c) => c.get(`/v2/${ep}/requests`) },
    { op: "openai models", expected: 404, send: (c) => c.get(`/v2/${ep}/openai/v1/models`) },
    { op: "openai chat", expected: 404, send: (c) => c.post(`/v2/${ep}/openai/v1/chat/completions`, { messages: [] }) },
    { op: "status", expected: 404, send: (c) => c.get(`/v2/${jobEp}/status/${job}?ttl=1000`) },
    { op: "status-sync", expected: 404, send: (c) => c.get(`/v2/${jobEp}/status-sync/${job}?wait=1000`) },
    { op: "stream", expected: 404, send: (c) => c.get(`/v2/${jobEp}/stream/${job}`) },
    { op: "cancel", expected: 404, send: (c) => c.post(`/v2/${jobEp}/cancel/${job}`) },
    { op: "retry", expected: 404, send: (c) => c.post(`/v2/${jobEp}/retry/${job}`) },
    // Another account's job id through one's own endpoint.
    { op: "status via own endpoint", expected: 404, send: (c) => c.get(`/v2/${ownEp}/status/${job}`) },
    { op: "cancel via own endpoint", expected: 404, send: (c) => c.post(`/v2/${ownEp}/cancel/${job}`) },
    { op: "get template", expected: 404, send: (c) => c.get(`/v1/templates/${tpl}?includeRunpodTemplates=true`) },
    { op: "patch template", expected: 404, send: (c) => c.patch(`/v1/templates/${tpl}`, { imageName: "x" }) },
    { op: "update template", expected: 404, send: (c) => c.post(`/v1/templates/${tpl}/update`, { env: {} }) },
    { op: "delete template", expected: 404, send: (c) => c.del(`/v1/templates/${tpl}`) },
    { op: "get registry auth", expected: 404, send: (c) => c.get(`/v1/containerregistryauth/${auth}`) },
    { op: "delete registry auth", expected: 404, send: (c) => c.del(`/v1/containerregistryauth/${auth}`) },
    // Running another account's template, or pulling with its registry auth, is a bad field, creating nothing.
    { op: "use template", expected: 400, send: (c) => c.post("/v1/endpoints", { templateId: tpl }) },
    { op: "switch to template", expected: 400, send: (c) => c.patch(`/v1/endpoints/${ownEp}`, { templateId: tpl }) },
    {
      op: "attach registry auth",
      expected: 400,
      send: (c) => c.patch(`/v1/templates/${ownTpl}`, { containerRegistryAuthId: auth }),
    },
    // Attaching another account's volume is refused as a bad field, creating nothing.
    {
      op: "attach volume",
      expected: 400,
      send: (c) => c.post("/v1/endpoints", { templateId: "echo", networkVolumeId: vol }),
    },
    {
      op: "attach volume to own",
      expected: 400,
      send: (c) => c.patch(`/v1/endpoints/${ownEp}`, { networkVolumeId: vol }),
    },
  ];
}

const attemptArb = fc.record({
  attacker: fc.nat({ max: KEYS.length - 1 }),
  victimOffset: fc.integer({ min: 1, max: KEYS.length - 1 }),
  op: fc.nat(),
  pick: fc.nat(),
  // One attempt in eight presents a near miss of the attacker's key instead.
  badKey: fc.oneof({ weight: 7, arbitrary: fc.constant(null) }, { weight: 1, arbitrary: fc.nat() }),
});

describe("account isolation under concurrent clients of several keys", () => {
  it(
    "refuses every cross-account read and write, and leaves every account as it was",
    {
      timeout: 120_000,
    },
    async () => {
      const before = KEYS.map(stateOf);
      const plan = fc.sample(attemptArb, { numRuns: ATTEMPTS, seed: SEED });
      const outcomes = new Map<string, number>();
      const breaches: string[] = [];
      let listReads = 0;
      let next = 0;
      const worker = async () => {
        while (next < plan.length) {
          const a = plan[next++] as (typeof plan)[number];
          const attacker = accounts[a.attacker] as Owned;
          const victim = accounts[(a.attacker + a.victimOffset) % KEYS.length] as Owned;
          const options = attacks(victim, attacker, a.pick);
          const attempt = options[a.op % options.length] as Attempt;
          const bad = a.badKey === null ? undefined : badKeys(attacker.key)[a.badKey % 5];
          const client = bad === undefined ? attacker.client : clientFor(emu, bad);
          const res = await attempt.send(client);
          const expected = bad === undefined ? attempt.expected : 401;
          const label = `${bad === undefined ? "" : "bad key: "}${attempt.op} -> ${res.status}`;
          outcomes.set(label, (outcomes.get(label) ?? 0) + 1);
          if (res.status !== expected) breaches.push(`${label} (expected ${expected}): ${JSON.stringify(res.body)}`);
          // Lists, read concurrently with the attacks, never show another account's ids.
          if (a.pick % 10 === 0) {
            listReads += 4;
            const lists = JSON.stringify([
              (await attacker.client.get("/v1/networkvolumes")).body,
              (await attacker.client.get("/v1/endpoints")).body,
              (await attacker.client.get("/v1/templates?includeRunpodTemplates=true")).body,
              (await attacker.client.get("/v1/containerregistryauth")).body,
            ]);
            for (const id of [...victim.volumes, ...victim.endpoints, ...victim.templates, ...victim.auths]) {
              if (lists.includes(id)) breaches.push(`list of ${attacker.key} shows ${id}`);
            }
          }
        }
      };
      await Promise.all(Array.from({ length: CONCURRENCY }, worker));
      expect(breaches).toEqual([]);
      expect(KEYS.map(stateOf)).toEqual(before);
      const refused = [...outcomes]
        .filter(([k]) => !breaches.some((b) => b.startsWith(k)))
        .reduce((x, [, n]) => x + n, 0);
      const badKeyAttempts = [...outcomes].filter(([k]) => k.startsWith("bad key")).reduce((x, [, n]) => x + n, 0);
      console.log(
        `resilience/isolation: accounts=${KEYS.length} attempts=${ATTEMPTS} concurrency=${CONCURRENCY} refused=${refused} ` +
          `badKeyAttempts=${badKeyAttempts} listReads=${listReads} crossAccountReads=0 crossAccountWrites=0 stateChanged=0 ` +
          `operations=${new Set([...outcomes.keys()].map((k) => k.replace(/ -> \d+$/, ""))).size}`,
      );
    },
  );
});
