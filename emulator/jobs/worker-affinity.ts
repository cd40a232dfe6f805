import type { Scheduler } from "../clock/scheduler";
import { Timer } from "../clock/scheduler";

/*
 * Worker affinity on load-balancing endpoints (docs/platform.md "Worker affinity"): the request
 * header `X-Runpod-Worker-Id` pins a request to a worker, softly or strictly, and every answer a
 * worker gave names it in the same header.
 */

/** The header, both ways (as node gives request headers: lower case). */
export const WORKER_ID_HEADER = "x-runpod-worker-id";

/**
 * How long a strict request waits for its worker to have room, in platform ms: "about 5 minutes"
 * on the platform; on the emulator clock, so `--time-scale` shortens it.
 */
export const STRICT_WAIT_MS = 300_000;

/** How a request asks for its worker: none, `soft` (prefer), `strict` (only), `strict-resume` (only, resuming it). */
export type Affinity = { mode: "none" } | { mode: "soft" | "strict" | "strict-resume"; workerId: string };

/**
 * Reads the request header: empty or absent is normal routing; `strict <id>` and
 * `strict-resume <id>` are strict; any other value is a worker id preferred softly (a soft
 * preference never fails, so a value that names no worker is routed normally).
 */
export function parseAffinity(header: string | string[] | undefined): Affinity {
  const value = (Array.isArray(header) ? header[0] : header)?.trim() ?? "";
  if (value === "") return { mode: "none" };
  const m = /^(strict|strict-resume)\s+(\S+)$/.exec(value);
  if (m) return { mode: m[1] as "strict" | "strict-resume", workerId: m[2]! };
  return { mode: "soft", workerId: value };
}

/** The answers of a pin that cannot be kept: 404 when the worker is gone, 400 when the wait ran out. */
export const AFFINITY_ERRORS = {
  gone: (workerId: string, endpointId: string) => ({
    statusCode: 404,
    headers: {},
    body: {
      error: "affinity_worker_gone",
      message: `worker ${workerId} is not in the active set of endpoint ${endpointId}; drop the pin or pin another worker`,
    },
  }),
  // The platform's table says `worker_timeout`, its prose "timed out waiting for worker": both are here.
  timeout: (workerId: string) => ({
    statusCode: 400,
    headers: {},
    body: {
      error: "worker_timeout",
      message: `timed out waiting for worker ${workerId} (it stayed at capacity for ${STRICT_WAIT_MS / 60_000} minutes)`,
    },
  }),
};

/**
 * Requests waiting for a pinned worker, woken whenever a worker frees room, starts or stops (they
 * are few: only strict pins wait), each under its deadline on the emulator clock.
 */
export class AffinityWaits {
  private readonly waiters = new Set<() => void>();

  constructor(private readonly scheduler: Scheduler) {}

  /**
   * Resolves true at the next change, false once `deadline` (platform ms; none: no deadline)
   * passes or `signal` aborts.
   */
  next(deadline: number | undefined, signal: AbortSignal): Promise<boolean> {
    return new Promise((resolve) => {
      const left = deadline === undefined ? undefined : deadline - this.scheduler.now();
      if ((left !== undefined && left <= 0) || signal.aborted) return resolve(false);
      const done = (changed: boolean) => {
        this.scheduler.cancel(timer);
        this.waiters.delete(wake);
        signal.removeEventListener("abort", onAbort);
        resolve(changed);
      };
      const wake = () => done(true);
      const onAbort = () => done(false);
      const timer = new Timer(() => done(false));
      this.waiters.add(wake);
      signal.addEventListener("abort", onAbort, { once: true });
      if (left !== undefined) this.scheduler.after(timer, left);
    });
  }

  /** Something changed: every waiter looks again. */
  wake(): void {
    for (const wake of [...this.waiters]) wake();
  }
}

/**
 * Workers that scaled down, with the configuration version they ran: `strict-resume` may bring
 * one back under its id while the endpoint still runs that version (a new release means new
 * workers under new ids: gone for good). The last 1,000 are kept.
 */
export class ScaledDownWorkers {
  private readonly versions = new Map<string, number>();

  add(workerId: string, version: number): void {
    this.versions.delete(workerId);
    this.versions.set(workerId, version);
    if (this.versions.size > 1000) this.versions.delete(this.versions.keys().next().value!);
  }

  delete(workerId: string): void {
    this.versions.delete(workerId);
  }

  /** Whether the worker can be resumed on the endpoint's current version. */
  resumable(workerId: string, version: number): boolean {
    return this.versions.get(workerId) === version;
  }
}
