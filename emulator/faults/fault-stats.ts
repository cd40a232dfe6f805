// The counters apart from the injector: they are part of the emulator's public types (the store's
// stats), and the injector's declarations import fastify's, which a program compiled without
// esModuleInterop cannot type-check (test/package/ compiles such programs).

/** Counters of injected faults (shown by `GET /_emulator/stats`). */
export interface FaultStats {
  latency: number;
  error: number;
  rateLimit: number;
  /** Requests answered 403 (`forbiddenRate`). */
  forbidden: number;
  drop: number;
  /** Requests handled (their effect kept) whose answer was then withheld by destroying the connection. */
  lostResponse: number;
  /** Requests handled whose answer was then held back for `holdResponseMs` (counted when the hold starts). */
  heldResponse: number;
}

/** A new set of zeroed fault counters. */
export function emptyFaultStats(): FaultStats {
  return { latency: 0, error: 0, rateLimit: 0, forbidden: 0, drop: 0, lostResponse: 0, heldResponse: 0 };
}
