import type { JobStatus } from "../../sdk/schemas";

/** `/health` answer (docs/platform.md "Job record"; the extra worker fields are those the official SDK types list). */
export interface HealthView {
  jobs: { completed: number; failed: number; inProgress: number; inQueue: number; retried: number };
  workers: { idle: number; running: number; initializing: number; ready: number; throttled: number; unhealthy: number };
}

/**
 * Counts of an endpoint's held jobs by state, kept as jobs move, so `/health` costs O(1) however
 * many jobs are held.
 */
export class JobCounts {
  private readonly byStatus: Record<JobStatus, number> = {
    IN_QUEUE: 0,
    IN_PROGRESS: 0,
    COMPLETED: 0,
    FAILED: 0,
    CANCELLED: 0,
    TIMED_OUT: 0,
  };
  /** Held jobs that have been retried at least once (`/health` `retried`). */
  private retried = 0;

  /** A job entered `status` (submitted jobs enter IN_QUEUE). */
  add(status: JobStatus): void {
    this.byStatus[status]++;
  }

  /** A job moved from one state to another. */
  move(from: JobStatus, to: JobStatus): void {
    this.byStatus[from]--;
    this.byStatus[to]++;
  }

  /** A job was retried; `first` when it is its first retry. */
  retry(first: boolean): void {
    if (first) this.retried++;
  }

  /** A held job was deleted (TTL, retention, purge). */
  remove(status: JobStatus, wasRetried: boolean): void {
    this.byStatus[status]--;
    if (wasRetried) this.retried--;
  }

  /** The documented health result: FAILED and TIMED_OUT both count as failed. */
  health(workers: { idle: number; running: number; initializing?: number; unhealthy?: number }): HealthView {
    const c = this.byStatus;
    return {
      jobs: {
        completed: c.COMPLETED,
        failed: c.FAILED + c.TIMED_OUT,
        inProgress: c.IN_PROGRESS,
        inQueue: c.IN_QUEUE,
        retried: this.retried,
      },
      workers: {
        idle: workers.idle,
        running: workers.running,
        initializing: workers.initializing ?? 0,
        ready: workers.idle,
        throttled: 0,
        unhealthy: workers.unhealthy ?? 0,
      },
    };
  }

  /** Counts by exact state, plus `retried`. */
  snapshot(): Readonly<Record<JobStatus, number>> & { retried: number } {
    return { ...this.byStatus, retried: this.retried };
  }
}
