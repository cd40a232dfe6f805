import { RATE_LIMITS, RATE_WINDOW_MS } from "../schemas/rate-limits";
import type { Transport } from "../transport";
import { OperationPacer, type PacerLimit } from "./operation-pacer";

/** The operations a batch sends many of. */
export type PacedOperation = "run" | "status" | "stream";

/** One operation's limit as a caller overrides it (fields left out keep the platform's value). */
export interface RateLimitOverride {
  /** Requests per window. Default: the platform's table (`/run` 1000, `/status` and `/stream` 2000). */
  perWindow?: number | undefined;
  /** Window length in ms. Default 10000 (documented). */
  windowMs?: number | undefined;
  /** Requests in flight at once. Default: the platform's table (`/run` 200, `/status` and `/stream` 400). */
  concurrent?: number | undefined;
}

/** Overrides of the platform's limits, per operation. */
export type RateLimitOverrides = Partial<Record<PacedOperation, RateLimitOverride>>;

/** The pacers of one endpoint: one per operation. */
export type EndpointPacers = Readonly<Record<PacedOperation, OperationPacer>>;

/** The limit an operation is paced to: the platform's row, with the caller's overrides. */
export function pacerLimit(op: PacedOperation | CallOperation, override: RateLimitOverride | undefined): PacerLimit {
  const row = RATE_LIMITS[op];
  return {
    perWindow: override?.perWindow ?? row.perWindow,
    windowMs: override?.windowMs ?? RATE_WINDOW_MS,
    concurrent: override?.concurrent ?? row.concurrent,
  };
}

/**
 * Pacers per client and endpoint: the platform's limits are per endpoint and per user, so every
 * batch a client runs on one endpoint shares one budget (two at once each get about half). Keyed
 * by the client's transport, so they go when the client goes; batches that override the limits
 * differently pace separately.
 */
const registry = new WeakMap<Transport, Map<string, EndpointPacers>>();

/** The shared pacers of `endpointId` on the client whose transport is `owner`. */
export function endpointPacers(
  owner: Transport,
  endpointId: string,
  overrides: RateLimitOverrides = {},
): EndpointPacers {
  let byEndpoint = registry.get(owner);
  if (!byEndpoint) {
    byEndpoint = new Map();
    registry.set(owner, byEndpoint);
  }
  const limits = {
    run: pacerLimit("run", overrides.run),
    status: pacerLimit("status", overrides.status),
    stream: pacerLimit("stream", overrides.stream),
  };
  const key = `${endpointId}\u0000${JSON.stringify(limits)}`;
  let pacers = byEndpoint.get(key);
  if (!pacers) {
    pacers = {
      run: new OperationPacer("run", limits.run),
      status: new OperationPacer("status", limits.status),
      stream: new OperationPacer("stream", limits.stream),
    };
    byEndpoint.set(key, pacers);
  }
  return pacers;
}

/** Operations a program calls one at a time, each paced on its own: `/requests`, and the calls under `/openai/`. */
export type CallOperation = "requests" | "openai";

const callRegistry = new WeakMap<Transport, Map<string, OperationPacer>>();

/**
 * The pacer of one of an endpoint's single-call operations on a client, at the platform's row
 * (`/requests` 10 per 10 s and 2 at once; `/openai/*` 2000 per 10 s and 400 at once): every call
 * the client makes to that endpoint and operation shares it, as the platform counts them. An
 * `override` (an account whose limit the platform raised, or the dynamic rule's running workers x
 * `requests_per_worker`) paces separately, as batches with overrides do.
 */
export function callPacer(
  owner: Transport,
  endpointId: string,
  op: CallOperation,
  override?: RateLimitOverride,
): OperationPacer {
  let byKey = callRegistry.get(owner);
  if (!byKey) {
    byKey = new Map();
    callRegistry.set(owner, byKey);
  }
  const limit = pacerLimit(op, override);
  const key = `${endpointId}\u0000${op}\u0000${JSON.stringify(limit)}`;
  let pacer = byKey.get(key);
  if (!pacer) {
    pacer = new OperationPacer(op, limit);
    byKey.set(key, pacer);
  }
  return pacer;
}
