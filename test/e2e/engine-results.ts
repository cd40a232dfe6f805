import { execFile } from "node:child_process";
import { promisify } from "node:util";
import {
  type ConfigMap,
  type DestroyOptions,
  type EngineEvent,
  type LocalWorkspace,
  type OutputMap,
  PulumiCommand,
  type RefreshOptions,
  type Stack,
  type UpdateKind,
  type UpdateSummary,
  type UpOptions,
} from "@pulumi/pulumi/automation";

/**
 * What the suite's stacks return from `up`, `refresh` and `destroy`, taken from the engine's own
 * events instead of the CLI calls the Automation API makes after each operation.
 *
 * After every `up` the Automation API runs `pulumi stack output --json` twice (masked, then with
 * `--show-secrets`) and `pulumi stack history --page-size 1`; after `refresh` and `destroy`, the
 * history call. Each is a CLI start that decrypts the stack's config, about 0.5 s of CPU, together
 * about a quarter of the CPU of an `up` in this suite (measured with `/usr/bin/time` around every
 * CLI call: docs/ci.md "Where CI's time goes"). The engine already streams both answers to the
 * Automation API's event log: the root stack resource's outputs (secrets as the secret signature
 * with `"[secret]"`) and the operation's `summaryEvent` (its result and resource changes, the
 * numbers `stack history` stores). So the operations run exactly as before, through the same
 * Automation API; only these two reads change:
 *
 * - `outputs`: the values of the root stack's last outputs event; secret ones (top-level secret
 *   signatures, as the masked `stack output` marks them) are `secret: true`, and when any value
 *   holds a secret, the plaintext comes from one `stack output --json --show-secrets` call;
 * - `summary`: `kind`, `result`, `resourceChanges`, `startTime` and `endTime` from the summary
 *   event. Its other fields (`version`, `message`, `environment`, `config`) are not in the event:
 *   reading one throws, so a test that needs them calls `stack.history()` itself.
 *
 * An operation whose events lack either (a CLI that sends no summary event, a targeted `up` with
 * no root outputs event) falls back to the Automation API's own calls. Between operations,
 * `stack.outputs()` and `stack.info()` are the Automation API's.
 */
export function resultsFromEngineEvents(stack: Stack): Stack {
  const ownOutputs = stack.outputs.bind(stack);
  const ownInfo = stack.info.bind(stack);
  const ownUp = stack.up.bind(stack);
  const ownRefresh = stack.refresh.bind(stack);
  const ownDestroy = stack.destroy.bind(stack);
  let running: Capture | undefined;

  const patched = stack as { -readonly [K in keyof Stack]: Stack[K] };
  patched.outputs = async () => {
    const root = running?.rootOutputs;
    if (root === undefined) return ownOutputs();
    const plaintext = Object.values(root).some(holdsSecret) ? await plaintextOutputs(stack) : root;
    const outputs: OutputMap = {};
    for (const [key, value] of Object.entries(root)) {
      outputs[key] = { value: plaintext[key], secret: isSecretSignature(value) };
    }
    return outputs;
  };
  patched.info = async (showSecrets?: boolean) => {
    const capture = running;
    if (capture?.summary?.result === undefined) return ownInfo(showSecrets);
    return summaryOf(capture.kind, capture.startTime, capture.summary);
  };

  async function during<T>(
    kind: UpdateKind,
    onEvent: ((e: EngineEvent) => void) | undefined,
    op: (onEvent: (e: EngineEvent) => void) => Promise<T>,
  ): Promise<T> {
    const capture: Capture = { kind, startTime: new Date() };
    running = capture;
    try {
      return await op((event) => {
        const outputsEvent = event.resOutputsEvent?.metadata;
        if (outputsEvent?.type === "pulumi:pulumi:Stack" && outputsEvent.new) {
          capture.rootOutputs = outputsEvent.new.outputs ?? {};
        }
        if (event.summaryEvent !== undefined) capture.summary = event.summaryEvent as SummaryEvent;
        onEvent?.(event);
      });
    } finally {
      running = undefined;
    }
  }

  patched.up = (opts?: UpOptions) => during("update", opts?.onEvent, (onEvent) => ownUp({ ...opts, onEvent }));
  patched.refresh = (opts?: RefreshOptions) =>
    during("refresh", opts?.onEvent, (onEvent) => ownRefresh({ ...opts, onEvent }));
  patched.destroy = (opts?: DestroyOptions) =>
    during("destroy", opts?.onEvent, (onEvent) => ownDestroy({ ...opts, onEvent }));
  return stack;
}

