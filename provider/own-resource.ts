import { RunpodError } from "../sdk/errors";
import { isNotFound } from "./errors";
import { type ResourceSource, sharedListing } from "./listings";

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

/** How to look for a resource this stack created but never heard back about: where, and what matches. */
export interface OwnResourceLookup<T extends { id: string }> extends ResourceSource<T> {
  /** Whether a listed resource is this one (same auto-name, and what else must agree). */
  matches: (resource: T) => boolean;
  /** How the matches are named in the error about duplicates, e.g. `network volumes named "x" in EU-RO-1`. */
  what: string;
}

/**
 * Finds the resource by its auto-name (see create-once.ts): from the listing shared by the run's
 * creates, or from a new listing when `fresh`. A match from the shared listing is read again
 * before it is adopted, so a resource deleted since the listing is not taken for present.
 */
export async function findOwnResource<T extends { id: string }>(
  lookup: OwnResourceLookup<T>,
  fresh: boolean,
): Promise<T | undefined> {
  const listed = fresh ? await lookup.list() : await sharedListing(lookup.owner, lookup.kind, lookup.list);
  const match = singleMatch(listed.filter(lookup.matches), lookup.what);
  if (!match || fresh) return match;
  return lookup.get(match.id).catch((err: unknown) => {
    if (isNotFound(err)) return undefined;
    throw err;
  });
}
