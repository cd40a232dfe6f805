import { requireFromPulumi } from "./pulumi-require";

/*
 * Warnings from inside the dynamic provider, shown by `pulumi preview` under the resource they are
 * about. The engine shows a dynamic provider's `diff` only as "update" or "replace": the dynamic
 * provider protocol of @pulumi/pulumi has no detailed diff and no log (its host,
 * `@pulumi/pulumi/cmd/dynamic-provider`, never connects to the engine's log service), and the
 * program cannot know at preview what is deployed. But the engine starts every provider plugin
 * with its own address as the first argument, and its `Log` RPC takes a URN: a warning sent there
 * is displayed as if the program had called `pulumi.log.warn(message, resource)`.
 */

interface EngineLog {
  /** A warning, or with `progress` an ephemeral status line (shown beside the resource while its step runs). */
  send(urn: string, message: string, progress?: boolean): Promise<void>;
}

let engine: EngineLog | undefined | null;

/** The engine's address when this process is the Node.js dynamic provider host, else undefined. */
function engineAddress(): string | undefined {
  const script = process.argv[1] ?? "";
  const address = process.argv[2];
  const isHost = /[\\/]cmd[\\/]dynamic-provider([\\/]index\.js)?$/.test(script);
  return isHost && address !== undefined && /^[\w.[\]:-]+:\d+$/.test(address) ? address : undefined;
}

/** A client of the engine's log service, built from @pulumi/pulumi's own generated stubs and grpc. */
function connect(address: string): EngineLog {
  // Loaded from where @pulumi/pulumi resolves them, so the same copies the host runs are used.
  const fromPulumi = requireFromPulumi();
  const grpc = fromPulumi("@grpc/grpc-js") as typeof import("@grpc/grpc-js");
  const stubs = fromPulumi("./proto/engine_grpc_pb") as typeof import("@pulumi/pulumi/proto/engine_grpc_pb");
  const messages = fromPulumi("./proto/engine_pb") as typeof import("@pulumi/pulumi/proto/engine_pb");
  const client = new stubs.EngineClient(address, grpc.credentials.createInsecure());
  return {
    send: (urn, message, progress) =>
      new Promise((resolve) => {
        const req = new messages.LogRequest();
        req.setSeverity(progress ? messages.LogSeverity.INFO : messages.LogSeverity.WARNING);
        req.setMessage(message);
        req.setUrn(urn);
        if (progress) req.setEphemeral(true);
        // A notice that cannot be delivered must not fail the preview: the change itself is fine.
        client.log(req, () => resolve());
      }),
  };
}

/**
 * Sends notices to the engine at `address`: for a provider process the engine starts other than
 * the dynamic provider host (the provider plugin, which is handed the same address).
 */
export function useEngineAddress(address: string): void {
  try {
    engine = connect(address);
  } catch {
    engine = null;
  }
}

/** Where notices go when this process is not under the engine (tests), for inspection. */
const undelivered: { urn: string; message: string }[] = [];

/**
 * Shows `message` as a warning on the resource `urn` in the engine's output (preview and up).
 * Outside the engine (unit and integration tests) it is kept for {@link takeUndeliveredNotices}.
 */
export async function warnOnResource(urn: string, message: string): Promise<void> {
  await notify(urn, message, false);
}

/**
 * Shows `message` as the status of resource `urn` while its step runs (an ephemeral info line of
 * the engine's display, such as a rollout's progress). Outside the engine it is kept like a warning.
 */
export async function progressOnResource(urn: string, message: string): Promise<void> {
  await notify(urn, message, true);
}

async function notify(urn: string, message: string, progress: boolean): Promise<void> {
  if (engine === undefined) {
    const address = engineAddress();
    try {
      engine = address === undefined ? null : connect(address);
    } catch {
      engine = null;
    }
  }
  if (engine) await engine.send(urn, message, progress);
  else if (undelivered.push({ urn, message }) > 100) undelivered.shift();
}

/** The notices sent outside the engine since the last call (tests). @internal */
export function takeUndeliveredNotices(): { urn: string; message: string }[] {
  return undelivered.splice(0);
}
