import type { EmulatorClock } from "./clock/clock";
import type { FaultRule } from "./faults/fault-rules";
import type { RateLimitSettings } from "./limits/rate-limiter";

/** The API key accepted when none is configured (documented; use your own outside local tests). */
export const DEFAULT_API_KEY = "emulator-key";
/** Default listening port of the CLI and of `startEmulator`. */
export const DEFAULT_PORT = 8787;
/** Default listening address: loopback only (DESIGN.md). */
export const DEFAULT_HOST = "127.0.0.1";

/** Options of `startEmulator` (the CLI flags map onto them one to one). */
export interface EmulatorOptions {
  /** Address to listen on. Default `127.0.0.1`. */
  host?: string;
  /** Port to listen on; 0 picks a free one. Default 8787. */
  port?: number;
  /** Accepted bearer keys, each its own account. Default `["emulator-key"]`. */
  apiKeys?: readonly string[];
  /** Persist volumes and endpoints here (atomic writes); jobs are not persisted. Default: none. */
  stateFile?: string;
  /** Directory of handler files `NAME.js` / `NAME.mjs` adding templates `NAME`. */
  handlersDir?: string;
  /** One real ms counts as this many platform ms; 0 means a manual clock. Default 1. Ignored with `clock`. */
  timeScale?: number;
  /** A clock to use instead, e.g. `new ManualClock()` for deterministic tests. */
  clock?: EmulatorClock;
  /** Rate limits of the spec: `false` turns them off; an object tunes them. Default on, as in the spec. */
  rateLimits?: boolean | Partial<RateLimitSettings>;
  /** Fault rules every account starts with (runtime changes go through `/_emulator/faults`). */
  faults?: readonly FaultRule[];
  /** Log every request (fastify logger). Default false. */
  log?: boolean;
  /** Base URL the emulator advertises in `image_url` (default: the URL it listens on). */
  publicUrl?: string;
  /** Real-time limit of one webhook call, in ms. Default 10000. */
  webhookTimeoutMs?: number;
}
