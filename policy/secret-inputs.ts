import { createRequire } from "node:module";

/*
 * Which input values the program marked secret (`pulumi.secret(...)`, `config.requireSecret`).
 * The engine sends a policy pack every secret value wrapped in its secret signature, and
 * @pulumi/policy 1.x unwraps them all before a validation sees its props (its deserializer, for
 * validations, keeps no mark), so a rule cannot tell a secret from plain text. This module wraps
 * that deserializer, once, in the pack's process (pack.ts): every validation sees the same props as
 * before, and this module remembers, per deserialized object, which of its keys held a secret.
 * Where the wrap cannot be installed (a future @pulumi/policy), nothing is remembered and every
 * value reads as plain text.
 */

type Struct = { toJavaScript(): unknown };
type Deserializer = (struct: Struct, proxySecrets: boolean) => Record<string, unknown>;

/** For each deserialized object (the props, a map inside them), the keys whose value was secret. */
const secretKeys = new WeakMap<object, Set<string>>();

let installed = false;

/**
 * Wraps @pulumi/policy's deserializer (the copy the pack runs on) so that secret inputs stay
 * known as such (see {@link isMarkedSecret}). Idempotent; a no-op where the module has changed.
 */
export function trackSecretInputs(): void {
  if (installed) return;
  installed = true;
  const fromPolicy = createRequire(require.resolve("@pulumi/policy/policy"));
  let deserialize: { deserializeProperties?: Deserializer };
  let rpc: { specialSigKey?: string; specialSecretSig?: string };
  try {
    deserialize = fromPolicy("./deserialize") as typeof deserialize;
    rpc = fromPolicy("@pulumi/pulumi/runtime/rpc") as typeof rpc;
  } catch {
    return;
  }
  const original = deserialize.deserializeProperties;
  const { specialSigKey, specialSecretSig } = rpc;
  if (typeof original !== "function" || !specialSigKey || !specialSecretSig) return;
  const isSecretSig = (v: unknown) =>
    v !== null && typeof v === "object" && (v as Record<string, unknown>)[specialSigKey] === specialSecretSig;
  deserialize.deserializeProperties = (struct, proxySecrets) => {
    const props = original(struct, proxySecrets);
    try {
      remember(struct.toJavaScript(), props, isSecretSig);
    } catch {
      // Remembering is best effort: the props themselves are what the policies need.
    }
    return props;
  };
}

/** Walks the raw struct beside its deserialized form, remembering the keys that held a secret. */
function remember(raw: unknown, out: unknown, isSecretSig: (v: unknown) => boolean): void {
  if (raw === null || typeof raw !== "object" || out === null || typeof out !== "object") return;
  for (const [key, value] of Object.entries(raw)) {
    const inner = (out as Record<string, unknown>)[key];
    if (isSecretSig(value)) {
      const keys = secretKeys.get(out) ?? new Set<string>();
      keys.add(key);
      secretKeys.set(out, keys);
    } else {
      remember(value, inner, isSecretSig);
    }
  }
}

/** The object behind @pulumi/policy's read proxies (they answer `__getSpecialProxyTarget`). */
function targetOf(o: object): object {
  const target = (o as Record<string, unknown>).__getSpecialProxyTarget;
  return target !== null && typeof target === "object" && target !== o ? targetOf(target) : o;
}

/** Whether the value under `key` of `container` (props, or a map inside them) was a secret input. */
export function isMarkedSecret(container: object, key: string): boolean {
  return secretKeys.get(targetOf(container))?.has(key) ?? false;
}
