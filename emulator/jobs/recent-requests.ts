import type { JobStatus } from "../../sdk/schemas";
import type { Job } from "./job";

/** How a job was submitted: `/run`, `/runsync`, or a call under `/openai/`. */
export type RequestSource = "run" | "runsync" | "openai";

/** At most this many requests are listed: the newest. */
export const RECENT_REQUESTS_MAX = 100;
/** Requests submitted longer ago than this (platform ms) are no longer listed: 30 minutes, the retention of `/run` results. */
export const RECENT_REQUESTS_WINDOW_MS = 30 * 60_000;

/** One request as `/requests` answers it (the emulator's own shape: no public document gives one). */
export interface RecentRequestView {
  id: string;
  status: JobStatus;
  source: RequestSource;
  /** The OpenAI route of a call under `/openai/` (`/v1/chat/completions`). */
  route?: string;
  createdAt: string;
  startedAt?: string;
  endedAt?: string;
  /** Queue time in ms, once a worker took the job. */
  delayTime?: number;
  /** Execution time in ms, once the job ended. */
  executionTime?: number;
  retries?: number;
  /** When the job was removed before it ended (purged from the queue, or past its TTL). */
  removedAt?: string;
}

/** What an entry keeps of its job once the job is gone, so no entry holds a job's input or output. */
interface JobFacts {
  id: string;
  status: JobStatus;
  startedAt: number;
  finishedAt: number;
  queuedAt: number;
  retries: number;
}

interface Entry {
  createdAt: number;
  source: RequestSource;
  route: string | undefined;
  /** The live job while the runtime holds it, then a copy of its last facts. */
  job: Job | JobFacts;
  removedAt: number;
}

/**
 * The last requests of one endpoint (`GET /v2/<id>/requests`): a ring of at most
 * {@link RECENT_REQUESTS_MAX} entries. An entry reads its job live while the runtime holds it and
 * keeps a copy of its facts once the job is removed, so the ring never keeps a payload alive.
 */
export class RecentRequests {
  private readonly ring: Entry[] = [];
  private next = 0;
  private readonly live = new Map<Job, Entry>();

  /** A job was submitted. */
  add(job: Job, source: RequestSource, now: number): void {
    const route = source === "openai" ? String(job.input.openai_route) : undefined;
    const entry: Entry = { createdAt: now, source, route, job, removedAt: -1 };
    if (this.ring.length < RECENT_REQUESTS_MAX) this.ring.push(entry);
    else {
      const evicted = this.ring[this.next]!;
      this.live.delete(evicted.job as Job);
      this.ring[this.next] = entry;
    }
    this.next = (this.next + 1) % RECENT_REQUESTS_MAX;
    this.live.set(job, entry);
  }

  /** The runtime removed a job (retention, TTL, purge): keep its facts, drop the job. */
  removed(job: Job, ended: boolean, now: number): void {
    const entry = this.live.get(job);
    if (!entry) return;
    this.live.delete(job);
    const { id, status, startedAt, finishedAt, queuedAt, retries } = job;
    entry.job = { id, status, startedAt, finishedAt, queuedAt, retries };
    if (!ended) entry.removedAt = now;
  }

  /** Forgets everything (the runtime is going away). */
  clear(): void {
    this.ring.length = 0;
    this.live.clear();
    this.next = 0;
  }

  /** The requests of the window, newest first; `iso` turns a platform time into a date-time. */
  list(now: number, iso: (t: number) => string): RecentRequestView[] {
    const views: RecentRequestView[] = [];
    const n = this.ring.length;
    for (let i = 1; i <= n; i++) {
      const e = this.ring[(this.next - i + n) % n]!;
      if (now - e.createdAt > RECENT_REQUESTS_WINDOW_MS) break;
      views.push(render(e, iso));
    }
    return views;
  }
}

function render(e: Entry, iso: (t: number) => string): RecentRequestView {
  const j = e.job;
  const view: RecentRequestView = {
    id: j.id,
    status: j.status,
    source: e.source,
    ...(e.route === undefined ? {} : { route: e.route }),
    createdAt: iso(e.createdAt),
  };
  if (j.startedAt >= 0) {
    view.startedAt = iso(j.startedAt);
    view.delayTime = j.startedAt - j.queuedAt;
  }
  if (j.finishedAt >= 0 && j.startedAt >= 0) {
    view.endedAt = iso(j.finishedAt);
    view.executionTime = j.finishedAt - j.startedAt;
  }
  if (j.retries > 0) view.retries = j.retries;
  if (e.removedAt >= 0) view.removedAt = iso(e.removedAt);
  return view;
}
