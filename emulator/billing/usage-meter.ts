import type { Collection } from "../records/collection";
import type { UsageKind, UsageRecord, UsageSegment } from "./usage-record";

/** A span to open: everything but its times. */
export type SegmentOpening = Omit<UsageSegment, "start" | "end">;

/** How a write reaches the state file: with the write that caused it (`stage`), or on its own (`persist`). */
export type MeterWrite = "stage" | "persist";

/** A span kept in memory while it runs (a serverless worker's), with what its record needs. */
interface LiveSpan {
  kind: UsageKind;
  resourceId: string;
  segment: UsageSegment;
  attributes: UsageRecord["attributes"];
}

/**
 * One account's meter: opens and closes spans of billed time in the `usage` collection, on a
 * clock that never runs backwards across restarts (platform epoch time, but never before the
 * latest time the loaded state file holds), so a restart can neither bill negative time nor forget
 * what ran. Spans of what the state file does not keep (serverless workers, like jobs) run in
 * memory (`openLive`) and are written when they end (`closeLive`), so a file never holds a span
 * of a worker that no longer exists.
 */
export class UsageMeter {
  private floor = 0;
  private readonly live = new Map<string, LiveSpan>();

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

  /** Every usage record of `kind`, with the spans running in memory. */
  *records(kind?: UsageKind): Iterable<UsageRecord> {
    const live = new Map<string, LiveSpan[]>();
    for (const span of this.live.values()) {
      if (kind !== undefined && span.kind !== kind) continue;
      const id = idOf(span.kind, span.resourceId);
      live.set(id, [...(live.get(id) ?? []), span]);
    }
    for (const r of this.usage.values()) {
      if (kind !== undefined && r.kind !== kind) continue;
      const running = live.get(r.id);
      live.delete(r.id);
      yield running ? { ...r, segments: [...r.segments, ...running.map((s) => s.segment)] } : r;
    }
    for (const [id, spans] of live) {
      const { kind: k, resourceId, attributes } = spans[0]!;
      yield { id, kind: k, resourceId, attributes, segments: spans.map((s) => s.segment) };
    }
  }

  /** Opens a span kept in memory while it runs (a serverless worker's). */
  openLive(kind: UsageKind, resourceId: string, opening: SegmentOpening, attributes?: UsageRecord["attributes"]): void {
    const key = `${idOf(kind, resourceId)}\u0000${opening.podId ?? ""}`;
    this.live.set(key, { kind, resourceId, attributes, segment: { ...opening, start: this.now() } });
  }

  /** Ends a span kept in memory and writes it, closed, to the resource's record (persisted). */
  closeLive(kind: UsageKind, resourceId: string, podId: string | undefined): void {
    const key = `${idOf(kind, resourceId)}\u0000${podId ?? ""}`;
    const span = this.live.get(key);
    if (!span) return;
    this.live.delete(key);
    const record = this.recordOf(kind, resourceId);
    if (span.attributes) record.attributes = span.attributes;
    record.segments.push({ ...span.segment, end: this.now() });
    this.write(record, "persist");
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
