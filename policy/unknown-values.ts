/**
 * Values a policy sees before they are known.
 *
 * During `pulumi preview`, an input computed from another resource's output that does not exist
 * yet (typically `volume.id` or `template.id` of a resource the same run creates) reaches the
 * policy pack as one of the engine's "unknown" sentinel strings. @pulumi/policy wraps `args.props`
 * (and each stack resource's `props`) in a proxy that throws `UnknownValueError` on reading one;
 * the analyzer turns that throw into an advisory "can't run policy ... during preview" message.
 * That is the right answer for a value a rule needs. For a value a rule only needs to know is
 * present, or that it can replace with the resource the engine says it depends on
 * (`propertyDependencies`), the rule reads the raw property instead, with the helpers below.
 */

/**
 * The sentinels (pulumi's `plugin.Unknown*Value`, the same strings as @pulumi/policy's `proxy.js`;
 * a unit test checks they agree). The engine sends the string one for a computed id.
 */
export const UNKNOWN_SENTINELS: readonly string[] = [
  "1c4a061d-8072-4f0a-a4cb-0ff528b18fe7", // boolean
  "3eeb2bf0-c639-47a8-9e75-3b44932eb421", // number
  "04da6b54-80e4-46f7-96ec-b56ff0331ba9", // string
  "6a19a0b0-7e62-4c92-b797-7f8e31da9cc2", // array
  "030794c1-ac77-496b-92df-f27374a8bd58", // asset
  "e48ece36-62e2-4504-bad9-02848725956a", // archive
  "dd056dcd-154b-4c76-9bd3-c8f88648b5ff", // object
];

/** The string sentinel: what a computed id such as `volume.id` is during preview (for tests and scenarios). */
export const UNKNOWN = "04da6b54-80e4-46f7-96ec-b56ff0331ba9";

const SENTINELS = new Set(UNKNOWN_SENTINELS);

/** True for a value that is unknown until `pulumi up` (the sentinel itself, not a value that contains one). */
export function isUnknownValue(value: unknown): boolean {
  return typeof value === "string" && SENTINELS.has(value);
}

/**
 * The raw value of `props[key]`, read through the property descriptor: the unknown-checking proxy
 * traps `get` only, so this never throws, and an unknown value comes back as its sentinel.
 * Lists come back raw too (elements may be sentinels).
 */
export function rawProp(props: object, key: string): unknown {
  return Object.getOwnPropertyDescriptor(props, key)?.value;
}

/**
 * Whether the program sets `key`: present, not null, and not an empty list. A value unknown
 * during preview counts as set: the program passed an output there, which resolves to a value.
 */
export function isSet(props: object, key: string): boolean {
  const value = rawProp(props, key);
  if (value === undefined || value === null) return false;
  return !(Array.isArray(value) && value.length === 0);
}
