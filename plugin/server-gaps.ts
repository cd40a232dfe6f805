import { AsyncLocalStorage } from "node:async_hooks";
import type * as grpc from "@grpc/grpc-js";
import type { Provider } from "@pulumi/pulumi/provider";
import { requireFromPulumi } from "../provider/pulumi-require";

/*
 * The gaps of @pulumi/pulumi's Node.js provider server (`@pulumi/pulumi/provider`, `main`), seen in
 * 3.245 and still in 3.276, and how the plugin closes each. They live here, and only here:
 *
 * 1. Configure: the server answers without reading the request, so the provider never sees its
 *    configuration (`runpod-iac:apiKey`, ...). Closed by answering Configure here, with the
 *    request's arguments handed to the plugin.
 * 2. Secrets: the server tells the engine it accepts secrets, so inputs arrive wrapped in secret
 *    envelopes; the provider objects read plain values, and outputs they rebuild from them would
 *    lose the secret mark and reach the state in plaintext. Closed by declaring that the plugin
 *    does not accept secrets, as the dynamic provider host does: the engine then sends plain
 *    values and marks as secret every output and checked input whose input was secret
 *    (`annotateSecrets` in the engine). Outputs the schema says are always secret are marked here
 *    ({@link secretValue}): the engine keeps secret marks on whatever a provider returns.
 * 3. Read without properties: since CLI 3.198 `pulumi import` sends a Read with no properties, and
 *    the server throws on the missing struct. Closed by handing the server an empty struct; the
 *    provider takes an empty bag for an import.
 * 4. Undefined in outputs: the server encodes results with `Struct.fromJavaScript`, which fails
 *    the whole step on an `undefined` ("Unexpected struct type"). Closed by dropping undefined
 *    values from every result ({@link withoutUndefined}).
 * 5. Detailed diff: the server's `DiffResult` has none, so the engine shows only which inputs
 *    differ. Closed by letting the provider hand one over while its Diff is served
 *    ({@link answerDetailedDiff}), written into the response here.
 * 6. Timeouts: the server hands `create` and `update` no timeout, where the engine sends the
 *    step's `customTimeouts` in the request. Closed by keeping the request's timeout at hand
 *    ({@link requestTimeoutSeconds}).
 *
 * The server also hands `diff` and `read` only the old outputs, where the engine sends the old
 * inputs as well; {@link oldInputs} gives the provider those of the request being served.
 */

/** The engine's marker of a secret value in a property struct. */
export const SECRET_SIG = "1b47061264138c4ac30d75fd1eb44270";
/** The key under which a struct value carries its kind (secret, unknown, asset, ...). */
const SIG_KEY = "4dabf18193072939515e22adb298388d";

/** `value` wrapped as a secret, the way the engine reads one from a provider's answer. */
export function secretValue(value: unknown): unknown {
  if (isSecretValue(value)) return value;
  return { [SIG_KEY]: SECRET_SIG, value };
}

/** Whether `value` is a secret envelope. */
export function isSecretValue(value: unknown): value is { value: unknown } {
  return typeof value === "object" && value !== null && (value as Record<string, unknown>)[SIG_KEY] === SECRET_SIG;
}

/** `value` with every secret envelope opened, at any depth. */
export function withoutSecretEnvelopes(value: unknown): unknown {
  if (isSecretValue(value)) return withoutSecretEnvelopes(value.value);
  if (Array.isArray(value)) return value.map(withoutSecretEnvelopes);
  if (typeof value === "object" && value !== null) {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, withoutSecretEnvelopes(v)]));
  }
  return value;
}

/**
 * `value` without `undefined` (gap 4): dropped from objects, `null` in arrays (an array keeps its
 * positions), so `Struct.fromJavaScript` can encode it.
 */
export function withoutUndefined(value: unknown): unknown {
  if (Array.isArray(value)) return value.map((v) => (v === undefined ? null : withoutUndefined(v)));
  if (typeof value === "object" && value !== null) {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) if (v !== undefined) out[k] = withoutUndefined(v);
    return out;
  }
  return value;
}

