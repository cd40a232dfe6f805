/**
 * A simulated worker's log (what `GET /v2/serverless/{id}/workers/{workerId}/logs` streams):
 * `system` lines for its lifecycle, `container` lines for the jobs and HTTP requests it served.
 * Bounded, like the platform's backfill (OpenAPI `LogTail`: at most 5000 lines).
 */

/** One log line; `at` is on the emulator clock (platform ms). */
export interface WorkerLogLine {
  at: number;
  source: "container" | "system";
  line: string;
}

/** Lines kept per worker: the most history a client can ask for (`tail` 5000). */
export const WORKER_LOG_LINES = 5000;

/** One worker's log lines, and the streams following it. */
export class WorkerLog {
  private readonly kept: WorkerLogLine[] = [];
  private readonly followers = new Set<(line: WorkerLogLine | undefined) => void>();
  private closed = false;

  /** Appends a line and hands it to every follower. */
  add(at: number, source: WorkerLogLine["source"], line: string): void {
    if (this.closed) return;
    const entry = { at, source, line };
    this.kept.push(entry);
    if (this.kept.length > WORKER_LOG_LINES) this.kept.shift();
    for (const follow of this.followers) follow(entry);
  }

  /** The lines kept, oldest first. */
  lines(): readonly WorkerLogLine[] {
    return this.kept;
  }

  /** Whether the worker stopped (no more lines will come). */
  get ended(): boolean {
    return this.closed;
  }

  /** Calls `follow` with each new line, and with undefined once the worker stops. Returns the unsubscribe. */
  follow(follow: (line: WorkerLogLine | undefined) => void): () => void {
    if (this.closed) {
      follow(undefined);
      return () => undefined;
    }
    this.followers.add(follow);
    return () => this.followers.delete(follow);
  }

  /** The worker stopped: followers are told, and let go. */
  close(): void {
    if (this.closed) return;
    this.closed = true;
    for (const follow of this.followers) follow(undefined);
    this.followers.clear();
  }
}
