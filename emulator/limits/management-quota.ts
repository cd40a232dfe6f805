import { type Item, serializeList } from "structured-headers";
import type { EmulatorClock } from "../clock/clock";

/**
 * Management API v2's per-user quota (docs/platform.md "Rate limits per user": per user and per
 * window; the OpenAPI's `RateLimit` / `RateLimit-Policy` headers and its 429 answers).
 *
 * Semantics (the platform's documentation and its OpenAPI leave them open; docs/emulator.md states
 * them):
 * - Fixed windows on the emulator clock, aligned to its origin: a window of `seconds` s covers
 *   platform time [i × seconds, (i + 1) × seconds) for each whole i, the same instants for every
 *   account.
 * - A request counts once in every window; a refused request counts in none.
 * - A request is refused (429) when any window has no request left; `Retry-After` is the longest
 *   `t` of the spent windows.
 * - `r` is what is left in the window after this request; `t` is the time until the window ends,
 *   in whole seconds rounded up (1..seconds): waiting `t` seconds always reaches the next window.
 */

/** One window of the quota: at most `quota` requests per `seconds` seconds. */
export interface QuotaWindow {
  /** The window's name in the headers, e.g. `minute`. */
  name: string;
  /** Requests allowed per window (`q` of `RateLimit-Policy`). */
  quota: number;
  /** The window's length in whole seconds (`w` of `RateLimit-Policy`). */
  seconds: number;
}

/** The OpenAPI's example policy: 60 a minute, 3,000 an hour, 50,000 a day. */
export const DEFAULT_QUOTA_WINDOWS: readonly QuotaWindow[] = [
  { name: "minute", quota: 60, seconds: 60 },
  { name: "hour", quota: 3000, seconds: 3600 },
  { name: "day", quota: 50_000, seconds: 86_400 },
];

/** Window names that stand for a length, so a spec may say `minute=60` instead of `minute=60/60`. */
export const NAMED_WINDOW_SECONDS: Readonly<Record<string, number>> = {
  second: 1,
  minute: 60,
  hour: 3600,
  day: 86_400,
};

const WINDOW_NAME = /^[a-z][a-z0-9_-]*$/;

/** What is wrong with a list of windows (each problem names the field, the value and the rule); empty when valid. */
export function quotaWindowProblems(windows: readonly QuotaWindow[]): string[] {
  const problems: string[] = [];
  if (windows.length === 0)
    problems.push("managementQuota = []: must name at least one window (false turns the quota off)");
  const seen = new Set<string>();
  windows.forEach((w, i) => {
    const at = `managementQuota[${i}]`;
    if (typeof w.name !== "string" || !WINDOW_NAME.test(w.name)) {
      problems.push(
        `${at}.name = ${JSON.stringify(w.name)}: must be lowercase letters, digits, "-" or "_", starting with a letter`,
      );
    } else if (seen.has(w.name)) {
      problems.push(`${at}.name = ${JSON.stringify(w.name)}: names a window twice`);
    }
    seen.add(w.name);
    if (!Number.isSafeInteger(w.quota) || w.quota < 1) {
      problems.push(`${at}.quota = ${String(w.quota)}: must be a whole number of requests >= 1`);
    }
    if (!Number.isSafeInteger(w.seconds) || w.seconds < 1) {
      problems.push(
        `${at}.seconds = ${String(w.seconds)}: must be a whole number of seconds >= 1 (the headers count in seconds)`,
      );
    }
  });
  return problems;
}

/**
 * Parses the CLI's quota spec: comma-separated `NAME=QUOTA` (NAME one of second, minute, hour,
 * day) or `NAME=QUOTA/SECONDS` (any name, any length), e.g. `minute=60,hour=3000,day=50000` or
 * `burst=50/10`. Throws an `Error` naming the entry and the rule.
 */
