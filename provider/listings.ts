/*
 * The account's resources of one kind, listed once and shared, so that a refresh reads each
 * resource type with one list call instead of one GET per resource (on v2 every call counts
 * against a per-user quota). A listing holds every resource of the account, with the same fields
 * as a GET of one: `GET /v1/<kind>` answers them all at once, and v2's lists page (1,000 a page by
 * default), which the client reads to the end, so a listing costs one call per page and a resource
 * past the first page is answered from it like any other.
 *
 * The engine's Node.js dynamic provider host serves all of a deployment's dynamic resources in one
 * process for one operation (`pulumi refresh`, `pulumi up`, ...), so one listing per kind can
 * answer every read of a refresh. A listing must never answer for a state it does not show:
 * - a change through this process (a create, update or delete of any resource type: a template
 *   update re-applies endpoints, say) makes every listing stale, and a listing asked for while a
 *   change is in flight is never used by reads (see {@link changing});
 * - each resource is answered from one listing at most once: a refresh reads each resource once,
 *   so a second read of the same resource belongs to a later operation and lists again;
 * - a listing answers reads for {@link READ_MS} after it arrived, then the next read lists again;
 * - listings are kept per client, and a client per configuration (provider-config.ts), so another
 *   key, URL or account never sees this one's listings.
 * What a listing cannot answer is read by id: a resource missing from it (deleted outside Pulumi,
 * which the GET confirms with a 404; or one the list leaves out, such as a v2 cluster member),
 * and every read while the listing failed or a change is in flight.
 *
 * The lookups that keep creates idempotent (create-once.ts) share the same listings, under their
 * own, looser rule ({@link sharedListing}).
 */

/** Where the resources of one kind are read: all at once, or one by id. */
export interface ResourceSource<T extends { id: string }> {
  /** The client the listings are kept on (one per configuration). */
  owner: object;
  /** The kind, e.g. `networkVolumes`: one listing per kind and owner. */
  kind: string;
  /** Lists the account's resources of the kind. */
  list: () => Promise<readonly T[]>;
  /** Reads one; a missing one is a `NotFoundError`. */
  get: (id: string) => Promise<T>;
}

/**
 * How long a listing answers reads after it arrived. Reads of one refresh arrive within moments of
 * each other (the engine sends them in parallel); a read after this lists again, which costs one
 * call, never a stale answer across operations.
 */
export const READ_MS = 10_000;
/**
 * How long a listing serves the lookups before creates (create-once.ts). A `pulumi up` takes one;
 * a long-lived process lists again.
 */
export const SHARED_MS = 60_000;

interface Listing {
  items: Promise<readonly unknown[]>;
  /** The items by id, built on the first read that needs it. */
  byId?: Promise<ReadonlyMap<string, unknown>>;
  /** The change generation when the listing was asked for. */
  generation: number;
  /** Whether reads may use it: no change was in flight when it was asked for. */
  readable: boolean;
  /** When it answered (`Date.now()`), or undefined while on its way. */
  answeredAt?: number;
  failed: boolean;
  /** The ids reads have taken from it: each at most once. */
  served: Set<string>;
}

let listings = new WeakMap<object, Map<string, Listing>>();
/** Bumped when a change starts and when it ends: a listing of an older generation may predate a change. */
let generation = 0;
let changesInFlight = 0;

/**
 * Runs a change to the platform (a create, update or delete), marking every listing stale before
 * it starts and again once it has ended, whether it succeeded or not (a failed change may still
 * have taken effect).
 */
export async function changing<R>(change: () => Promise<R>): Promise<R> {
  generation++;
  changesInFlight++;
  try {
    return await change();
  } finally {
    changesInFlight--;
    generation++;
  }
}

/** The methods of a provider that change the platform. */
const CHANGES = ["create", "update", "delete"] as const;

