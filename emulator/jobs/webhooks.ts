import { request } from "undici";
import { JOB_DEFAULTS } from "../../sdk/schemas";
import type { Scheduler } from "../clock/scheduler";
import { Timer } from "../clock/scheduler";

/** Webhook delivery counters (shown by `GET /_emulator/stats`). */
export interface WebhookStats {
  /** Calls made, including retries. */
  attempts: number;
  /** Calls answered with 200. */
  delivered: number;
  /** Calls that failed (non-200 answer or connection error). */
  failures: number;
  /** Jobs whose webhook failed on every attempt. */
  abandoned: number;
}

/** A new set of zeroed webhook counters. */
export function emptyWebhookStats(): WebhookStats {
  return { attempts: 0, delivered: 0, failures: 0, abandoned: 0 };
}

/**
 * Calls job webhooks (docs/platform.md "Events"): a POST of the job record as JSON on completion;
 * the receiver must answer 200; a failed call is retried up to 2 more times, 10 s apart on the
 * emulator clock.
 */
export class WebhookSender {
  private readonly inFlight = new Set<AbortController>();
  private readonly retries = new Set<Timer>();
  private closed = false;

  constructor(
    private readonly scheduler: Scheduler,
    private readonly stats: WebhookStats,
    /** Real-time limit of one call. */
    private readonly timeoutMs = 10_000,
  ) {}

  /** Delivers `record` to `url` in the background. */
  send(url: string, record: unknown): void {
    void this.attempt(url, JSON.stringify(record), 0);
  }

  /** Aborts calls in flight and drops pending retries. */
  dispose(): void {
    this.closed = true;
    for (const c of this.inFlight) c.abort();
    for (const t of this.retries) this.scheduler.cancel(t);
    this.inFlight.clear();
    this.retries.clear();
  }

  private async attempt(url: string, body: string, retry: number): Promise<void> {
    if (this.closed) return;
    this.stats.attempts++;
    const controller = new AbortController();
    const timer = setTimeout(() => controller.abort(), this.timeoutMs).unref();
    this.inFlight.add(controller);
    let ok = false;
    try {
      const res = await request(url, {
        method: "POST",
        body,
        headers: { "content-type": "application/json", "user-agent": "runpod-iac-emulator" },
        signal: controller.signal,
      });
      await res.body.dump();
      ok = res.statusCode === 200;
    } catch {
      ok = false;
    } finally {
      clearTimeout(timer);
      this.inFlight.delete(controller);
    }
    if (this.closed) return;
    if (ok) {
      this.stats.delivered++;
      return;
    }
    this.stats.failures++;
    if (retry >= JOB_DEFAULTS.webhookRetries) {
      this.stats.abandoned++;
      return;
    }
    const next = new Timer(() => {
      this.retries.delete(next);
      void this.attempt(url, body, retry + 1);
    });
    this.retries.add(next);
    this.scheduler.after(next, JOB_DEFAULTS.webhookRetryDelayMs);
  }
}
