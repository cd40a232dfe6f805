import type { ClockDriver, EmulatorClock } from "./clock";
import { type Scheduled, TimerHeap } from "./timer-heap";

const MAX_TIMEOUT_MS = 2_147_483_647;

/** A one-shot timer calling a function; for deadlines that are not jobs (workers, waits, webhooks). */
export class Timer implements Scheduled {
  at = 0;
  seq = 0;
  heapIndex = -1;
  constructor(private readonly callback: () => void) {}
  fire(): void {
    this.callback();
  }
}

/** Raised by `Scheduler.sleep` when its signal aborts. */
export class SleepAbortedError extends Error {
  override name = "AbortError";
}

/**
 * Every deadline of the emulator in one min-heap, driven by a single real `setTimeout` for the
 * earliest one (TTL and retention expiry cost O(log n) per job, never a scan). With a
 * manual clock no real timer is armed: `ManualClock.advance` fires deadlines through `advanceTo`.
 */
export class Scheduler implements ClockDriver {
  private readonly heap = new TimerHeap();
  private seq = 0;
  private handle: NodeJS.Timeout | undefined;
  private armedAt = Number.POSITIVE_INFINITY;
  private immediate: NodeJS.Immediate | undefined;
  private disposed = false;

  constructor(readonly clock: EmulatorClock) {
    clock.attach?.(this);
  }

  /** Current platform time. */
  now(): number {
    return this.clock.now();
  }

  /** Number of pending deadlines. */
  get pending(): number {
    return this.heap.size;
  }

  /** Schedules (or re-schedules) `item` at platform time `at`. */
  at(item: Scheduled, at: number): void {
    if (this.disposed) return;
    item.at = at;
    item.seq = this.seq++;
    this.heap.upsert(item);
    if (this.heap.peek() === item) this.arm();
  }

  /** Schedules `item` `ms` platform milliseconds from now. */
  after(item: Scheduled, ms: number): void {
    this.at(item, this.now() + ms);
  }

  /** Unschedules `item` (a no-op when it is not scheduled). A stale real timer only causes one spurious wake-up. */
  cancel(item: Scheduled): void {
    this.heap.remove(item);
  }

  /** Resolves after `ms` platform milliseconds; rejects with `SleepAbortedError` if `signal` aborts first. */
  sleep(ms: number, signal?: AbortSignal): Promise<void> {
    return new Promise((resolve, reject) => {
      if (signal?.aborted) return reject(new SleepAbortedError("aborted"));
      const onAbort = () => {
        this.cancel(timer);
        reject(new SleepAbortedError("aborted"));
      };
      const timer = new Timer(() => {
        signal?.removeEventListener("abort", onAbort);
        resolve();
      });
      signal?.addEventListener("abort", onAbort, { once: true });
      this.after(timer, Math.max(0, ms));
    });
  }

  /** ClockDriver: fires deadlines up to `target` one by one, letting promise chains settle in between. */
  async advanceTo(target: number, setNow: (t: number) => void): Promise<void> {
    for (;;) {
      const top = this.heap.peek();
      if (!top || top.at > target || this.disposed) return;
      setNow(top.at);
      this.heap.remove(top);
      this.fireSafely(top);
      await new Promise<void>((resolve) => setImmediate(resolve));
    }
  }

  /** Stops every timer; nothing fires afterwards. */
  dispose(): void {
    this.disposed = true;
    this.heap.clear();
    if (this.handle) clearTimeout(this.handle);
    if (this.immediate) clearImmediate(this.immediate);
    this.handle = undefined;
    this.immediate = undefined;
  }

  private arm(): void {
    const top = this.heap.peek();
    if (!top || this.disposed) return;
    const delay = this.clock.realDelayUntil(top.at);
    if (delay === undefined) {
      // Manual clock: only deadlines already due fire on their own.
      if (top.at <= this.now() && !this.immediate) this.immediate = setImmediate(this.onImmediate);
      return;
    }
    if (this.handle && top.at >= this.armedAt) return;
    if (this.handle) clearTimeout(this.handle);
    this.armedAt = top.at;
    // setTimeout fires at once for delays over 2^31-1 ms; a far deadline just wakes up early and re-arms.
    this.handle = setTimeout(this.onTimeout, Math.min(delay, MAX_TIMEOUT_MS));
    this.handle.unref();
  }

  private readonly onTimeout = (): void => {
    this.handle = undefined;
    this.armedAt = Number.POSITIVE_INFINITY;
    this.runDue();
  };

  private readonly onImmediate = (): void => {
    this.immediate = undefined;
    this.runDue();
  };

  private runDue(): void {
    const now = this.now();
    for (;;) {
      const top = this.heap.peek();
      if (!top || top.at > now || this.disposed) break;
      this.heap.remove(top);
      this.fireSafely(top);
    }
    this.arm();
  }

  private fireSafely(item: Scheduled): void {
    try {
      item.fire();
    } catch (error) {
      // A deadline's work must never take the scheduler down; report it and go on.
      process.emitWarning(`emulator timer failed: ${error instanceof Error ? error.message : String(error)}`);
    }
  }
}