/** `provider` with its `create`, `update` and `delete` run as changes (see {@link changing}). */
export function withChangeTracking<P extends object>(provider: P): P {
  const tracked: Record<string, unknown> = { ...(provider as Record<string, unknown>) };
  for (const key of CHANGES) {
    const method = (provider as Record<string, unknown>)[key];
    if (typeof method !== "function") continue;
    tracked[key] = (...args: unknown[]) => changing(() => (method as (...a: unknown[]) => Promise<unknown>)(...args));
  }
  return tracked as P;
}

/**
 * Forgets every listing, as a new provider process starts without any. For tests that play
 * several operations in one process; the engine starts a process per operation.
 * @internal
 */
export function forgetListings(): void {
  listings = new WeakMap();
}

function listingsOf(owner: object): Map<string, Listing> {
  let byKind = listings.get(owner);
  if (!byKind) listings.set(owner, (byKind = new Map()));
  return byKind;
}

function startListing(owner: object, kind: string, list: () => Promise<readonly unknown[]>): Listing {
  const listing: Listing = {
    items: list(),
    generation,
    readable: changesInFlight === 0,
    failed: false,
    served: new Set(),
  };
  listing.items.then(
    () => (listing.answeredAt = Date.now()),
    () => {
      listing.answeredAt = Date.now();
      listing.failed = true;
    },
  );
  listingsOf(owner).set(kind, listing);
  return listing;
}

const age = (listing: Listing) => (listing.answeredAt === undefined ? 0 : Date.now() - listing.answeredAt);

/** The listing a read of `id` may use, if there is one. */
function readableListing(owner: object, kind: string, id: string): Listing | undefined {
  const listing = listings.get(owner)?.get(kind);
  if (!listing?.readable || listing.generation !== generation || listing.served.has(id)) return undefined;
  return age(listing) < READ_MS ? listing : undefined;
}

function itemsById(listing: Listing): Promise<ReadonlyMap<string, unknown>> {
  listing.byId ??= listing.items.then((items) => new Map(items.map((item) => [(item as { id: string }).id, item])));
  return listing.byId;
}

/**
 * Reads resource `id` of `source` as a refresh does: from the kind's current listing (listing
 * once for all the reads of a refresh), or by id when the listing cannot answer (see the top of
 * this file). A resource that is gone rejects with the GET's `NotFoundError`, as a GET would.
 */
export async function readListed<T extends { id: string }>(source: ResourceSource<T>, id: string): Promise<T> {
  if (changesInFlight > 0) return source.get(id);
  const { owner, kind } = source;
  const listing = readableListing(owner, kind, id) ?? startListing(owner, kind, source.list);
  let byId: ReadonlyMap<string, unknown>;
  try {
    byId = await itemsById(listing);
  } catch {
    // A listing that failed answers nothing; each read does what it did before listings: a GET.
    return source.get(id);
  }
  // A change started while the listing was on its way, or another read took this id meanwhile.
  if (!listing.readable || listing.generation !== generation || listing.served.has(id)) return source.get(id);
  listing.served.add(id);
  return (byId.get(id) as T | undefined) ?? source.get(id);
}

/**
 * The account's resources of one kind as listed once for all the lookups before a run's creates:
 * those look for what a killed earlier run created, and that run ended before this process
 * started, so any listing this process took sees all of it, even one taken before this run's
 * own creates (a refresh's, in `pulumi up --refresh`). Creates then pay no lookup each. A failed
 * listing is not kept; lookups after a failed create list afresh (`CreateOnce.find(true)`), and a
 * match from the shared listing is read again by id before it is adopted (own-resource.ts).
 */
export function sharedListing<T>(
  owner: object,
  kind: string,
  list: () => Promise<readonly T[]>,
): Promise<readonly T[]> {
  const listing = listings.get(owner)?.get(kind);
  if (listing && !listing.failed && age(listing) < SHARED_MS) return listing.items as Promise<readonly T[]>;
  return startListing(owner, kind, list).items as Promise<readonly T[]>;
}
