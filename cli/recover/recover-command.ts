import * as fs from "node:fs";
import * as path from "node:path";
import { type BackendKind, classifyBackend, knownSecrets, RecoverUsageError, redactUrl } from "./backend-url";
import { locateStack, parseFileBackend } from "./file-backend";
import { repairSidecars } from "./file-sidecars";
import { PulumiEngine } from "./pulumi-engine";
import { parseRecoverArgs, type RecoverArgs, recoverySteps } from "./recover-args";
import { engineError, releaseStack } from "./release-stack";
import { type Reporter, Screen, type Sinks } from "./screen";
import { parseStackArg, resolveStack, stackNames } from "./stack-ref";

export { RECOVER_USAGE, recoverySteps } from "./recover-args";

/**
 * `runpod-iac recover` (docs/reliability.md, docs/teams.md): a killed `pulumi up`/`destroy` made good on any
 * backend. Only what the engine cannot do itself is done by hand, and only on a file backend
 * (emptied sidecars break every engine command there); the lock and the pending operations go
 * through the engine (release-stack.ts), then the refresh and `up`/`destroy` as before. It reads
 * the engine's output as printed and masks credentials only in what it shows (screen.ts).
 */

/**
 * File backends only: deletes broken sidecars and checks the checkpoint is JSON, before any engine
 * command (both would fail them). Resolves to the stack's full name, or to an exit code when
 * recovery cannot go on.
 */
function repairFileBackend(args: RecoverArgs, report: Reporter): { stack: string } | { code: number } {
  const backend = parseFileBackend(args.backend);
  const rel = (f: string) => path.relative(backend.dir, f);
  for (const s of repairSidecars(backend)) {
    report.out(`  removed ${rel(s.file)} (${s.reason}: a write of it was killed; a missing sidecar reads as defaults)`);
  }
  const location = locateStack(backend, args.stack, args.project);
  // The engine's name for it outside a project directory.
  const stack = location.project ? `organization/${location.project}/${location.stack}` : location.stack;
  if (!location.checkpoint.endsWith(".json")) return { stack };
  try {
    JSON.parse(fs.readFileSync(location.checkpoint, "utf8"));
    return { stack };
  } catch {
    report.fail(
      `the checkpoint ${rel(location.checkpoint)} is not valid JSON; restore the newest file of ` +
        ".pulumi/backups/ or .pulumi/history/ for this stack (pulumi stack import), then run recover again",
    );
    return { code: 1 };
  }
}

/** The backend's stacks, by the engine's full names; a string is the reason they cannot be listed. */
async function listStacks(engine: PulumiEngine): Promise<string[] | { code: number; why: string }> {
  const listed = await engine.capture(["stack", "ls", "--all", "--json"]);
  if (listed.code !== 0) return { code: listed.code === 127 ? 127 : 1, why: engineError(listed.raw.stderr) };
  return stackNames(listed.raw.stdout) ?? { code: 1, why: "pulumi stack ls printed no JSON" };
}

/**
 * `runpod-iac recover ...`; resolves to the exit code. Prints names, lock holders and counts,
 * never state content or credentials: everything goes out through a `Screen` (to `sinks`, the
 * process's stdout and stderr unless a test gives its own).
 */
export async function recoverCommand(argv: string[], sinks?: Sinks): Promise<number> {
  // Until the backend is known, the credentials of the environment (the passphrase among them).
  let report = new Screen(knownSecrets("", process.env), sinks);
  let args: RecoverArgs | "help";
  let kind: BackendKind;
  let fullName: string | undefined;
  try {
    args = parseRecoverArgs(argv);
    if (args === "help") {
      report.usage("stdout");
      return 0;
    }
    report = new Screen(knownSecrets(args.backend, process.env), sinks);
    kind = classifyBackend(args.backend);
    parseStackArg(args.stack, args.project);
    const shown = redactUrl(args.backend);
    report.out(`backend ${shown} (${kind}), stack ${args.stack}:`);
    if (kind === "file") {
      const repaired = repairFileBackend(args, report);
      if ("code" in repaired) return repaired.code;
      fullName = repaired.stack;
    }
  } catch (error) {
    return failed(error, report);
  }
  const engine = new PulumiEngine(args.pulumi, args.backend, report);
  try {
    return await recoverThroughEngine(engine, args, fullName, report);
  } catch (error) {
    return failed(error, report);
  } finally {
    engine.close();
  }
}

/**
 * Says what stopped the run, masked like every line: a usage mistake with the usage (exit 2),
 * anything else (a file it could not read, say) as its message (exit 1).
 */
function failed(error: unknown, report: Screen): number {
  report.fail(error instanceof Error ? error.message : String(error));
  if (!(error instanceof RecoverUsageError)) return 1;
  report.usage("stderr");
  return 2;
}

/** The steps through the engine; `fullName` is the stack's engine name when already known. */
async function recoverThroughEngine(
  engine: PulumiEngine,
  args: RecoverArgs,
  fullName: string | undefined,
  report: Reporter,
): Promise<number> {
  const shown = redactUrl(args.backend);
  const arg = parseStackArg(args.stack, args.project);
  let stack = fullName ?? (arg.org !== undefined ? args.stack : undefined);
  if (stack === undefined) {
    const names = await listStacks(engine);
    if (!Array.isArray(names)) {
      report.fail(`could not list the stacks of the backend at ${shown}: ${names.why}`);
      return names.code;
    }
    stack = resolveStack(names, arg, shown);
  }
  const released = await releaseStack(engine, stack, shown, args.forceUnlock, report);
  if (released !== 0) return released;
  if (!args.run) {
    report.out("next, in the project directory (a killed destroy: pulumi destroy instead of pulumi up):");
    for (const step of recoverySteps(args.stack, "up")) report.out(`  pulumi ${step.join(" ")}`);
    return 0;
  }
  for (const step of recoverySteps(stack, args.run)) {
    report.out(`$ pulumi ${step.join(" ")}`);
    const code = await engine.stream(step, args.cwd);
    if (code !== 0) {
      report.fail(`pulumi ${step[0]} failed (exit ${code}); the stack is unlocked, so recover can be run again`);
      return code;
    }
  }
  return 0;
}