/** `provider` with every result freed of `undefined` (gap 4), including the properties of a partial create. */
export function withDefinedResults(provider: Provider): Provider {
  const clean = <T>(result: T): T => withoutUndefined(result) as T;
  const cleanError = (err: unknown): never => {
    const partial = err as { properties?: unknown };
    if (typeof err === "object" && err !== null && partial.properties !== undefined) {
      partial.properties = withoutUndefined(partial.properties);
    }
    throw err;
  };
  const wrapped: Provider = { ...provider };
  for (const method of ["check", "diff", "create", "read", "update", "invoke"] as const) {
    const original = provider[method] as ((...args: unknown[]) => Promise<unknown>) | undefined;
    if (!original) continue;
    (wrapped as Record<string, unknown>)[method] = (...args: unknown[]) =>
      original.apply(provider, args).then(clean, cleanError);
  }
  return wrapped;
}

/** The configuration of a Configure request: its arguments, secrets opened, as strings. */
export type PluginConfig = Readonly<Record<string, string>>;

/** A property's change in a detailed diff: updated, or updated by a replacement. */
export type PropertyChange = "update" | "update-replace";

/** What is at hand while a request is served that the server does not hand on. */
interface Served {
  /** The old inputs, where the engine sent them (Diff, Read). */
  oldInputs?: Record<string, unknown> | undefined;
  /** The timeout (s) the engine sent with a Create or Update (`customTimeouts`). */
  timeout?: number | undefined;
  /** The detailed diff the provider answers with (Diff only). */
  detailedDiff?: Readonly<Record<string, { kind: PropertyChange }>>;
}

const served = new AsyncLocalStorage<Served>();

/** The old inputs the engine sent with the request being served (Diff, Read); undefined elsewhere. */
export function oldInputs(): Record<string, unknown> | undefined {
  return served.getStore()?.oldInputs;
}

/** The timeout (s) the engine sent with the Create or Update being served (`customTimeouts`); undefined or 0 for none. */
export function requestTimeoutSeconds(): number | undefined {
  return served.getStore()?.timeout;
}

/** Hands the engine `diff`, by property, with the Diff response being served (gap 5); outside a Diff, nothing. */
export function answerDetailedDiff(diff: Readonly<Record<string, { kind: PropertyChange }>>): void {
  const store = served.getStore();
  if (store) store.detailedDiff = diff;
}

/** The engine's kinds of a property's change (`PropertyDiff.Kind`). */
const CHANGE_KIND: Readonly<Record<PropertyChange, number>> = { update: 4, "update-replace": 5 };

type Call = { request: Record<string, (...args: unknown[]) => unknown> };
type Handler = (call: Call, callback: grpc.sendUnaryData<unknown>) => unknown;

/** A struct of the request as a plain object, or undefined when the request has none. */
function structOf(request: Call["request"], getter: string): Record<string, unknown> | undefined {
  const struct = request[getter]?.() as { toJavaScript(): Record<string, unknown> } | undefined;
  return struct ? struct.toJavaScript() : undefined;
}

/** The configuration of a Configure request: its arguments (gap 1), else the older `<pkg>:config:<key>` variables. */
export function configOfRequest(request: Call["request"]): PluginConfig {
  const config: Record<string, string> = {};
  const variables = request.getVariablesMap?.() as { forEach(f: (v: string, k: string) => void): void } | undefined;
  variables?.forEach((value, key) => {
    config[key.slice(key.lastIndexOf(":") + 1)] = value;
  });
  for (const [key, value] of Object.entries(structOf(request, "getArgs") ?? {})) {
    const plain = withoutSecretEnvelopes(value);
    if (plain === undefined || plain === null) continue;
    config[key] = typeof plain === "string" ? plain : JSON.stringify(plain);
  }
  return config;
}

/**
 * The provider service's handlers with the gaps closed: Configure answered here (gaps 1 and 2),
 * Read given an empty struct when the engine sends none (gap 3), Diff and Read served with
 * their old inputs at hand ({@link oldInputs}), Diff answering the provider's detailed diff
 * (gap 5), Create and Update with their timeout (gap 6).
 */
