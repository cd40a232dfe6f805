/** The reading side of a collection: what code that only looks records up is given. */
export type RecordLookup<T extends { id: string }> = Pick<Collection<T>, "get" | "has" | "values">;

/** What a collection calls after a write, besides persisting: e.g. reconfiguring an endpoint's job runtime. */
export interface CollectionHooks<T> {
  /** After a record is stored (created or replaced), before it is persisted. */
  onPut?: (record: T) => void;
  /** After a record is removed, before the removal is persisted. */
  onDelete?: (id: string) => void;
}

/**
 * One management collection of an account (volumes, endpoints, ...): records by id. Every write
 * (`put`, `delete`) persists the account's state and resolves once it is on disk (or at once
 * without a state file), so a route that awaits its write answers only after the write is
 * durable, and no route has to remember to persist. `load` and `clear` are the
 * store's own (loading a state file, `/_emulator/reset`) and persist nothing themselves.
 */
export class Collection<T extends { id: string }> {
  private readonly records = new Map<string, T>();
  /**
   * Each record's place in creation order: given when its id is first stored, kept while it is
   * replaced, never reused. The paged lists resume after a position, so a record created between
   * two pages comes after every record there was, and one deleted meanwhile moves nothing.
   */
  private readonly positions = new Map<string, number>();
  private lastPosition = 0;

  constructor(
    private readonly persist: () => Promise<void>,
    private readonly hooks: CollectionHooks<T> = {},
  ) {}

  /** The record with this id, or undefined. */
  get(id: string): T | undefined {
    return this.records.get(id);
  }

  /** Whether a record with this id exists. */
  has(id: string): boolean {
    return this.records.has(id);
  }

  /** Every record, in insertion order. */
  values(): IterableIterator<T> {
    return this.records.values();
  }

  /** Every id, in insertion order. */
  keys(): IterableIterator<string> {
    return this.records.keys();
  }

  /**
   * Where the record with this id stands in creation order (larger is newer; the same number for
   * as long as the record exists), or undefined when there is no such record. `values()` yields
   * records in increasing position. Positions are of this process: a state file loads its records
   * in their saved order, numbered afresh.
   */
  position(id: string): number | undefined {
    return this.positions.get(id);
  }

  /** How many records there are. */
  get size(): number {
    return this.records.size;
  }

  /** Creates or replaces a record; resolves once the state holding it is persisted. */
  put(record: T): Promise<void> {
    this.store(record);
    this.hooks.onPut?.(record);
    return this.persist();
  }

  /**
   * Creates or replaces a record without persisting it: for a write another write carries, such as
   * the billing usage a pod's start adds, which the pod's own `put` right after persists with it.
   */
  stage(record: T): void {
    this.store(record);
    this.hooks.onPut?.(record);
  }

  /** Removes a record (a missing id is no error); resolves once the removal is persisted. */
  delete(id: string): Promise<void> {
    const existed = this.records.delete(id);
    this.positions.delete(id);
    if (existed) this.hooks.onDelete?.(id);
    return this.persist();
  }

  /** Stores records read from the state file: hooks run, nothing is persisted. */
  load(records: readonly T[]): void {
    for (const record of records) {
      this.store(record);
      this.hooks.onPut?.(record);
    }
  }

  /** Forgets every record (`/_emulator/reset`), running the delete hook of each; nothing is persisted. */
  clear(): void {
    const ids = [...this.records.keys()];
    this.records.clear();
    this.positions.clear();
    for (const id of ids) this.hooks.onDelete?.(id);
  }

  /** Stores a record, numbering it if its id is new. */
  private store(record: T): void {
    this.records.set(record.id, record);
    if (!this.positions.has(record.id)) this.positions.set(record.id, ++this.lastPosition);
  }
}
