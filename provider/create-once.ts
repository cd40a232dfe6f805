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

/*
 * The listing the lookups before creates share lives with the refresh's listings (listings.ts);
 * re-exported here, where `CreateOnce.find` describes it.
 */
export { forgetListings as forgetSharedListings, sharedListing } from "./listings";
