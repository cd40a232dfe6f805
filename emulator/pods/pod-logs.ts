import { rfc3339 } from "../billing/billing-buckets";
import type { PodLogLine } from "./pod-record";

/*
 * `GET /v2/pods/{id}/logs` (OpenAPI v2 `getPodLogs`): Server-Sent Events, each with an `id:` (the
 * line's time and sequence, `2026-06-01T12:02:03Z/000000000001`, so a reconnect resumes after it)
 * and a JSON `data:` payload `{ts, source, line}`. The emulator's lines are the pod's life events
 * (`system`) and its container starts (`container`); it sends the backlog and closes the stream.
 */

/** Which lines to send. */
export interface LogSelection {
  source?: string | undefined;
  /** Lines of backlog, default 100; ignored with `since` or `lastEventId`. */
  tail?: number | undefined;
  /** Epoch ms: lines from this time on. */
  since?: number | undefined;
  /** The `Last-Event-ID` header: lines after that event. */
  lastEventId?: string | undefined;
}

/** The event id of a line. */
export function eventId(line: PodLogLine): string {
  return `${rfc3339(line.ts)}/${String(line.seq).padStart(12, "0")}`;
}

/** The lines a selection names, oldest first. */
export function selectLogLines(lines: readonly PodLogLine[], s: LogSelection): PodLogLine[] {
  const ofSource = lines.filter((l) => s.source === undefined || l.source === s.source);
  if (s.lastEventId !== undefined) {
    const [time, seq] = s.lastEventId.split("/");
    const after = Date.parse(time ?? "");
    if (seq !== undefined && /^\d+$/.test(seq)) return ofSource.filter((l) => l.seq > Number(seq));
    if (Number.isFinite(after)) return ofSource.filter((l) => l.ts > after);
  }
  if (s.since !== undefined) return ofSource.filter((l) => l.ts >= s.since!);
  const tail = s.tail ?? 100;
  return tail === 0 ? [] : ofSource.slice(-tail);
}

/** Lines as a Server-Sent Events body. */
export function renderEventStream(lines: readonly PodLogLine[]): string {
  return lines
    .map((l) => `id: ${eventId(l)}\ndata: ${JSON.stringify({ ts: rfc3339(l.ts), source: l.source, line: l.line })}\n\n`)
    .join("");
}
