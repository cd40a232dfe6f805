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

/** How the engine shows a notice: a warning, or information; `ephemeral` ones (progress) only while they are current. */
export interface NoticeKind {
  severity: "info" | "warning";
  ephemeral?: boolean;
}

interface EngineLog {
  send(urn: string, message: string, kind: NoticeKind): Promise<void>;
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
    send: (urn, message, kind) =>
      new Promise((resolve) => {
        const req = new messages.LogRequest();
        req.setSeverity(kind.severity === "info" ? messages.LogSeverity.INFO : messages.LogSeverity.WARNING);
        req.setMessage(message);
        req.setUrn(urn);
        // The engine shows an ephemeral message as the resource's status while it is current, and
        // keeps it out of the run's diagnostics and logs: what progress is.
        if (kind.ephemeral) req.setEphemeral(true);
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
const undelivered: ({ urn: string; message: string } & Partial<NoticeKind>)[] = [];

/**
 * Shows `message` as a warning on the resource `urn` in the engine's output (preview and up).
 * Outside the engine (unit and integration tests) it is kept for {@link takeUndeliveredNotices}.
 */
export function warnOnResource(urn: string, message: string): Promise<void> {
  return noticeOnResource(urn, message, { severity: "warning" });
}

/**
 * Shows `message` as the status of resource `urn` while its step runs (an ephemeral info line of
 * the engine's display, such as a rollout's progress). Outside the engine it is kept like a notice.
 */
export function progressOnResource(urn: string, message: string): Promise<void> {
  return noticeOnResource(urn, message, { severity: "info", ephemeral: true });
}

/**
 * Shows `message` on the resource `urn` in the engine's output, as `kind` says (information, a
 * warning, or a passing status such as progress). Outside the engine it is kept for
 * {@link takeUndeliveredNotices}.
 */
export async function noticeOnResource(urn: string, message: string, kind: NoticeKind): Promise<void> {
  if (engine === undefined) {
    const address = engineAddress();
    try {
      engine = address === undefined ? null : connect(address);
    } catch {
      engine = null;
    }
  }
  if (engine) await engine.send(urn, message, kind);
  // A warning is kept as `{ urn, message }`; information and progress say what they are.
  else if (undelivered.push(kind.severity === "warning" ? { urn, message } : { urn, message, ...kind }) > 100)
    undelivered.shift();
}

/** The notices sent outside the engine since the last call (tests). @internal */
export function takeUndeliveredNotices(): ({ urn: string; message: string } & Partial<NoticeKind>)[] {
  return undelivered.splice(0);
}
