import { performance } from "node:perf_hooks";
import { serializeWithinLimit, validateRequest } from "../sdk/request-validation";
import { JobRecordSchema, JobRequestSchema, LIMITS } from "../sdk/schemas";
import type { Table } from "./report";
import { format } from "./stats";

/** Mean µs of `fn` over `n` calls after a warm-up of a tenth as many. */
function microseconds(fn: (i: number) => unknown, n: number): number {
  for (let i = 0; i < n / 10; i++) fn(i);
  const started = performance.now();
  for (let i = 0; i < n; i++) fn(i);
  return ((performance.now() - started) * 1000) / n;
}

/**
 * The per-call steps sdk/transport.ts and sdk/jobs add on top of an undici exchange, timed in
 * isolation (no network) with the sdk's own functions, so a gap to raw undici can be attributed;
 * plus, for comparison, the two primitives the transport used per call before commit dd1a93b
 * (an `AbortSignal.timeout` per attempt, a `URL` object per request). The figures exclude the GC
 * work that pending timers cause later, which the client CPU/call column of the throughput table includes.
 */
export function clientOverheadTable(): Table {
  const record = { id: "job-0123456789", status: "COMPLETED", delayTime: 3, executionTime: 12, output: { seed: 1 } };
  const text = JSON.stringify(record);
  const base = "http://127.0.0.1:8787/v2/abcdefgh";
  const steps: [string, string, number][] = [
    ["JSON.parse of a status answer", "transport.ts parseSuccess()", microseconds(() => JSON.parse(text), 200_000)],
    [
      "JobRecordSchema.safeParse (zod)",
      "transport.ts parseSuccess()",
      microseconds(() => JobRecordSchema.safeParse(record), 200_000),
    ],
    [
      "validateRequest(JobRequestSchema) for run",
      "jobs/endpoint-jobs.ts run()",
      microseconds((i) => validateRequest(JobRequestSchema, { input: { seed: i } }, "run"), 200_000),
    ],
    [
      "serializeWithinLimit for run",
      "jobs/endpoint-jobs.ts run()",
      microseconds((i) => serializeWithinLimit({ input: { seed: i } }, LIMITS.runPayloadBytes, "run"), 200_000),
    ],
    ["path as a string", "transport.ts requestPath()", microseconds((i) => `/v2/abcdefgh/status/job-${i}`, 200_000)],
    [
      "AbortSignal.timeout(30000)",
      "before dd1a93b: per attempt",
      // The signals keep 30 s timers alive; fewer calls keep this step from measuring its own backlog.
      microseconds(() => AbortSignal.timeout(30_000), 20_000),
    ],
    [
      "new URL(base + path) + searchParams",
      "before dd1a93b: per request",
      microseconds((i) => {
        const url = new URL(`${base}/status/job-${i}`);
        url.searchParams.set("ttl", "1000");
        return url.pathname + url.search;
      }, 200_000),
    ],
  ];
  return {
    title: "Where our client's per-call time goes (each step in isolation, no network)",
    columns: ["step", "where", "µs/call"],
    textColumns: 2,
    rows: steps.map(([step, where, us]) => [step, where, format.us(us)]),
  };
}
