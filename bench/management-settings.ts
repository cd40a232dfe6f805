/** Sizes of the management benchmark (management API v2's rate limits). */
export interface ManagementBenchSettings {
  /** Part (a): calls per alternative and round, concurrency, rounds (a multiple of 6 balances the order of three). */
  dialectCalls: number;
  dialectConcurrency: number;
  dialectRounds: number;
  /** Part (b): calls of one burst, its concurrent callers, the quota (`q` per `windowSeconds`). */
  burstCalls: number;
  burstCallers: number;
  burstQuota: number;
  burstWindowSeconds: number;
  /** Paced bursts, each on a fresh account; one unpaced burst runs after the first, for comparison. */
  burstRounds: number;
}

/**
 * 5,000 `get`s per alternative and round at concurrency 16, twelve rounds (on a shared machine six
 * left the median ratio to the noise: per-round ratios from 0.47x to 1.77x); three paced bursts
 * of 1,000 calls.
 */
export const MANAGEMENT_FULL: ManagementBenchSettings = {
  dialectCalls: 5_000,
  dialectConcurrency: 16,
  dialectRounds: 12,
  burstCalls: 1_000,
  burstCallers: 8,
  burstQuota: 50,
  burstWindowSeconds: 1,
  burstRounds: 3,
};
/** `--quick`: a tenth of the calls, one round of each. */
export const MANAGEMENT_QUICK: ManagementBenchSettings = {
  ...MANAGEMENT_FULL,
  dialectCalls: 500,
  dialectRounds: 1,
  burstCalls: 200,
  burstRounds: 1,
};

/** A quota that never binds: the answers carry the headers, which the client parses, at no wait. */
export const UNBINDING_QUOTA = "minute=999999999,hour=999999999,day=999999999";
