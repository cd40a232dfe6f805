import { badField, unprocessableField } from "../../server/http-errors";

/**
 * Reading the catalog's query parameters as management API v2 does (OpenAPI v2 parameters of
 * `/v2/catalog/...`): lists comma-separated, an availability filter valid only with
 * `include=AVAILABILITY` (400), a malformed value a 422.
 */

/** The raw query of a request (every value a string, or absent). */
export type RawQuery = Record<string, string | undefined>;

/** A comma-separated list, empty entries dropped; undefined when the parameter is absent. */
export function list(query: RawQuery, name: string): string[] | undefined {
  const raw = query[name];
  if (raw === undefined) return undefined;
  return raw
    .split(",")
    .map((v) => v.trim())
    .filter((v) => v !== "");
}

/** A list whose every value is one of `allowed` (400 naming the value otherwise). */
export function enumList(query: RawQuery, name: string, allowed: readonly string[]): string[] | undefined {
  const values = list(query, name);
  for (const value of values ?? []) {
    if (!allowed.includes(value)) throw badField(name, value, `must be one of ${allowed.join(", ")}`);
  }
  return values;
}

/** A whole number of at least `min` (400 otherwise). */
export function wholeNumber(query: RawQuery, name: string, min: number): number | undefined {
  const raw = query[name];
  if (raw === undefined) return undefined;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < min) throw badField(name, raw, `must be a whole number of at least ${min}`);
  return n;
}

/** A boolean written `true` or `false` (400 otherwise). */
export function booleanParam(query: RawQuery, name: string): boolean | undefined {
  const raw = query[name];
  if (raw === undefined) return undefined;
  if (raw !== "true" && raw !== "false") throw badField(name, raw, "must be true or false");
  return raw === "true";
}

/** Refuses each present parameter of `names` when availability was not asked for. */
export function onlyWithAvailability(query: RawQuery, names: readonly string[], withAvailability: boolean): void {
  if (withAvailability) return;
  for (const name of names) {
    if (query[name] !== undefined) throw badField(name, query[name], "is valid only with include=AVAILABILITY");
  }
}

/** Each value matches `pattern` (a 422 naming the first that does not). */
export function wellFormed(name: string, values: readonly string[] | undefined, pattern: RegExp, rule: string): void {
  for (const value of values ?? []) if (!pattern.test(value)) throw unprocessableField(name, value, rule);
}

/** `12.4` as [12, 4] and `12` as [12, -1] (any release of 12), for numeric comparison. */
export function versionParts(version: string): [number, number] {
  const [major, minor] = version.split(".");
  return [Number(major), minor === undefined ? -1 : Number(minor)];
}

/** Whether CUDA `version` (major.minor) is at least `floor` (`12` or `12.1`), numerically. */
export function atLeast(version: string, floor: string): boolean {
  const [vMajor, vMinor] = versionParts(version);
  const [fMajor, fMinor] = versionParts(floor);
  return vMajor > fMajor || (vMajor === fMajor && vMinor >= fMinor);
}
