import type { QuotaWindow, RunningEmulator } from "../emulator";

/** One window's count as the emulator holds it: the window's start (platform ms) and the calls counted in it. */
export interface WindowCount {
  start: number;
  count: number;
}

/** Where an account stands in the quota at an instant: the platform time and its count in each window. */
export interface QuotaState {
  now: number;
  counts: readonly (WindowCount | undefined)[];
}

/**
 * The least time, from `state.now`, after which the last of `calls` calls can be admitted under
 * `windows`, each call sent at the earliest instant every window has one left: what the quota
 * alone costs an operation of that many calls (the calls' own time and everything else the
 * operation does are left out, so no client can beat it). The windows are fixed and aligned to
 * the platform clock's origin, and a call counts once in every window, as the emulator counts them
 * (emulator/limits/management-quota.ts); the account's counts at the start carry over.
 */
export function quotaFloorMs(calls: number, windows: readonly QuotaWindow[], state: QuotaState): number {
  const lengths = windows.map((w) => w.seconds * 1000);
  const startOf = (i: number, t: number) => t - (t % lengths[i]!);
  let t = state.now;
  const counts = windows.map((_, i) => {
    const held = state.counts[i];
    return held && held.start === startOf(i, t) ? { ...held } : { start: startOf(i, t), count: 0 };
  });
  for (let sent = 0; sent < calls; sent++) {
    for (;;) {
      let openAt = t;
      windows.forEach((w, i) => {
        const start = startOf(i, t);
        if (counts[i]!.start !== start) counts[i] = { start, count: 0 };
        if (counts[i]!.count >= w.quota) openAt = Math.max(openAt, start + lengths[i]!);
      });
      if (openAt === t) break;
      t = openAt;
    }
    for (const c of counts) c.count++;
  }
  return t - state.now;
}

/**
 * Reads an account's quota state in an emulator that runs in this process (its store and clock:
 * the admin routes do not show the quota's counts), without a request, so the reading costs no call.
 */
export function quotaStateReader(emulator: RunningEmulator, apiKey: string): () => QuotaState {
  return () => {
    const account = emulator.store.accountForKey(apiKey);
    const counts = (account?.quotaCounts ?? []).map((c) => ({ ...c }));
    return { now: emulator.clock.now(), counts };
  };
}
