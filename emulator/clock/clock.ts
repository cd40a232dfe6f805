import { performance } from "node:perf_hooks";

/**
 * The emulator's notion of platform time. Every duration the platform documents (TTL, retention,
 * execution timeout, idle timeout, webhook retry delay, `wait`, the `sleep` template) is measured
 * on it (docs/emulator.md, "Jobs, workers and time"). Times are platform milliseconds since the clock's origin, so
 * they stay small integers in compact job records.
 */
export interface EmulatorClock {
  /** Platform milliseconds elapsed since the clock's origin. */
  now(): number;
  /** Wall-clock epoch milliseconds of platform time 0 (used for timestamps such as `createdAt`). */
  readonly epochOrigin: number;
  /** Real milliseconds until platform time `at`, or `undefined` when only `advance()` moves time. */
  realDelayUntil(at: number): number | undefined;
  /** Called once by the scheduler that runs on this clock. */
  attach?(driver: ClockDriver): void;
}

/** What a manual clock needs from its scheduler to fire the deadlines it passes. */
export interface ClockDriver {
  /** Fires, in order, every deadline up to `target`, moving the clock to each one first. */
  advanceTo(target: number, setNow: (t: number) => void): Promise<void>;
}

/** A clock on which one real millisecond counts as `scale` platform milliseconds (`--time-scale N`). */
export class ScaledClock implements EmulatorClock {
  readonly epochOrigin = Date.now();
  private readonly startPerf = performance.now();

  constructor(readonly scale = 1) {
    if (!(scale > 0) || !Number.isFinite(scale))
      throw new RangeError(`time scale must be a positive number, got ${scale}`);
  }

  now(): number {
    return Math.floor((performance.now() - this.startPerf) * this.scale);
  }

  realDelayUntil(at: number): number {
    return Math.max(0, Math.ceil((at - this.now()) / this.scale));
  }
}

/**
 * A clock that stands still until `advance(ms)` is called: deterministic tests, and the CLI's
 * `--time-scale 0`. Advancing fires every deadline passed on the way, in order, letting promise
 * chains started by one deadline settle before the next (so a `sleep` job completes at the
 * platform time it should, not at the end of the jump).
 */
export class ManualClock implements EmulatorClock {
  readonly epochOrigin: number;
  private current = 0;
  private driver: ClockDriver | undefined;
  private chain: Promise<void> = Promise.resolve();

  constructor(options: { epochOrigin?: number } = {}) {
    this.epochOrigin = options.epochOrigin ?? Date.now();
  }

  now(): number {
    return this.current;
  }

  realDelayUntil(): undefined {
    return undefined;
  }

  attach(driver: ClockDriver): void {
    this.driver = driver;
  }

  /** Moves platform time forward by `ms`, firing due timers; calls are serialized. */
  advance(ms: number): Promise<void> {
    if (!(ms >= 0) || !Number.isFinite(ms)) return Promise.reject(new RangeError(`cannot advance by ${ms} ms`));
    const run = async () => {
      const target = this.current + Math.floor(ms);
      const setNow = (t: number) => {
        if (t > this.current) this.current = t;
      };
      if (this.driver) await this.driver.advanceTo(target, setNow);
      setNow(target);
    };
    const next = this.chain.then(run);
    this.chain = next.catch(() => undefined);
    return next;
  }
}

/** A clock that can be moved forward explicitly. */
export interface AdvanceableClock extends EmulatorClock {
  /** Moves platform time forward by `ms`, running what falls due on the way. */
  advance(ms: number): Promise<void>;
}

/** True for clocks that can be advanced (the admin route `POST /_emulator/clock/advance` needs one). */
export function isAdvanceable(clock: EmulatorClock): clock is AdvanceableClock {
  return typeof (clock as Partial<AdvanceableClock>).advance === "function";
}
