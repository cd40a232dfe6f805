import type { Collection } from "../store/collection";
import type { UsageKind, UsageRecord, UsageSegment } from "./usage-record";

/** A span to open: everything but its times. */
export type SegmentOpening = Omit<UsageSegment, "start" | "end">;

/** How a write reaches the state file: with the write that caused it (`stage`), or on its own (`persist`). */
export type MeterWrite = "stage" | "persist";

/**
 * One account's meter: opens and closes spans of billed time in the `usage` collection, on a
 * clock that never runs backwards across restarts (platform epoch time, but never before the
 * latest time the loaded state file holds), so a restart can neither bill negative time nor forget
 * what ran.
 */
export class UsageMeter {
  private floor = 0;

  constructor(
    private readonly usage: Collection<UsageRecord>,
    private readonly clockNow: () => number,
  ) {}

  /** Billing time now: epoch ms of platform time. */
  now(): number {
    return Math.max(this.clockNow(), this.floor);
  }

  /** Notes the times of a stored record (the usage collection's hook), so `now` never goes below them. */
  observe(record: UsageRecord): void {
    for (const s of record.segments) this.floor = Math.max(this.floor, s.start, s.end ?? 0);
  }

  /** Every usage record of `kind`. */
  *records(kind?: UsageKind): Iterable<UsageRecord> {
    for (const r of this.usage.values()) if (kind === undefined || r.kind === kind) yield r;
  }

  /** The open span of `podId` (or the resource's only one) of a resource, if any. */
  openSegment(kind: UsageKind, resourceId: string, podId?: string): UsageSegment | undefined {
    return this.usage.get(idOf(kind, resourceId))?.segments.find((s) => s.end === undefined && s.podId === podId);
  }

  /**
   * Opens a span (closing the one of the same `podId` first), unless one is open with the same
   * rate and facts already: then nothing changes (a record loaded or re-put is no new span).
   */
  open(
    kind: UsageKind,
    resourceId: string,
    opening: SegmentOpening,
    write: MeterWrite,
    attributes?: UsageRecord["attributes"],
  ): void {
    const current = this.openSegment(kind, resourceId, opening.podId);
    if (current && sameFacts(current, opening)) return;
    const record = this.recordOf(kind, resourceId);
    const now = this.now();
    if (current) current.end = now;
    if (attributes) record.attributes = attributes;
    record.segments.push({ ...opening, start: now });
    this.write(record, write);
  }

  /** Closes the open span of `podId` (or the resource's), if any. */
  close(kind: UsageKind, resourceId: string, podId: string | undefined, write: MeterWrite): void {
    const record = this.usage.get(idOf(kind, resourceId));
    const current = record?.segments.find((s) => s.end === undefined && s.podId === podId);
    if (!record || !current) return;
    current.end = this.now();
    this.write(record, write);
  }

  /** Closes every open span of a resource (a deleted cluster, a deleted volume). */
  closeAll(kind: UsageKind, resourceId: string, write: MeterWrite): void {
    const record = this.usage.get(idOf(kind, resourceId));
    if (!record) return;
    const now = this.now();
    let changed = false;
    for (const s of record.segments) {
      if (s.end === undefined) {
        s.end = now;
        changed = true;
      }
    }
    if (changed) this.write(record, write);
  }

  private recordOf(kind: UsageKind, resourceId: string): UsageRecord {
    return this.usage.get(idOf(kind, resourceId)) ?? { id: idOf(kind, resourceId), kind, resourceId, segments: [] };
  }

  private write(record: UsageRecord, write: MeterWrite): void {
    if (write === "stage") return this.usage.stage(record);
    // Persisted on its own (a worker stopped): a failed write is reported by the next one.
    this.usage.put(record).catch(() => undefined);
  }
}

function idOf(kind: UsageKind, resourceId: string): string {
  return `${kind}:${resourceId}`;
}

function sameFacts(a: SegmentOpening, b: SegmentOpening): boolean {
  return a.ratePerHour === b.ratePerHour && a.component === b.component && a.gpuTypeId === b.gpuTypeId && a.gb === b.gb;
}
