import { sleepUnlessAborted } from "../sdk/polling";
import { mayHaveTakenEffect } from "./errors";

/** How a create that may be repeated is carried out. */
export interface CreateOnce<T> {
  /**
   * Looks for the resource by its stack-unique auto-name; `undefined` when the name was chosen by
   * the user (names are not unique on the platform, so a match could be someone else's). With
   * `fresh` false it may answer from the listing shared by the run's creates (see
   * {@link sharedListing}); after a failed create it is called with `fresh` true.
   */
  find: ((fresh: boolean) => Promise<T | undefined>) | undefined;
  /** Sends the create. */
  create: () => Promise<T>;
  /** Creates to attempt when each failure is verified to have created nothing. Default 4. */
  attempts?: number;
}

/**
 * Creates a resource without ever creating it twice. A create whose answer was lost (500, a
 * dropped connection, a timeout) may still have happened; for an auto-named resource the lookup
 * by name tells, so the create is repeated only after the lookup proves nothing was created, and
 * a resource that was created is taken over instead. The same lookup before the first attempt
 * finds what an interrupted earlier run (a killed `pulumi up`) left behind.
 *
 * Returns the resource and whether it already existed (and so may need converging).
 */
export async function createOnce<T>(how: CreateOnce<T>): Promise<{ resource: T; existed: boolean }> {
  const { find, create } = how;
  const attempts = how.attempts ?? 4;
  if (find) {
    const leftover = await find(false);
    if (leftover) return { resource: leftover, existed: true };
  }
  for (let attempt = 1; ; attempt++) {
    try {
      return { resource: await create(), existed: false };
    } catch (err) {
      if (!find || !mayHaveTakenEffect(err)) throw err;
      // If the lookup itself fails, nothing is proven: report the create's error; the next
      // `pulumi up` looks again before creating.
      const created = await find(true).catch(() => {
        throw err;
      });
      if (created) return { resource: created, existed: true };
      if (attempt >= attempts) throw err;
      await sleepUnlessAborted(250 * 2 ** (attempt - 1));
      // Look once more after the pause: a platform whose list lags may show the create only now.
      const late = await find(true).catch(() => {
        throw err;
      });
      if (late) return { resource: late, existed: true };
    }
  }
}

/** How long a shared listing serves lookups. A `pulumi up` takes one; a long-lived process re-lists. */
const SHARED_LISTING_MS = 60_000;
let listings = new WeakMap<object, Map<string, { at: number; list: Promise<readonly unknown[]> }>>();

/**
 * Forgets the shared listings, as a new provider process starts without any. For tests that play
 * several runs in one process (each test is a new run); the engine starts a process per run.
 * @internal
 */
export function forgetSharedListings(): void {
  listings = new WeakMap();
}

/**
 * The account's resources of one kind as listed once for all the creates of a run: the
 * lookup before a create is there to find what a killed earlier run created, and that run ended
 * before this one started, so one listing taken at the run's first create sees all of it. Creates
 * then pay no lookup each (one round trip instead of two on a real network). A failed listing is
 * not kept; lookups after a failed create list afresh (`CreateOnce.find(true)`), and a match from
 * the shared listing is confirmed by the caller before it is adopted.
 */
export function sharedListing<T>(
  owner: object,
  kind: string,
  list: () => Promise<readonly T[]>,
): Promise<readonly T[]> {
  let byKind = listings.get(owner);
  if (!byKind) listings.set(owner, (byKind = new Map()));
  const cached = byKind.get(kind);
  if (cached && Date.now() - cached.at < SHARED_LISTING_MS) return cached.list as Promise<readonly T[]>;
  const entry = { at: Date.now(), list: list() };
  byKind.set(kind, entry);
  entry.list.catch(() => {
    if (byKind.get(kind) === entry) byKind.delete(kind);
  });
  return entry.list;
}
