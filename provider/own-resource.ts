import { RunpodError } from "../sdk/errors";

/**
 * The one resource among `matches` that this stack may take over, or undefined when there is
 * none. Several matches mean the account already holds duplicates of an auto-named resource
 * (e.g. made by hand); picking one would be a guess, so the create stops and says how to resolve it.
 */
export function singleMatch<T extends { id: string }>(matches: readonly T[], what: string): T | undefined {
  if (matches.length <= 1) return matches[0];
  const ids = matches.map((m) => m.id).join(", ");
  throw new RunpodError(
    "invalid_request",
    `${matches.length} ${what} already exist (${ids}); set adoptId to the one to keep and delete the others`,
  );
}
