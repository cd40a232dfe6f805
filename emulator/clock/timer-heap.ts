/**
 * Something with a deadline on the emulator clock. Jobs implement it directly (their TTL or
 * retention expiry), so holding a job costs no extra timer object.
 */
export interface Scheduled {
  /** Deadline, in platform ms. */
  at: number;
  /** Tie-breaker: deadlines that are equal fire in scheduling order. */
  seq: number;
  /** Position in the heap, or -1 when not scheduled. */
  heapIndex: number;
  /** Called once when the deadline passes. */
  fire(): void;
}

function before(a: Scheduled, b: Scheduled): boolean {
  return a.at < b.at || (a.at === b.at && a.seq < b.seq);
}

/** A binary min-heap of deadlines: O(log n) insert, removal and re-keying; O(1) peek. */
export class TimerHeap {
  private readonly items: Scheduled[] = [];

  get size(): number {
    return this.items.length;
  }

  peek(): Scheduled | undefined {
    return this.items[0];
  }

  /** Inserts `item`, or moves it if it is already in the heap. */
  upsert(item: Scheduled): void {
    if (item.heapIndex < 0) {
      item.heapIndex = this.items.length;
      this.items.push(item);
      this.up(item.heapIndex);
      return;
    }
    this.up(item.heapIndex);
    this.down(item.heapIndex);
  }

  /** Removes `item` if present. */
  remove(item: Scheduled): void {
    const i = item.heapIndex;
    if (i < 0) return;
    const last = this.items.pop()!;
    item.heapIndex = -1;
    if (last === item) return;
    this.items[i] = last;
    last.heapIndex = i;
    this.up(i);
    this.down(last.heapIndex);
  }

  /** Removes and returns the earliest deadline. */
  pop(): Scheduled | undefined {
    const top = this.items[0];
    if (top) this.remove(top);
    return top;
  }

  /** Forgets every deadline. */
  clear(): void {
    for (const item of this.items) item.heapIndex = -1;
    this.items.length = 0;
  }

  private up(i: number): void {
    const items = this.items;
    const item = items[i]!;
    while (i > 0) {
      const parentIndex = (i - 1) >> 1;
      const parent = items[parentIndex]!;
      if (!before(item, parent)) break;
      items[i] = parent;
      parent.heapIndex = i;
      i = parentIndex;
    }
    items[i] = item;
    item.heapIndex = i;
  }

  private down(i: number): void {
    const items = this.items;
    const n = items.length;
    const item = items[i]!;
    for (;;) {
      const l = 2 * i + 1;
      if (l >= n) break;
      const r = l + 1;
      const child = r < n && before(items[r]!, items[l]!) ? r : l;
      const c = items[child]!;
      if (!before(c, item)) break;
      items[i] = c;
      c.heapIndex = i;
      i = child;
    }
    items[i] = item;
    item.heapIndex = i;
  }
}
