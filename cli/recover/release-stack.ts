import * as fs from "node:fs";
import { RecoverUsageError } from "./backend-url";
import type { PulumiEngine } from "./pulumi-engine";
import type { RawText, Reporter } from "./screen";
import { judgeLock, type JudgedLock, parseLockError } from "./stack-lock";

/**
 * Frees a stack a killed run left behind, through the engine only, the same way on every backend:
 *
 * 1. `pulumi stack export`, then `pulumi stack import` of that export: the engine's own way to
 *    drop pending operations (import removes them, naming each), and a command that takes the
 *    stack's lock, so the engine says who holds it if anyone does.
 * 2. If the import was refused by a lock whose run is provably dead (or `forceUnlock`):
 *    `pulumi cancel` (which deletes every lock of the stack), then export and import again. The
 *    second export matters: between the cancel and the import another run may have written the
 *    stack, and importing the first export would undo that.
 *
 * The import rewrites the stack's current state unchanged but for the pending operations; the
 * refresh that follows in the recovery re-reads every resource anyway. Every decision is made on
 * the engine's raw output; the messages go to the `Reporter`, which masks them.
 */

/**
 * The engine's own error lines (`error: ...`), or its last lines when it printed none: unmasked,
 * for a message to the `Reporter`.
 */
export function engineError(stderr: RawText): string {
  const lines = stderr.split("\n").filter((l) => l.trim() !== "");
  const errors = lines.filter((l) => /^error:/.test(l)).map((l) => l.replace(/^error:\s*/, ""));
  return (errors.length > 0 ? errors : lines.slice(-3)).join("; ") || "(no message)";
}

/** The pending operations of an exported deployment. */
function pendingOperations(exportFile: string): number {
  let parsed: { deployment?: { pending_operations?: unknown[] } };
  try {
    parsed = JSON.parse(fs.readFileSync(exportFile, "utf8")) as typeof parsed;
  } catch {
    // Not the parser's message: it quotes the text, which is the state.
    throw new Error("pulumi stack export wrote no JSON deployment");
  }
  return parsed.deployment?.pending_operations?.length ?? 0;
}

/** What to do about the locks when not forced, or undefined when every run is proven dead. */
function keptLocks(judged: JudgedLock[], report: Reporter): 1 | undefined {
  const kept = judged.filter((j) => j.run !== "dead");
  if (kept.length === 0) return undefined;
  for (const k of kept) report.fail(`kept lock ${k.holder.where}: ${k.why}`);
  report.fail(
    kept.some((k) => k.run === "alive")
      ? "a run still holds the stack: wait for it to end (or stop it), then run recover again"
      : "once that run is surely over (its CI job ended or was cancelled), run recover again with --force-unlock",
  );
  return 1;
}

/**
 * Removes a dead run's lock and clears the stack's pending operations; resolves to 0, or to the
 * exit code after saying on stderr what stands in the way.
 */
export async function releaseStack(
  engine: PulumiEngine,
  stack: string,
  /** The backend's URL with its credentials masked (`redactUrl`), for messages. */
  backend: string,
  forceUnlock: boolean,
  report: Reporter,
): Promise<number> {
  const exportFile = engine.scratchFile("export.json");
  for (let attempt = 1; ; attempt++) {
    const exported = await engine.capture(["stack", "export", "--stack", stack, "--file", exportFile]);
    if (exported.code !== 0) {
      if (/no stack named/.test(exported.raw.stderr)) {
        throw new RecoverUsageError(`--stack ${stack}: no such stack in the backend at ${backend}`);
      }
      report.fail(`could not read stack ${stack} from the backend at ${backend}: ${engineError(exported.raw.stderr)}`);
      return exported.code === 127 ? 127 : 1;
    }
    const pending = pendingOperations(exportFile);
    const imported = await engine.capture(["stack", "import", "--stack", stack, "--file", exportFile]);
    fs.rmSync(exportFile, { force: true });
    if (imported.code === 0) {
      report.out(
        pending > 0
          ? `  cleared ${pending} pending operation(s) of the killed run (pulumi stack import)`
          : "  no pending operations",
      );
      return 0;
    }
    const lock = parseLockError(imported.raw.stderr);
    if (!lock) {
      report.fail(`pulumi stack import failed: ${engineError(imported.raw.stderr)}`);
      return 1;
    }
    if (attempt > 1) {
      report.fail("the stack was locked again right after pulumi cancel: another run has started; let it finish");
      return 1;
    }
    if (lock.service || lock.holders.length === 0) {
      const what = lock.service
        ? "Pulumi Cloud reports another update in progress on this stack"
        : "the stack is locked, and the engine does not say by whom";
      if (!forceUnlock) {
        report.fail(`${what}: the run cannot be checked from here`);
        report.fail(
          "once that run is surely over (its CI job ended or was cancelled), run recover again with --force-unlock",
        );
        return 1;
      }
      report.out(`  ${what}; --force-unlock: pulumi cancel`);
    } else {
      const judged = lock.holders.map((h) => judgeLock(h));
      if (!forceUnlock && keptLocks(judged, report)) return 1;
      for (const j of judged) report.out(`  removing lock ${j.holder.where}: ${j.why}`);
    }
    const cancelled = await engine.capture(["cancel", "--yes", "--stack", stack]);
    if (cancelled.code !== 0) {
      report.fail(`pulumi cancel failed: ${engineError(cancelled.raw.stderr)}`);
      return 1;
    }
  }
}