export function parseQuotaSpec(spec: string): QuotaWindow[] {
  const windows: QuotaWindow[] = [];
  for (const raw of spec.split(",")) {
    const entry = raw.trim();
    const match = /^([^=\s]+)\s*=\s*(\d+)(?:\s*\/\s*(\d+))?$/.exec(entry);
    const name = match?.[1];
    const seconds =
      match?.[3] !== undefined
        ? Number(match[3])
        : name !== undefined && Object.hasOwn(NAMED_WINDOW_SECONDS, name)
          ? NAMED_WINDOW_SECONDS[name]
          : undefined;
    if (!match || seconds === undefined) {
      throw new Error(
        `${JSON.stringify(entry)}: must be NAME=QUOTA with NAME one of ${Object.keys(NAMED_WINDOW_SECONDS).join(", ")}, ` +
          `or NAME=QUOTA/SECONDS for a window of any length (e.g. "minute=60,hour=3000" or "burst=50/10")`,
      );
    }
    windows.push({ name: name!, quota: Number(match[2]), seconds });
  }
  const problems = quotaWindowProblems(windows);
  if (problems.length > 0) throw new Error(problems.join("; "));
  return windows;
}

/** The quota's settings (`managementQuota` option of `startEmulator`). */
export interface ManagementQuotaSettings {
  /** Default true; `--no-management-quota` (or `managementQuota: false`) turns it off. */
  enabled: boolean;
  windows: readonly QuotaWindow[];
}

/** One account's count in one window. */
interface WindowCount {
  /** Platform time the counted window started at. */
  start: number;
  count: number;
}

/** One account's counts, one per window of the quota, in the quota's order. */
export type QuotaCounts = WindowCount[];

/** The outcome of {@link ManagementQuota.admit}: the `RateLimit` header value, and a refusal when over. */
export type QuotaDecision =
  { ok: true; rateLimit: string } | { ok: false; rateLimit: string; retryAfterSeconds: number; window: QuotaWindow };

/** The per-user quota of management API v2, counted on the emulator clock. */
export class ManagementQuota {
  /** `RateLimit-Policy`, the same on every answer. */
  readonly policyHeader: string;
  private readonly windowsMs: readonly number[];

  constructor(
    private readonly clock: EmulatorClock,
    readonly settings: ManagementQuotaSettings,
  ) {
    const problems = quotaWindowProblems(settings.windows);
    if (problems.length > 0) throw new Error(problems.join("; "));
    this.windowsMs = settings.windows.map((w) => w.seconds * 1000);
    this.policyHeader = serializeList(
      settings.windows.map((w): Item => [
        w.name,
        new Map([
          ["q", w.quota],
          ["w", w.seconds],
        ]),
      ]),
    );
  }

  /** Counts a request of an account in every window, or refuses it when a window is spent. */
  admit(counts: QuotaCounts): QuotaDecision {
    const { windows } = this.settings;
    const now = this.clock.now();
    let spent: number | undefined;
    for (let i = 0; i < windows.length; i++) {
      const length = this.windowsMs[i]!;
      const start = now - (now % length);
      const current = counts[i];
      if (current === undefined) counts[i] = { start, count: 0 };
      else if (current.start !== start) {
        current.start = start;
        current.count = 0;
      }
      if (counts[i]!.count >= windows[i]!.quota) {
        // The longest wait wins: the request may go only once every spent window has reset.
        if (spent === undefined || this.secondsLeft(i, now) > this.secondsLeft(spent, now)) spent = i;
      }
    }
    if (spent === undefined) for (const c of counts) c.count++;
    const rateLimit = this.rateLimitHeader(counts, now);
    if (spent === undefined) return { ok: true, rateLimit };
    return { ok: false, rateLimit, retryAfterSeconds: this.secondsLeft(spent, now), window: windows[spent]! };
  }

  /** Whole seconds, rounded up, until window `i` ends (1..its length). */
  private secondsLeft(i: number, now: number): number {
    const length = this.windowsMs[i]!;
    return Math.ceil((length - (now % length)) / 1000);
  }

  private rateLimitHeader(counts: QuotaCounts, now: number): string {
    return serializeList(
      this.settings.windows.map((w, i): Item => [
        w.name,
        new Map([
          ["r", w.quota - counts[i]!.count],
          ["t", this.secondsLeft(i, now)],
        ]),
      ]),
    );
  }
}
