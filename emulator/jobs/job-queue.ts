import type { Job } from "./job";

/** A FIFO with lazy deletion: removed jobs stay in the array and are skipped when reached. */
class LazyFifo {
  private items: Job[] = [];
  private head = 0;

  push(job: Job): void {
    this.items.push(job);
  }

  /** The oldest job still queued, after dropping stale entries from the front. */
  peek(): Job | undefined {
    while (this.head < this.items.length) {
      const job = this.items[this.head]!;
      if (job.order >= 0 && job.status === "IN_QUEUE") return job;
      this.head++;
    }
    this.compact();
    return undefined;
  }

  shift(): Job | undefined {
    const job = this.peek();
    if (job) {
      this.head++;
      if (this.head > 1024 && this.head * 2 > this.items.length) this.compact();
    }
    return job;
  }

  /** Every job still queued, oldest first. */
  *live(): Generator<Job> {
    for (let i = this.head; i < this.items.length; i++) {
      const job = this.items[i]!;
      if (job.order >= 0 && job.status === "IN_QUEUE") yield job;
    }
  }

  private compact(): void {
    if (this.head === 0) return;
    this.items = this.items.slice(this.head);
    this.head = 0;
  }
}

/**
 * An endpoint's queue: normal jobs and `lowPriority` jobs in two FIFOs, so scaling can count and
 * serve only the jobs allowed to trigger it (`policy.lowPriority`). Jobs are removed from the
 * middle (cancel, purge, TTL) in O(1) by setting `order = -1`.
 */
export class JobQueue {
  private readonly normal = new LazyFifo();
  private readonly low = new LazyFifo();
  private nextOrder = 0;
  /** Queued jobs that may trigger scaling. */
  normalSize = 0;
  /** All queued jobs. */
  size = 0;

  push(job: Job): void {
    job.order = this.nextOrder++;
    this.size++;
    if (job.lowPriority) this.low.push(job);
    else {
      this.normalSize++;
      this.normal.push(job);
    }
  }

  /** Takes the oldest queued job of either priority (for a worker that is already up). */
  shiftOldest(): Job | undefined {
    const n = this.normal.peek();
    const l = this.low.peek();
    if (!n && !l) return undefined;
    return this.take(!l || (n && n.order < l.order) ? this.normal : this.low);
  }

  /** Takes the oldest normal job (for a worker started because of it). */
  shiftNormal(): Job | undefined {
    return this.take(this.normal);
  }

  /** Marks `job` as no longer queued (cancel, purge, expiry). */
  remove(job: Job): void {
    if (job.order < 0) return;
    job.order = -1;
    this.size--;
    if (!job.lowPriority) this.normalSize--;
  }

  /** Every queued job, normal ones first. */
  *all(): Generator<Job> {
    yield* this.normal.live();
    yield* this.low.live();
  }

  private take(fifo: LazyFifo): Job | undefined {
    const job = fifo.shift();
    if (job) this.remove(job);
    return job;
  }
}