/**
 * Sets a new stack's config as `stack.setAllConfig` does, without a CLI start (`config set-all`,
 * about 0.45 s of CPU) for what needs no CLI: plain values under a namespaced key
 * (`runpod:apiUrl`) are written into the stack's settings file (`Pulumi.<stack>.yaml`) through the
 * Automation API's own `stackSettings`/`saveStackSettings`, which is where the CLI writes them on a
 * DIY backend. Secret values (the CLI encrypts them with the stack's secrets provider), keys
 * without a namespace (the CLI prefixes the project's name) and a stack with no settings file in
 * its work dir yet (one selected on a shared backend) still go through `setAllConfig`.
 */
export async function setNewStackConfig(stack: Stack, config: ConfigMap): Promise<void> {
  const viaCli: ConfigMap = {};
  const plain: Record<string, string> = {};
  for (const [key, value] of Object.entries(config)) {
    if (value.secret || !key.includes(":")) viaCli[key] = value;
    else plain[key] = value.value;
  }
  if (Object.keys(plain).length > 0) {
    // A stack selected in a work dir of its own has no settings file yet: the CLI makes it.
    const settings = await stack.workspace.stackSettings(stack.name).catch(() => undefined);
    if (settings === undefined) return stack.setAllConfig(config);
    settings.config = { ...settings.config, ...plain };
    await stack.workspace.saveStackSettings(stack.name, settings);
  }
  if (Object.keys(viaCli).length > 0) await stack.setAllConfig(viaCli);
}

/**
 * One `PulumiCommand` per CLI directory for the whole test process: `PulumiCommand.get` runs
 * `pulumi version` (a CLI start, about 0.35 s of CPU) each time it is called.
 */
export function pulumiCommandOf(root: string): Promise<PulumiCommand> {
  let command = commands.get(root);
  if (command === undefined) {
    command = PulumiCommand.get({ root });
    commands.set(root, command);
    command.catch(() => commands.delete(root));
  }
  return command;
}
const commands = new Map<string, Promise<PulumiCommand>>();

interface Capture {
  kind: UpdateKind;
  startTime: Date;
  rootOutputs?: Record<string, unknown>;
  summary?: SummaryEvent;
}

/** The engine's summary event as the CLI writes it to the event log (older CLIs send no `result`). */
interface SummaryEvent {
  result?: string;
  resourceChanges?: UpdateSummary["resourceChanges"];
}

/** `pulumi stack output --json --show-secrets`, in the stack's workspace, with its environment. */
async function plaintextOutputs(stack: Stack): Promise<Record<string, unknown>> {
  const workspace = stack.workspace as LocalWorkspace;
  const env = { ...process.env, ...workspace.envVars };
  if (workspace.pulumiHome !== undefined) env.PULUMI_HOME = workspace.pulumiHome;
  const args = ["stack", "output", "--json", "--show-secrets", "--stack", stack.name, "--non-interactive"];
  const { stdout } = await promisify(execFile)(workspace.pulumiCommand.command, args, {
    cwd: workspace.workDir,
    env,
    maxBuffer: 64 << 20,
  });
  return JSON.parse(stdout) as Record<string, unknown>;
}

const SECRET_SIG = "4dabf18193072939515e22adb298388d";

function isSecretSignature(value: unknown): boolean {
  return typeof value === "object" && value !== null && SECRET_SIG in value;
}

function holdsSecret(value: unknown): boolean {
  if (isSecretSignature(value)) return true;
  if (typeof value !== "object" || value === null) return false;
  return Object.values(value).some(holdsSecret);
}

function summaryOf(kind: UpdateKind, startTime: Date, event: SummaryEvent): UpdateSummary {
  const summary = {
    kind,
    startTime,
    endTime: new Date(),
    result: event.result as UpdateSummary["result"],
    resourceChanges: event.resourceChanges ?? {},
  } as Partial<UpdateSummary>;
  for (const field of ["version", "message", "environment", "config"] as const) {
    Object.defineProperty(summary, field, {
      enumerable: false,
      get() {
        throw new Error(
          `summary.${field} is not in the engine's summary event (test/e2e/engine-results.ts): read it from stack.history()`,
        );
      },
    });
  }
  return summary as UpdateSummary;
}
