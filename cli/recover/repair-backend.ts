import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import type { FileBackend, StackLocation } from "./file-backend";

/**
 * What a killed `pulumi` run can leave in a file backend, and what `recover` may safely undo.
 *
 * Sidecars: the storage library rewrites a file's `.attrs` sidecar in place (create-truncate,
 * then write) before it renames the new file into place, so a kill between the two leaves an
 * empty sidecar next to an intact file, and every later read of that file fails with
 * `failed to load checkpoint: EOF` (issue 15). A missing sidecar reads as defaults, so deleting a
 * broken one is always safe.
 *
 * Locks: a lock file names the run's pid, user and host. It is removed only when that run is
 * provably dead (same host, no such process) or when the caller says so (`forceUnlock`): removing
 * the lock of a live run would let two runs write one stack.
 */

/** A sidecar that cannot be read. */
export interface BrokenSidecar {
  /** Absolute path of the `.attrs` file. */
  file: string;
  reason: "empty" | "not valid JSON";
}

/** Who holds a lock, as the lock file says. */
export interface LockHolder {
  pid: number;
  username: string;
  hostname: string;
  timestamp: string;
}

/** One lock of the stack and whether its run is known to be over. */
export interface StackLock {
  file: string;
  holder: LockHolder | undefined;
  /** `dead`: same host and no such process; `alive`: the process runs; `unknown`: cannot be told from here. */
  run: "dead" | "alive" | "unknown";
  /** Why, in words. */
  why: string;
}

/** Every `.attrs` sidecar under the backend that is empty or not JSON. */
export function findBrokenSidecars(backend: FileBackend): BrokenSidecar[] {
  const broken: BrokenSidecar[] = [];
  const walk = (dir: string) => {
    let entries: fs.Dirent[];
    try {
      entries = fs.readdirSync(dir, { withFileTypes: true });
    } catch {
      return;
    }
    for (const entry of entries) {
      const file = path.join(dir, entry.name);
      if (entry.isDirectory()) walk(file);
      else if (entry.isFile() && entry.name.endsWith(".attrs")) {
        const text = fs.readFileSync(file, "utf8");
        if (text.trim() === "") broken.push({ file, reason: "empty" });
        else if (!parses(text)) broken.push({ file, reason: "not valid JSON" });
      }
    }
  };
  walk(backend.bookkeeping);
  return broken.sort((a, b) => a.file.localeCompare(b.file));
}

function parses(text: string): boolean {
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
  }
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

function readHolder(file: string): LockHolder | undefined {
  try {
    const raw = JSON.parse(fs.readFileSync(file, "utf8")) as Record<string, unknown>;
    if (typeof raw.pid !== "number" || typeof raw.hostname !== "string") return undefined;
    return {
      pid: raw.pid,
      hostname: raw.hostname,
      username: typeof raw.username === "string" ? raw.username : "?",
      timestamp: typeof raw.timestamp === "string" ? raw.timestamp : "?",
    };
  } catch {
    return undefined;
  }
}

/** Judges one lock holder: only a run on this host can be proven dead. */
export function judgeLock(
  holder: LockHolder | undefined,
  host = os.hostname(),
  exists: (pid: number) => boolean = processExists,
): Pick<StackLock, "run" | "why"> {
  if (!holder) return { run: "unknown", why: "the lock file does not say which process holds it" };
  const who = `${holder.username}@${holder.hostname} (pid ${holder.pid}) since ${holder.timestamp}`;
  if (holder.hostname !== host) {
    return { run: "unknown", why: `held by ${who}, another machine: its run cannot be checked from here` };
  }
  if (exists(holder.pid)) return { run: "alive", why: `held by ${who}, which is still running` };
  return { run: "dead", why: `held by ${who}, which is no longer running` };
}

/** The stack's lock files (sidecars aside), each judged. */
export function readLocks(location: StackLocation): StackLock[] {
  let names: string[];
  try {
    names = fs.readdirSync(location.lockDir);
  } catch {
    return [];
  }
  return names
    .filter((n) => n.endsWith(".json"))
    .sort()
    .map((n) => {
      const file = path.join(location.lockDir, n);
      const holder = readHolder(file);
      return { file, holder, ...judgeLock(holder) };
    });
}

/** What `repairBackend` did and what still stands in the way. */
export interface RepairReport {
  removedSidecars: BrokenSidecar[];
  removedLocks: StackLock[];
  /** Locks left in place (never with `forceUnlock`): a live run, or one that cannot be checked. */
  keptLocks: StackLock[];
}

/**
 * Removes every broken sidecar, and the stack's locks whose run is dead (all of them with
 * `forceUnlock`, as `pulumi cancel` does), each lock with its own sidecar. Safe to run again: a repaired backend has
 * nothing left to remove.
 */
export function repairBackend(
  backend: FileBackend,
  location: StackLocation,
  options: { forceUnlock?: boolean } = {},
): RepairReport {
  const removedSidecars = findBrokenSidecars(backend);
  for (const s of removedSidecars) fs.rmSync(s.file, { force: true });
  const removedLocks: StackLock[] = [];
  const keptLocks: StackLock[] = [];
  for (const lock of readLocks(location)) {
    if (lock.run !== "dead" && options.forceUnlock !== true) {
      keptLocks.push(lock);
      continue;
    }
    fs.rmSync(lock.file, { force: true });
    fs.rmSync(`${lock.file}.attrs`, { force: true });
    removedLocks.push(lock);
  }
  return { removedSidecars, removedLocks, keptLocks };
}
