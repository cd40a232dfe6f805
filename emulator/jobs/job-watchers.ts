import type { Scheduler } from "../clock/scheduler";
import { Timer } from "../clock/scheduler";
import type { Job } from "./job";

/**
 * Requests waiting on a job: `/runsync` and `/status-sync` until it ends, `/stream` until it
 * produces something. Each wait is bounded by a deadline on the emulator clock.
 */
export class JobWatchers {
  private readonly watchers = new Map<Job, Set<() => void>>();

  constructor(private readonly scheduler: Scheduler) {}

  /** Resolves when `done(job)` holds after a change, when `gone(job)` holds, or after `ms` platform ms. */
  wait(job: Job, ms: number, done: (job: Job) => boolean, gone: (job: Job) => boolean): Promise<void> {
    if (done(job) || gone(job)) return Promise.resolve();
    return new Promise((resolve) => {
      const finish = () => {
        this.scheduler.cancel(timer);
        const set = this.watchers.get(job);
        set?.delete(check);
        if (set?.size === 0) this.watchers.delete(job);
        resolve();
      };
      const check = () => {
        if (done(job) || gone(job)) finish();
      };
      const timer = new Timer(finish);
      let set = this.watchers.get(job);
      if (!set) {
        set = new Set();
        this.watchers.set(job, set);
      }
      set.add(check);
      this.scheduler.after(timer, ms);
    });
  }

  /** Something about `job` changed: re-check its waiters. */
  notify(job: Job): void {
    const set = this.watchers.get(job);
    if (set) for (const check of [...set]) check();
  }

  /** Releases every waiter (the runtime is going away; `gone` now holds for all jobs). */
  releaseAll(): void {
    for (const set of [...this.watchers.values()]) for (const check of [...set]) check();
    this.watchers.clear();
  }
}
