import * as fs from "node:fs";
import * as path from "node:path";
import { type BackendKind, classifyBackend, knownSecrets, RecoverUsageError, redactUrl } from "./backend-url";
import { locateStack, parseFileBackend } from "./file-backend";
import { repairSidecars } from "./file-sidecars";
import { PulumiEngine } from "./pulumi-engine";
import { parseRecoverArgs, RECOVER_USAGE, type RecoverArgs, recoverySteps } from "./recover-args";
import { engineError, releaseStack, type Reporter } from "./release-stack";
import { parseStackArg, resolveStack } from "./stack-ref";

export { RECOVER_USAGE, recoverySteps } from "./recover-args";

/**
 * `runpod-iac recover` (issues 15 and 23): a killed `pulumi up`/`destroy` made good on any
 * backend. Only what the engine cannot do itself is done by hand, and only on a file backend
 * (emptied sidecars break every engine command there); the lock and the pending operations go
 * through the engine (release-stack.ts), then the refresh and `up`/`destroy` as before.
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
  if (listed.code !== 0) return { code: listed.code === 127 ? 127 : 1, why: engineError(listed.stderr) };
  try {
    return (JSON.parse(listed.stdout) as { name: string }[]).map((s) => s.name);
  } catch {
    return { code: 1, why: "pulumi stack ls printed no JSON" };
  }
}

/** `runpod-iac recover ...`; resolves to the exit code. Prints names, lock holders and counts, never state content or credentials. */
export async function recoverCommand(argv: string[]): Promise<number> {
  const report: Reporter = {
    out: (line) => process.stdout.write(`${line}\n`),
    fail: (line) => process.stderr.write(`runpod-iac recover: ${line}\n`),
  };
  let args: RecoverArgs | "help";
  let kind: BackendKind;
  let fullName: string | undefined;
  try {
    args = parseRecoverArgs(argv);
    if (args === "help") {
      report.out(RECOVER_USAGE);
      return 0;
    }
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
    if (!(error instanceof RecoverUsageError)) throw error;
    report.fail(`${error.message}\n\n${RECOVER_USAGE}`);
    return 2;
  }
  const engine = new PulumiEngine(args.pulumi, args.backend, knownSecrets(args.backend));
  try {
    return await recoverThroughEngine(engine, args, fullName, report);
  } catch (error) {
    if (!(error instanceof RecoverUsageError)) throw error;
    report.fail(`${error.message}\n\n${RECOVER_USAGE}`);
    return 2;
  } finally {
    engine.close();
  }
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
