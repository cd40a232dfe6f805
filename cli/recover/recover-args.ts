import * as path from "node:path";
import { parseArgs } from "node:util";
import { RecoverUsageError } from "./backend-url";

/** Usage of `runpod-iac recover`. */
export const RECOVER_USAGE = `Usage: runpod-iac recover --stack NAME [options]

Makes a stack whose \`pulumi up\`/\`destroy\` was killed usable again, on any state backend the
engine supports (file://, postgres://, s3://, gs://, azblob://, Pulumi Cloud): repairs what a kill
breaks in a file backend, removes the dead run's lock, clears its pending operations, then prints
(or runs) the rest: \`pulumi refresh --clear-pending-creates\`, then \`pulumi up\` (or destroy).
It needs what \`pulumi up\` needs: the backend's credentials and the stack's secrets provider
(e.g. PULUMI_CONFIG_PASSPHRASE).

  --backend URL        the state backend (default: $PULUMI_BACKEND_URL)
  --stack NAME         the stack: NAME or organization/PROJECT/NAME
  --project NAME       the project, when several projects have a stack NAME
  --force-unlock       remove the stack's lock even when its run cannot be proven dead (another
                       machine's run, or Pulumi Cloud's update in progress): only once you know
                       that run is over; the lock's host, pid and age are printed first
  --run up|destroy     run the refresh and then \`pulumi up\` (or \`pulumi destroy\`), in --cwd
  --cwd DIR            the Pulumi project directory for --run (default: the current directory)
  --pulumi PATH        the pulumi binary (default: pulumi on PATH)
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

/** What `recover` was asked to do. */
export interface RecoverArgs {
  backend: string;
  stack: string;
  project: string | undefined;
  forceUnlock: boolean;
  run: "up" | "destroy" | undefined;
  cwd: string;
  pulumi: string;
}

/** Reads `recover`'s arguments; a mistake is a `RecoverUsageError` naming the flag and value. */
export function parseRecoverArgs(argv: string[], env: NodeJS.ProcessEnv = process.env): RecoverArgs | "help" {
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
  const backend = values.backend ?? env.PULUMI_BACKEND_URL;
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
