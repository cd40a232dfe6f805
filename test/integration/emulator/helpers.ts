import { request } from "undici";
import { afterAll, afterEach, beforeAll, beforeEach } from "vitest";
import { type EmulatorOptions, ManualClock, type RunningEmulator, startEmulator } from "../../../emulator";

/** The key most tests use, and a second account's key. */
export const KEY = "test-key-alpha-0001";
export const OTHER_KEY = "test-key-bravo-0002";

/** An HTTP answer with its body parsed as JSON when it is JSON. */
export interface Answer {
  status: number;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- test code reads arbitrary JSON
  body: any;
  headers: Record<string, string | string[] | undefined>;
}

/**
 * A tiny client over undici `request`, bound to one key and to an emulator, or to a function that
 * answers the current one (so a file-level client follows the fixture from test to test).
 * `key: null` sends no Authorization header.
 */
export function clientFor(target: RunningEmulator | (() => RunningEmulator), key: string | null = KEY) {
  const emulator = typeof target === "function" ? target : () => target;
  const send = async (method: string, path: string, body?: unknown, headers: Record<string, string> = {}) => {
    const res = await request(`${emulator().url}${path}`, {
      method: method as "GET",
      headers: {
        ...(key ? { authorization: `Bearer ${key}` } : {}),
        ...(body !== undefined ? { "content-type": "application/json" } : {}),
        ...headers,
      },
      body:
        body === undefined
          ? undefined
          : typeof body === "string" || Buffer.isBuffer(body)
            ? body
            : JSON.stringify(body),
    });
    const text = await res.body.text();
    let parsed: unknown = text;
    if (String(res.headers["content-type"] ?? "").includes("json") && text) parsed = JSON.parse(text);
    return { status: res.statusCode, body: parsed, headers: res.headers } as Answer;
  };
  return {
    send,
    get: (path: string) => send("GET", path),
    post: (path: string, body?: unknown) => send("POST", path, body),
    patch: (path: string, body?: unknown) => send("PATCH", path, body),
    put: (path: string, body?: unknown) => send("PUT", path, body),
    del: (path: string) => send("DELETE", path),
  };
}

/** A client. */
export type Client = ReturnType<typeof clientFor>;

/**
 * Starts an emulator on a free loopback port with a manual clock (unless told otherwise) and two
 * accounts. Management API v2's quota is off unless a test passes `managementQuota`: 60 calls a
 * minute on a clock that stands still would refuse a file's 61st v2 management call. Workers are
 * ready at once unless a test passes `workerBootMs`: on a clock that stands still a worker would
 * never finish booting.
 */
export async function startTestEmulator(options: EmulatorOptions = {}): Promise<TestEmulator> {
  const clock = options.clock ?? (options.timeScale === undefined ? new ManualClock() : undefined);
  const emu = await startEmulator({
    port: 0,
    apiKeys: [KEY, OTHER_KEY],
    managementQuota: false,
    workerBootMs: 0,
    ...options,
    ...(clock ? { clock } : {}),
  });
  return { emu, clock: clock as ManualClock, api: clientFor(emu, KEY), other: clientFor(emu, OTHER_KEY) };
}

/** An emulator of a test: the server, its manual clock (when it has one) and a client per account. */
export interface TestEmulator {
  emu: RunningEmulator;
  clock: ManualClock;
  api: Client;
  other: Client;
}

/** When the fixture starts an emulator: before each test, once for the file, or when the test calls `start`. */
export type EmulatorLifetime = "each" | "file" | "manual";

/**
 * The fixture of the emulator integration tests, registered once at the top of a file:
 *
 * ```ts
 * const ctx = useTestEmulator();               // a fresh emulator before each test, closed after it
 * const { api } = ctx;                         // clients that always talk to the current emulator
 * const lazy = useTestEmulator({}, "manual");  // a test calls `await lazy.start({ rateLimits: false })`
 * ```
 *
 * `defaults` may be a function, read when the emulator starts (e.g. a directory made in `beforeAll`).
 *
 * The emulator listens on a free loopback port with two accounts (`KEY`, `OTHER_KEY`) and a
 * manual clock unless `timeScale` or `clock` is given; whatever was started is closed.
 */
export function useTestEmulator(
  defaults: EmulatorOptions | (() => EmulatorOptions) = {},
  lifetime: EmulatorLifetime = "each",
): TestEmulator & { start(options?: EmulatorOptions): Promise<TestEmulator> } {
  let current: TestEmulator | undefined;
  const live = () => {
    if (!current) throw new Error("no emulator is running: start one first (useTestEmulator lifetime 'manual')");
    return current;
  };
  const start = async (options: EmulatorOptions = {}) => {
    current = await startTestEmulator({ ...(typeof defaults === "function" ? defaults() : defaults), ...options });
    return current;
  };
  const stop = async () => {
    await current?.emu.close();
    current = undefined;
  };
  if (lifetime === "file") {
    beforeAll(() => start().then(() => undefined));
    afterAll(stop);
  } else {
    if (lifetime === "each") beforeEach(() => start().then(() => undefined));
    afterEach(stop);
  }
  return {
    start,
    get emu() {
      return live().emu;
    },
    get clock() {
      return live().clock;
    },
    api: clientFor(() => live().emu, KEY),
    other: clientFor(() => live().emu, OTHER_KEY),
  };
}

/** Creates an endpoint and returns its id. */
export async function createEndpoint(api: Client, fields: Record<string, unknown> = {}): Promise<string> {
  const res = await api.post("/v1/endpoints", { name: "test", templateId: "echo", ...fields });
  if (res.status !== 200) throw new Error(`endpoint creation failed: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body.id;
}

/** Submits a job with `/run` and returns its id. */
export async function runJob(api: Client, endpointId: string, body: Record<string, unknown>): Promise<string> {
  const res = await api.post(`/v2/${endpointId}/run`, body);
  if (res.status !== 200) throw new Error(`run failed: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body.id;
}

/** Polls `check` (real time) until it stops throwing. */
export async function eventually<T>(check: () => Promise<T> | T, timeoutMs = 3000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      return await check();
    } catch (error) {
      if (Date.now() > deadline) throw error;
      await new Promise((r) => setTimeout(r, 10));
    }
  }
}

/** Lets pending promise chains and immediates run. */
export function settle(): Promise<void> {
  return new Promise((r) => setTimeout(r, 5));
}

/** Waits (real time) until the endpoint's `/health` job counts include `expected`. */
export async function untilJobs(api: Client, endpointId: string, expected: Record<string, number>): Promise<void> {
  await eventually(async () => {
    const health = await api.get(`/v2/${endpointId}/health`);
    for (const [k, v] of Object.entries(expected)) {
      if (health.body.jobs[k] !== v) throw new Error(`jobs.${k} is ${health.body.jobs[k]}, waiting for ${v}`);
    }
  });
}

/** Waits (real time) until the emulator holds at least `count` pending deadlines (e.g. a request's wait timer). */
export async function untilTimers(emu: RunningEmulator, count: number): Promise<void> {
  await eventually(() => {
    if (emu.scheduler.pending < count) throw new Error(`${emu.scheduler.pending} timers pending, waiting for ${count}`);
  });
}
