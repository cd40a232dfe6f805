/** One response header as undici hands it over: absent, one line, or one entry per line when the server repeated it. */
export type HeaderValue = string | string[] | undefined;

/** A response's headers as undici hands them over, by lower-case name. */
export type ResponseHeaders = Record<string, HeaderValue>;

/**
 * A header's value as one string; `undefined` when absent. A header sent on several lines means,
 * for a list field (`"list"`: `RateLimit`, `RateLimit-Policy`), its lines joined by ", ", which
 * is how HTTP combines the lines of a list (RFC 9110 §5.3); a field that holds one value
 * (`"single"`: `Retry-After`, `X-Request-Id`) cannot be combined, and its first line counts.
 */
export function headerValue(value: HeaderValue, kind: "single" | "list"): string | undefined {
  if (!Array.isArray(value)) return value;
  return kind === "list" ? value.join(", ") : value[0];
}
