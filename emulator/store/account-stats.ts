import type { ServerResponse } from "node:http";
import { emptyFaultStats, type FaultStats } from "../faults/fault-stats";
import { emptyWebhookStats, type WebhookStats } from "../jobs/webhooks";

/** Per-account counters behind `GET /_emulator/stats` (admin routes are not counted). */
export interface AccountStats {
  /** API requests answered or refused after authentication. */
  requests: number;
  /** Requests per route, keyed `METHOD /route/pattern`. */
  byRoute: Map<string, number>;
  /** Requests refused with 429 by the platform's rate limits (not by fault injection). */
  rateLimited: number;
  /** Requests refused with 429 by management API v2's per-user quota. */
  managementQuotaRefused: number;
  /** Requests being handled now (answer not yet sent or abandoned). */
  inFlight: number;
  /** The most requests ever in flight at once (a client's concurrency, e.g. under `pulumi up --parallel`). */
  peakInFlight: number;
  faults: FaultStats;
  webhooks: WebhookStats;
}

/** New, zeroed counters. */
export function emptyStats(): AccountStats {
  return {
    requests: 0,
    byRoute: new Map(),
    rateLimited: 0,
    managementQuotaRefused: 0,
    inFlight: 0,
    peakInFlight: 0,
    faults: emptyFaultStats(),
    webhooks: emptyWebhookStats(),
  };
}

/** Zeroes the counters in place (holders of the nested objects keep counting into them). */
export function resetStats(stats: AccountStats): void {
  stats.requests = 0;
  stats.byRoute.clear();
  stats.rateLimited = 0;
  stats.managementQuotaRefused = 0;
  stats.peakInFlight = stats.inFlight;
  Object.assign(stats.faults, emptyFaultStats());
  Object.assign(stats.webhooks, emptyWebhookStats());
}

/** Counts one request of route `routeKey`, in flight until `response` closes. */
export function countRequest(stats: AccountStats, routeKey: string, response: ServerResponse): void {
  stats.requests++;
  stats.byRoute.set(routeKey, (stats.byRoute.get(routeKey) ?? 0) + 1);
  if (++stats.inFlight > stats.peakInFlight) stats.peakInFlight = stats.inFlight;
  response.once("close", () => stats.inFlight--);
}

/** The JSON form of the counters. */
export function renderStats(userId: string, stats: AccountStats) {
  return {
    userId,
    requests: { total: stats.requests, byRoute: Object.fromEntries(stats.byRoute) },
    rateLimited: stats.rateLimited,
    managementQuotaRefused: stats.managementQuotaRefused,
    inFlight: stats.inFlight,
    peakInFlight: stats.peakInFlight,
    faults: { ...stats.faults },
    webhooks: { ...stats.webhooks },
  };
}
