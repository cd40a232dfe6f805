import { setTimeout as sleep } from "node:timers/promises";
import type { RunpodClient } from "../client";
import { RunpodError } from "../errors";
import { allUnhealthy, judgeRollout, progressLine } from "./rollout-judgement";
import { readRollout, type RolloutSnapshot } from "./rollout-snapshot";

/** The poll interval when nothing else is said: one management call per endpoint every 5 s at most. */
export const DEFAULT_ROLLOUT_POLL_MS = 5000;

/** Options of {@link waitForRollout}. */
export interface WaitForRolloutOptions {
  /** Workers of the new configuration that must have started (the endpoint's `workersMin`). */
  workersMin: number;
  /** How long to wait before the rollout is failed (ms). */
  timeoutMs: number;
  /**
   * The shortest interval between two polls of this endpoint (ms). Default: the environment's
   * `RUNPOD_ROLLOUT_POLL_SECONDS`, else `DEFAULT_ROLLOUT_POLL_MS`. On v2 the interval grows
   * with the rollouts waited on at once in this process, so that together they take at most half
   * of the account's shortest quota window.
   */
  pollMs?: number | undefined;
  /** Told each poll's progress (a line such as `rolling out configuration version 3: 1 of 2 worker(s) serving it`). */
  onProgress?: ((line: string, snapshot: RolloutSnapshot) => void) | undefined;
  /** Stops the wait (the step is cancelled). */
  signal?: AbortSignal | undefined;
}

/** A rollout that did not finish: the endpoint, the release, and why. */
export class RolloutFailedError extends RunpodError {
  override name = "RolloutFailedError";
  constructor(
    /** The endpoint's id. */
    readonly endpointId: string,
    /** The release rolled out (v2), or undefined. */
    readonly releaseId: string | undefined,
    /** Why, in words (the first log line of a worker that cannot start, or how far it got). */
    readonly reason: string,
    /** Whether it failed at the timeout rather than on a clear failure. */
    readonly timedOut: boolean,
  ) {
    const release = releaseId === undefined ? "its new configuration" : `release ${releaseId}`;
    super("api_error", `endpoint ${endpointId} did not roll out ${release}: ${reason}`);
  }
}

/** Rollouts being waited on now in this process, by management URL (they share its quota). */
const active = new Map<string, number>();

/** The interval between two polls of one endpoint now. */
export function pollIntervalMs(client: RunpodClient, baseMs: number): number {
  const waits = active.get(client.transport.config.apiUrl) ?? 1;
  const gap = client.transport.managementGapMs();
  return Math.max(baseMs, gap === undefined ? 0 : 2 * gap * waits);
}

/** The poll interval the environment asks for (`RUNPOD_ROLLOUT_POLL_SECONDS`), or the default. */
export function defaultPollMs(): number {
  const raw = process.env.RUNPOD_ROLLOUT_POLL_SECONDS?.trim();
  const seconds = raw ? Number(raw) : NaN;
  return Number.isFinite(seconds) && seconds > 0 ? seconds * 1000 : DEFAULT_ROLLOUT_POLL_MS;
}

/**
 * Waits until endpoint `endpointId` serves its current configuration: no worker on an older one,
 * and `workersMin` workers of it started (docs/resources.md "When an endpoint is deployed"). Reads
 * the rollout with one management call per poll, at once and then every poll interval; resolves
 * with the last snapshot. A rollout whose new workers all cannot start fails after a few polls; any
 * other fails at `timeoutMs`. Either way a {@link RolloutFailedError} names the endpoint, the
 * release (v2) and the reason: the first line a worker that cannot start printed, when there is one.
 */
export async function waitForRollout(
  client: RunpodClient,
  endpointId: string,
  options: WaitForRolloutOptions,
): Promise<RolloutSnapshot> {
  const key = client.transport.config.apiUrl;
  active.set(key, (active.get(key) ?? 0) + 1);
  try {
    const deadline = Date.now() + options.timeoutMs;
    let unhealthyPolls = 0;
    let lastLine = "";
    for (;;) {
      const snapshot = await readRollout(client, endpointId, { signal: options.signal });
      unhealthyPolls = allUnhealthy(snapshot) ? unhealthyPolls + 1 : 0;
      const verdict = judgeRollout(snapshot, options.workersMin, unhealthyPolls);
      if (verdict.state === "done") return snapshot;
      const line = progressLine(snapshot, options.workersMin);
      if (line !== lastLine) options.onProgress?.(line, snapshot);
      lastLine = line;
      if (verdict.state === "failed") throw await failure(client, endpointId, snapshot, verdict.reason, false);
      const wait = pollIntervalMs(client, options.pollMs ?? defaultPollMs());
      if (Date.now() + wait > deadline) {
        const seconds = Math.round(options.timeoutMs / 1000);
        throw await failure(client, endpointId, snapshot, `not served after ${seconds} s: ${line}`, true);
      }
      await sleep(wait, undefined, { signal: options.signal });
    }
  } finally {
    const left = (active.get(key) ?? 1) - 1;
    if (left > 0) active.set(key, left);
    else active.delete(key);
  }
}

/** The error of a failed rollout, with the release (v2) and the first line a worker that cannot start printed. */
async function failure(
  client: RunpodClient,
  endpointId: string,
  snapshot: RolloutSnapshot,
  reason: string,
  timedOut: boolean,
): Promise<RolloutFailedError> {
  if (client.apiVersion !== "v2") return new RolloutFailedError(endpointId, undefined, reason, timedOut);
  const release = await client.v2.serverless.releases(endpointId).then(
    (r) => r.releases[0]?.id,
    () => undefined,
  );
  const worker = snapshot.unhealthy[0];
  const printed = worker === undefined ? undefined : await firstLogLine(client, endpointId, worker);
  const why = printed === undefined ? reason : `${reason}; worker ${worker} logged: ${printed}`;
  return new RolloutFailedError(endpointId, release, why, timedOut);
}

/** The first line a worker's container printed (its system lines when it printed none), read for at most 5 s. */
async function firstLogLine(client: RunpodClient, endpointId: string, workerId: string): Promise<string | undefined> {
  const signal = AbortSignal.timeout(5000);
  let system: string | undefined;
  try {
    for await (const event of client.v2.serverless.workerLogs(endpointId, workerId, { tail: 100, signal })) {
      if (event.source === "container") return event.line;
      system ??= event.line;
    }
  } catch {
    // The log is a courtesy: the error stands without it.
  }
  return system;
}