export function closeServiceGaps<T extends object>(
  implementation: T,
  configure: (config: PluginConfig) => void,
  messages: {
    ConfigureResponse: new () => Record<string, (v: boolean) => unknown>;
    Struct: new () => unknown;
    PropertyDiff?: new () => Record<string, (v: unknown) => unknown>;
  },
): T {
  const handlers = implementation as unknown as Record<string, Handler>;
  const original = (name: string, call: Call, callback: grpc.sendUnaryData<unknown>) =>
    handlers[name]!.call(implementation, call, callback);
  const overrides: Record<string, Handler> = {
    configure(call, callback) {
      try {
        configure(configOfRequest(call.request));
      } catch (err) {
        callback(err as Error, null);
        return;
      }
      const response = new messages.ConfigureResponse();
      response.setAcceptsecrets!(false);
      response.setAcceptresources!(false);
      response.setAcceptoutputs!(false);
      // No preview support: the engine never calls create or update during a preview.
      response.setSupportspreview!(false);
      callback(null, response);
    },
    diff(call, callback) {
      const store: Served = { oldInputs: structOf(call.request, "getOldInputs") };
      const answer: grpc.sendUnaryData<unknown> = (err, response, ...rest) => {
        if (!err && store.detailedDiff && messages.PropertyDiff) {
          const r = response as Record<string, (...a: unknown[]) => unknown>;
          const map = r.getDetaileddiffMap!() as { set(k: string, v: unknown): void };
          for (const [key, change] of Object.entries(store.detailedDiff)) {
            const diff = new messages.PropertyDiff();
            diff.setKind!(CHANGE_KIND[change.kind]);
            diff.setInputdiff!(true);
            map.set(key, diff);
          }
          r.setHasdetaileddiff!(true);
        }
        callback(err, response, ...rest);
      };
      return served.run(store, () => original("diff", call, answer));
    },
    read(call, callback) {
      if (!call.request.getProperties!()) call.request.setProperties!(new messages.Struct());
      return served.run({ oldInputs: structOf(call.request, "getInputs") }, () => original("read", call, callback));
    },
    create(call, callback) {
      const timeout = call.request.getTimeout?.() as number | undefined;
      return served.run({ timeout }, () => original("create", call, callback));
    },
    update(call, callback) {
      const timeout = call.request.getTimeout?.() as number | undefined;
      return served.run({ timeout }, () => original("update", call, callback));
    },
  };
  return Object.assign(Object.create(implementation) as T, overrides);
}

/**
 * Makes the provider server that `@pulumi/pulumi/provider`'s `main` starts close its gaps: the
 * server class is not exported, so its handlers are wrapped where it registers them with gRPC.
 * Call once, before `main`.
 */
export function closeServerGaps(configure: (config: PluginConfig) => void): void {
  // The copies @pulumi/pulumi itself loads (module identity matters for the service object).
  const fromPulumi = requireFromPulumi();
  const grpcJs = fromPulumi("@grpc/grpc-js") as typeof import("@grpc/grpc-js");
  const services = fromPulumi("./proto/provider_grpc_pb") as { ResourceProviderService: unknown };
  const messages = {
    ConfigureResponse: (fromPulumi("./proto/provider_pb") as { ConfigureResponse: new () => never }).ConfigureResponse,
    Struct: (fromPulumi("google-protobuf/google/protobuf/struct_pb") as { Struct: new () => unknown }).Struct,
    PropertyDiff: (fromPulumi("./proto/provider_pb") as { PropertyDiff: new () => never }).PropertyDiff,
  };
  const addService = grpcJs.Server.prototype.addService;
  grpcJs.Server.prototype.addService = function (service, implementation) {
    const impl =
      service === services.ResourceProviderService
        ? closeServiceGaps(implementation, configure, messages)
        : implementation;
    return addService.call(this, service, impl);
  };
}
