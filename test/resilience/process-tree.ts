import type { ChildProcess } from "node:child_process";
import * as fs from "node:fs";

/**
 * Killing a `pulumi up` the way a lost CI runner or a power cut does: every process of the run at
 * once (the CLI, its language host, the program and the dynamic provider), with SIGKILL, so
 * nothing gets to clean up.
 */

/** The pids of the descendants of `pid` (Linux /proc; empty elsewhere, where the group kill must do). */
export function descendants(pid: number): number[] {
  if (!fs.existsSync("/proc/self/stat")) return [];
  const children = new Map<number, number[]>();
  for (const entry of fs.readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    let stat: string;
    try {
      stat = fs.readFileSync(`/proc/${entry}/stat`, "utf8");
    } catch {
      continue; // exited meanwhile
    }
    // Fields after the command name (which may hold spaces) are: state ppid ...
    const ppid = Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]);
    const list = children.get(ppid) ?? [];
    list.push(Number(entry));
    children.set(ppid, list);
  }
  const found: number[] = [];
  const queue = [pid];
  while (queue.length) {
    for (const child of children.get(queue.shift() as number) ?? []) {
      found.push(child);
      queue.push(child);
    }
  }
  return found;
}

function signal(pid: number, sig: NodeJS.Signals): void {
  try {
    process.kill(pid, sig);
  } catch {
    // Already gone.
  }
}

/**
 * SIGKILLs `child` (started with `detached: true`, so it leads its own process group), its group
 * and every descendant. The tree is frozen with SIGSTOP first, so no process can start another
 * between the listing and the kill. Resolves once the child has exited.
 */
export async function killTree(child: ChildProcess): Promise<void> {
  const pid = child.pid;
  if (pid === undefined) return;
  const exited = new Promise<void>((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) resolve();
    else child.once("exit", () => resolve());
  });
  for (let pass = 0; pass < 2; pass++) for (const p of [pid, ...descendants(pid)]) signal(p, "SIGSTOP");
  const all = [pid, ...descendants(pid)];
  signal(-pid, "SIGKILL");
  for (const p of all) signal(p, "SIGKILL");
  await exited;
}
