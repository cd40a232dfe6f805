/** Backoff schedule for polling: starts small, doubles, caps; `reset()` after progress. */
export function pollDelays(options?: { initialIntervalMs?: number | undefined; maxIntervalMs?: number | undefined }) {
  const initial = options?.initialIntervalMs ?? 200;
  const max = options?.maxIntervalMs ?? 5_000;
  let next = initial;
  return {
    next(): number {
      const d = next;
      next = Math.min(max, next * 2);
      return d;
    },
    reset(): void {
      next = initial;
    },
  };
}

/** Sleeps `ms`; resolves false (early) if the signal aborts. */
export function sleepUnlessAborted(ms: number, signal?: AbortSignal): Promise<boolean> {
  return new Promise((resolve) => {
    if (signal?.aborted) return resolve(false);
    const onAbort = () => {
      clearTimeout(timer);
      resolve(false);
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener("abort", onAbort);
      resolve(true);
    }, ms);
    signal?.addEventListener("abort", onAbort, { once: true });
  });
}
