import { Agent, request } from "undici";
import { RunpodClient } from "../sdk/client";
import type { RateLimitOverrides } from "../sdk/jobs/endpoint-pacers";

/** Where a batch goes. */
export interface BatchTarget {
  apiKey: string;
  queueUrl: string;
  apiUrl: string;
  endpointId: string;
}

/**
 * What a batch loop reported per input: 0 nothing, 1 the job's final record, 2 an outcome that
 * is not a record (ours: `unknown`, `error` or `aborted`; the others: gave up with an error).
 * Counts of several reports for one input are kept apart (`reportedTwice`).
 */
export interface BatchClientResult {
  reports: Uint8Array;
  reportedTwice: number;
  /** Inputs ours reported `unknown` (the others cannot tell). */
  unknown: number;
}

/** One way of running a batch of `count` inputs `{ i }` to their ends. */
export interface BatchAlternative {
  name: string;
  run(target: BatchTarget, count: number): Promise<BatchClientResult>;
}

const TERMINAL = new Set(["COMPLETED", "FAILED", "CANCELLED", "TIMED_OUT"]);
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

function newResult(count: number): BatchClientResult {
  return { reports: new Uint8Array(count), reportedTwice: 0, unknown: 0 };
}

function report(result: BatchClientResult, index: number, kind: 1 | 2): void {
  if (result.reports[index] !== 0) result.reportedTwice++;
  else result.reports[index] = kind;
}

/** Ours: `submitMany` over a generator, defaults except where `limits` says (a fast emulator clock). */
export function oursAlternative(limits?: RateLimitOverrides): BatchAlternative {
  return {
    name: "ours (submitMany)",
    async run(t, count) {
      const client = new RunpodClient({ apiKey: t.apiKey, apiUrl: t.apiUrl, queueUrl: t.queueUrl });
      const result = newResult(count);
      function* inputs() {
        for (let i = 0; i < count; i++) yield { input: { i } };
      }
      try {
        for await (const o of client.jobs(t.endpointId).submitMany(inputs(), { limits })) {
          report(result, o.index, o.kind === "ended" ? 1 : 2);
          if (o.kind === "unknown") result.unknown++;
        }
      } finally {
        await client.close();
      }
      return result;
    },
  };
}

/** Minimal shape of the official SDK (its published typings import a package it does not depend on). */
interface OfficialEndpoint {
  run(request: { input: unknown }): Promise<{ id?: string; status?: unknown }>;
  status(id: string): Promise<{ id?: string; status?: unknown }>;
}

/**
 * Exponential backoff with full jitter from 1 s, up to 30 s, as the platform's documentation tells
 * clients to do on a 429 ("back off exponentially and retry"); what a careful `Promise.all` user
 * adds.
 */
const backoff = (attempt: number) => Math.random() * Math.min(30_000, 1000 * 2 ** attempt);
/** Attempts per call before a naive loop gives up on an input. */
const NAIVE_ATTEMPTS = 10;

/**
 * The official SDK (npm `runpod-sdk`) in the common loop its users write: `Promise.all`
 * over every input at once, each `run` then `status` every second until the job ends, any
 * failed call retried with exponential backoff (10 attempts). A failed `run` is sent again
 * whatever the failure, as the SDK does not say whether it was delivered.
 */
export function officialPromiseAllAlternative(): BatchAlternative {
  return {
    name: "official SDK, Promise.all",
    async run(t, count) {
      const specifier = "runpod-sdk";
      const mod = (await import(specifier)) as {
        default: (key: string, o: { baseUrl: string }) => { endpoint(id: string): OfficialEndpoint };
      };
      const endpoint = mod.default(t.apiKey, { baseUrl: t.queueUrl }).endpoint(t.endpointId);
      const result = newResult(count);
      const one = async (i: number) => {
        let id: string | undefined;
        for (let attempt = 0; id === undefined; attempt++) {
          if (attempt === NAIVE_ATTEMPTS) return report(result, i, 2);
          try {
            id = (await endpoint.run({ input: { i } })).id;
          } catch {
            // retried below
          }
          if (id === undefined) await sleep(backoff(attempt));
        }
        for (let failures = 0; ;) {
          await sleep(1000);
          try {
            const s = await endpoint.status(id);
            if (typeof s.status === "string" && TERMINAL.has(s.status)) return report(result, i, 1);
            if (s.id === undefined && ++failures === NAIVE_ATTEMPTS) return report(result, i, 2);
          } catch {
            if (++failures === NAIVE_ATTEMPTS) return report(result, i, 2);
            await sleep(backoff(failures));
          }
        }
      };
      await Promise.all(Array.from({ length: count }, (_, i) => one(i)));
      return result;
    },
  };
}

/**
 * Raw undici, `lanes` loops at once (200, the platform's `/run` concurrency cap), each taking the
 * next input: `/run` (a 429 waits its `Retry-After`, other failures back off, then it is sent
 * again), then `/status` every second until the job ends.
 */
export function undiciFixedConcurrencyAlternative(lanes = 200): BatchAlternative {
  return {
    name: `raw undici, ${lanes} at once`,
    async run(t, count) {
      const dispatcher = new Agent({ connections: lanes, keepAliveTimeout: 10_000 });
      const headers = { authorization: `Bearer ${t.apiKey}`, "content-type": "application/json" };
      const base = `${t.queueUrl}/${t.endpointId}`;
      const result = newResult(count);
      const call = async (url: string, method: "GET" | "POST", body?: string) => {
        const res = await request(url, { method, headers, body, dispatcher });
        const json = (await res.body.json()) as { id?: string; status?: string };
        return { code: res.statusCode, retryAfter: Number(res.headers["retry-after"] ?? 1), json };
      };
      const attempt = async <T>(send: () => Promise<T | "again">): Promise<T | undefined> => {
        for (let n = 0; n < NAIVE_ATTEMPTS; n++) {
          try {
            const answer = await send();
            if (answer !== "again") return answer;
          } catch {
            await sleep(backoff(n));
          }
        }
        return undefined;
      };
      let next = 0;
      const lane = async () => {
        while (next < count) {
          const i = next++;
          const id = await attempt(async () => {
            const r = await call(`${base}/run`, "POST", JSON.stringify({ input: { i } }));
            if (r.code === 429) await sleep(r.retryAfter * 1000);
            return r.code === 200 && r.json.id ? r.json.id : "again";
          });
          if (id === undefined) {
            report(result, i, 2);
            continue;
          }
          let done = false;
          for (let polls = 0; !done; polls++) {
            await sleep(1000);
            const status = await attempt(async () => {
              const r = await call(`${base}/status/${id}`, "GET");
              if (r.code === 429) await sleep(r.retryAfter * 1000);
              return r.code === 200 && r.json.status ? r.json.status : "again";
            });
            if (status === undefined) {
              report(result, i, 2);
              done = true;
            } else if (TERMINAL.has(status)) {
              report(result, i, 1);
              done = true;
            }
          }
        }
      };
      try {
        await Promise.all(Array.from({ length: lanes }, lane));
      } finally {
        await dispatcher.close();
      }
      return result;
    },
  };
}
