/**
 * Helpers over the raw property bags the engine hands to dynamic providers.
 */

/** The engine's marker for a value not known until apply (`@pulumi/pulumi/runtime/rpc` `unknownValue`). */
export const UNKNOWN = "04da6b54-80e4-46f7-96ec-b56ff0331ba9";

/** Keys the engine or this package adds that are not resource properties. */
const INTERNAL_KEYS = new Set(["__provider"]);

/** Whether a value (or anything inside it) is still unknown during preview. */
export function isUnknown(value: unknown): boolean {
  if (value === UNKNOWN) return true;
  if (Array.isArray(value)) return value.some(isUnknown);
  if (value !== null && typeof value === "object") return Object.values(value).some(isUnknown);
  return false;
}

/** The property bag without engine-internal keys and without undefined values. */
export function userProps(props: Record<string, unknown> | undefined): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(props ?? {}))
    if (!INTERNAL_KEYS.has(k) && v !== undefined && v !== null) out[k] = v;
  return out;
}

/** Structural equality of JSON values; `ordered: false` compares arrays as sets. */
export function sameValue(a: unknown, b: unknown, ordered = true): boolean {
  if (Array.isArray(a) && Array.isArray(b)) {
    if (a.length !== b.length) return false;
    if (ordered) return a.every((x, i) => sameValue(x, b[i]));
    const key = (x: unknown) => JSON.stringify(x);
    const left = a.map(key).sort();
    const right = b.map(key).sort();
    return left.every((x, i) => x === right[i]);
  }
  if (a !== null && b !== null && typeof a === "object" && typeof b === "object") {
    const ka = Object.keys(a).sort();
    const kb = Object.keys(b).sort();
    return (
      ka.length === kb.length &&
      ka.every((k, i) => k === kb[i] && sameValue((a as Record<string, unknown>)[k], (b as Record<string, unknown>)[k]))
    );
  }
  return a === b;
}

/** Picks the listed keys that are present. */
export function pick<T extends Record<string, unknown>>(obj: T, keys: readonly string[]): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const k of keys) if (obj[k] !== undefined) out[k] = obj[k];
  return out;
}
