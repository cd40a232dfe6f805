import { badField, unprocessableField } from "../errors/http-errors";

/*
 * Reading a request's query parameters as the platform does, for the routes of either version:
 * lists comma-separated, a value outside its rule a 400 naming the parameter, a malformed value
 * a 422 where v2 says so.
 */

/**
 * The raw query of a request: a string, or an array of them when the parameter was given more
 * than once (`?gpuTypeId=a&gpuTypeId=b`, how v1's array parameters are sent), or absent.
 */
export type RawQuery = Record<string, string | string[] | undefined>;

/**
 * A parameter that takes one value: undefined when absent, a 400 naming it when it was given more
 * than once (its values disagree, and guessing which one counts would hide the mistake).
 */
export function single(query: RawQuery, name: string): string | undefined {
  const raw = query[name];
  if (!Array.isArray(raw)) return raw;
  throw badField(name, raw.join(", "), `takes one value; it was given ${raw.length} times`);
}

/**
 * A list: the parameter repeated (v1's arrays, `?a=x&a=y`), comma-separated (v2's, `?a=x,y`), or
 * both; empty entries dropped; undefined when the parameter is absent.
 */
export function list(query: RawQuery, name: string): string[] | undefined {
  const raw = query[name];
  if (raw === undefined) return undefined;
  return (Array.isArray(raw) ? raw : [raw])
    .flatMap((value) => value.split(","))
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
  const raw = single(query, name);
  if (raw === undefined) return undefined;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < min) throw badField(name, raw, `must be a whole number of at least ${min}`);
  return n;
}

/** A boolean written `true` or `false` (400 otherwise). */
export function booleanParam(query: RawQuery, name: string): boolean | undefined {
  const raw = single(query, name);
  if (raw === undefined) return undefined;
  if (raw !== "true" && raw !== "false") throw badField(name, raw, "must be true or false");
  return raw === "true";
}

/** Each value matches `pattern` (a 422 naming the first that does not). */
export function wellFormed(name: string, values: readonly string[] | undefined, pattern: RegExp, rule: string): void {
  for (const value of values ?? []) if (!pattern.test(value)) throw unprocessableField(name, value, rule);
}
