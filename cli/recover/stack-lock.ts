import * as os from "node:os";
import type { RawText } from "./screen";

/**
 * A stack's lock, as the engine reports it. Pulumi's DIY backends (file, postgres, s3, gs, azblob;
 * pkg/backend/diy/lock.go) lock a stack by writing `.pulumi/locks/organization/<project>/<stack>/<uuid>.json`
 * holding the run's pid, user, host and start time, then listing the directory: any other lock
 * there and the run removes its own and stops with
 *
 *     the stack is currently locked by 1 lock(s). Either wait for the other process(es) to end or delete the lock file with `pulumi cancel`.
 *       <lock URL>: created by <user>@<host> (pid <pid>) at <RFC 3339 time>
 *
 * A SIGKILLed run leaves its lock behind. `pulumi cancel` deletes every lock of the stack, whoever
 * holds it, so `recover` reads the holders from that message first and cancels only runs it can
 * prove dead (or when told to). Pulumi Cloud keeps its lock on the service, as the update in
 * progress, and says only `[409] Conflict: Another update is currently in progress`: no machine
 * or pid to check. The message is read as the engine printed it (`RawText`): a host name masked
 * where it holds a secret would no longer match this machine's.
 */

/** Who holds a lock, as the engine's message says. */
export interface LockHolder {
  /** Where the lock is (the engine's URL of the lock file, password masked by the engine). */
  where: string;
  username: string;
  hostname: string;
  pid: number;
  /** When the run took the lock (undefined when the engine's time does not parse). */
  since: Date | undefined;
}

/** What a refused lock-taking command says about the stack's lock. */
export interface LockReport {
  /** The holders the message names (none on Pulumi Cloud, or when the message lists none). */
  holders: LockHolder[];
  /** Pulumi Cloud's update in progress: its holder cannot be named. */
  service: boolean;
}

const LOCKED = /the stack is currently locked by \d+ lock\(s\)/;
const HOLDER = /^\s*(.+): created by (.*)@([^@\s]+) \(pid (\d+)\) at (\S+)\s*$/;
const SERVICE_CONFLICT = /\[409\] Conflict|another update is currently in progress/i;

/** Reads the engine's "stack is locked" error; undefined when `stderr` is about something else. */
export function parseLockError(stderr: RawText): LockReport | undefined {
  if (LOCKED.test(stderr)) {
    const holders: LockHolder[] = [];
    for (const line of stderr.split("\n")) {
      const m = HOLDER.exec(line);
      if (!m) continue;
      const since = new Date(m[5] as string);
      holders.push({
        where: m[1] as string,
        username: m[2] as string,
        hostname: m[3] as string,
        pid: Number(m[4]),
        since: Number.isNaN(since.getTime()) ? undefined : since,
      });
    }
    return { holders, service: false };
  }
  if (SERVICE_CONFLICT.test(stderr)) return { holders: [], service: true };
  return undefined;
}

/** Whether a process with this pid runs on this machine (EPERM: it runs, as another user). */
export function processExists(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}

/** A lock holder and whether its run is known to be over. */
export interface JudgedLock {
  holder: LockHolder;
  /** `dead`: this host and no such process; `alive`: the process runs; `unknown`: cannot be told from here. */
  run: "dead" | "alive" | "unknown";
  /** The holder in words: host, pid and age, and why it is judged so. */
  why: string;
}

/** How long ago `since` was, as `3h 12m 5s`. */
export function age(since: Date | undefined, now: Date): string {
  if (!since) return "an unknown time";
  let s = Math.max(0, Math.round((now.getTime() - since.getTime()) / 1000));
  const parts: string[] = [];
  for (const [unit, size] of [
    ["d", 86_400],
    ["h", 3_600],
    ["m", 60],
  ] as const) {
    if (s >= size) parts.push(`${Math.floor(s / size)}${unit}`);
    s %= size;
  }
  parts.push(`${s}s`);
  return parts.join(" ");
}

/** Judges one holder: only a run on this host can be proven dead (its pid runs no process). */
export function judgeLock(
  holder: LockHolder,
  options: { host?: string; exists?: (pid: number) => boolean; now?: Date } = {},
): JudgedLock {
  const host = options.host ?? os.hostname();
  const exists = options.exists ?? processExists;
  const who =
    `held by ${holder.username}@${holder.hostname} (pid ${holder.pid}), taken ` +
    `${age(holder.since, options.now ?? new Date())} ago${holder.since ? ` (${holder.since.toISOString()})` : ""}`;
  if (holder.hostname !== host) {
    return { holder, run: "unknown", why: `${who}, on another machine: its run cannot be checked from here` };
  }
  if (exists(holder.pid)) return { holder, run: "alive", why: `${who}, which is still running` };
  return { holder, run: "dead", why: `${who}, which is no longer running` };
}
