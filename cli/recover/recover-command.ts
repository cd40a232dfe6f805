import { spawn } from "node:child_process";
import * as fs from "node:fs";
import * as path from "node:path";
import { parseArgs } from "node:util";
import { type FileBackend, locateStack, parseFileBackend, RecoverUsageError, type StackLocation } from "./file-backend";
import { repairBackend, type RepairReport } from "./repair-backend";

/** Usage of `runpod-iac recover`. */
export const RECOVER_USAGE = `Usage: runpod-iac recover --stack NAME [options]

Repairs what a killed \`pulumi up\`/\`destroy\` leaves in a file:// backend, then prints (or runs)
the rest of the recovery: \`pulumi refresh --clear-pending-creates\`, then \`pulumi up\` (or destroy).

  --backend URL        the file:// backend (default: $PULUMI_BACKEND_URL)
  --stack NAME         the stack: NAME or organization/PROJECT/NAME
  --project NAME       the project, when several projects have a stack NAME
  --force-unlock       remove the stack's locks even when their run cannot be proven dead
                       (another machine's run): only once you know that run is over
  --run up|destroy     run the refresh and then \`pulumi up\` (or \`pulumi destroy\`), in --cwd
  --cwd DIR            the Pulumi project directory for --run (default: the current directory)
  --pulumi PATH        the pulumi binary for --run (default: pulumi on PATH)
  --help               show this help
`;

/** The recovery steps after the repair, as `pulumi` arguments. */
export function recoverySteps(stack: string, then: "up" | "destroy"): string[][] {
  const common = ["--yes", "--skip-preview", "--non-interactive", "--stack", stack];
  return [
    ["refresh", "--clear-pending-creates", ...common],
    [then, ...common],
  ];
}

interface RecoverArgs {
  backend: string;
  stack: string;
  project: string | undefined;
  forceUnlock: boolean;
  run: "up" | "destroy" | undefined;
  cwd: string;
  pulumi: string;
}

function parseRecoverArgs(argv: string[]): RecoverArgs | "help" {
  let values;
  try {
    values = parseArgs({
      args: argv,
      strict: true,
      allowPositionals: false,
      options: {
        backend: { type: "string" },
        stack: { type: "string" },
        project: { type: "string" },
        "force-unlock": { type: "boolean" },
        run: { type: "string" },
        cwd: { type: "string" },
        pulumi: { type: "string" },
        help: { type: "boolean", short: "h" },
      },
    }).values;
  } catch (error) {
    throw new RecoverUsageError((error as Error).message);
  }
  if (values.help) return "help";
  const backend = values.backend ?? process.env.PULUMI_BACKEND_URL;
  if (!backend) throw new RecoverUsageError("--backend is required (or set PULUMI_BACKEND_URL)");
  if (!values.stack) throw new RecoverUsageError("--stack is required");
  if (values.run !== undefined && values.run !== "up" && values.run !== "destroy") {
    throw new RecoverUsageError(`--run ${values.run}: must be up or destroy`);
  }
  return {
    backend,
    stack: values.stack,
    project: values.project,
    forceUnlock: values["force-unlock"] === true,
    run: values.run,
    cwd: path.resolve(values.cwd ?? "."),
    pulumi: values.pulumi ?? "pulumi",
  };
}

function describe(report: RepairReport, location: StackLocation, dir: string, out: (l: string) => void): void {
  const rel = (f: string) => path.relative(dir, f);
  out(
    `stack ${location.project ? `${location.project}/` : ""}${location.stack}: checkpoint ${rel(location.checkpoint)}`,
  );
  for (const s of report.removedSidecars) {
    out(`  removed ${rel(s.file)} (${s.reason}: a write of it was killed; a missing sidecar reads as defaults)`);
  }
  for (const l of report.removedLocks) out(`  removed lock ${rel(l.file)}: ${l.why}`);
  if (report.removedSidecars.length + report.removedLocks.length === 0) out("  nothing to repair");
}

/** A checkpoint that is not JSON cannot be repaired here; say where the backups are. */
function checkCheckpoint(location: StackLocation, dir: string): string | undefined {
  if (!location.checkpoint.endsWith(".json")) return undefined;
  try {
    JSON.parse(fs.readFileSync(location.checkpoint, "utf8"));
    return undefined;
  } catch {
    return (
      `the checkpoint ${path.relative(dir, location.checkpoint)} is not valid JSON; restore the newest file of ` +
      `.pulumi/backups/ or .pulumi/history/ for this stack (pulumi stack import), then run recover again`
    );
  }
}

function runStep(pulumi: string, args: string[], cwd: string, backend: string): Promise<number> {
  return new Promise((resolve) => {
    const child = spawn(pulumi, args, {
      cwd,
      stdio: "inherit",
      env: { ...process.env, PULUMI_BACKEND_URL: backend },
    });
    child.on("error", (error) => {
      process.stderr.write(`runpod-iac recover: could not run ${pulumi}: ${error.message}\n`);
      resolve(127);
    });
    child.on("exit", (code) => resolve(code ?? 1));
  });
}

/** `runpod-iac recover ...`; resolves to the exit code. Prints paths and lock holders, never state content. */
export async function recoverCommand(argv: string[]): Promise<number> {
  const out = (line: string) => process.stdout.write(`${line}\n`);
  const fail = (line: string) => process.stderr.write(`runpod-iac recover: ${line}\n`);
  let args: RecoverArgs | "help";
  let location: StackLocation;
  let backend: FileBackend;
  try {
    args = parseRecoverArgs(argv);
    if (args === "help") {
      out(RECOVER_USAGE);
      return 0;
    }
    backend = parseFileBackend(args.backend);
    location = locateStack(backend, args.stack, args.project);
  } catch (error) {
    if (!(error instanceof RecoverUsageError)) throw error;
    fail(`${error.message}\n\n${RECOVER_USAGE}`);
    return 2;
  }
  const report = repairBackend(backend, location, { forceUnlock: args.forceUnlock });
  describe(report, location, backend.dir, out);
  const broken = checkCheckpoint(location, backend.dir);
  if (broken) {
    fail(broken);
    return 1;
  }
  if (report.keptLocks.length > 0) {
    for (const l of report.keptLocks) fail(`kept lock ${path.relative(backend.dir, l.file)}: ${l.why}`);
    fail(
      report.keptLocks.some((l) => l.run === "alive")
        ? "a run still holds the stack: wait for it to end (or stop it), then run recover again"
        : "once that run is surely over (its CI job ended or was cancelled), run recover again with --force-unlock",
    );
    return 1;
  }
  const steps = recoverySteps(args.stack, args.run ?? "up");
  if (!args.run) {
    out("next, in the project directory (a killed destroy: pulumi destroy instead of pulumi up):");
    for (const step of steps) out(`  pulumi ${step.join(" ")}`);
    return 0;
  }
  for (const step of steps) {
    out(`$ pulumi ${step.join(" ")}`);
    const code = await runStep(args.pulumi, step, args.cwd, args.backend);
    if (code !== 0) {
      fail(`pulumi ${step[0]} failed (exit ${code}); the backend is repaired, so it can be run again`);
      return code;
    }
  }
  return 0;
}
