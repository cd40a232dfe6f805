/** The key of an `Authorization: Bearer <key>` header (scheme case-insensitive), or undefined. */
export function bearerKey(header: string | undefined): string | undefined {
  if (!header || header.length < 8) return undefined;
  if (header.slice(0, 7).toLowerCase() !== "bearer ") return undefined;
  const key = header.slice(7).trim();
  return key.length > 0 ? key : undefined;
}

/** A key as logs may show it: never more than its first three and last two characters. */
export function maskKey(key: string): string {
  if (key.length < 10) return "*".repeat(Math.max(4, key.length));
  return `${key.slice(0, 3)}${"*".repeat(key.length - 5)}${key.slice(-2)}`;
}
