/**
 * Seeded randomness, so that every random choice of a test run (faults, kill points, retry
 * jitter, fuzzing) can be replayed from one printed number (docs/reliability.md, "Seeds and replay"). Not for anything secret.
 */

/** The largest seed: seeds are whole numbers in [0, 2^31). */
export const MAX_SEED = 2 ** 31 - 1;

/** A fresh seed in [0, 2^31), for runs that were not given one (print it so the run can be replayed). */
export function freshSeed(): number {
  return Math.floor(Math.random() * MAX_SEED);
}

/** Whether `value` is a usable seed: a whole number in [0, 2^31). */
export function isSeed(value: unknown): value is number {
  return typeof value === "number" && Number.isInteger(value) && value >= 0 && value <= MAX_SEED;
}

/**
 * A generator of numbers uniform in [0, 1) that replays the same sequence for the same seed
 * (mulberry32: tiny, fast, and good enough for picking faults and delays).
 */
export function seededRandom(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 2 ** 32;
  };
}

/**
 * The seed of one component's own stream, derived from a run's seed and the component's name
 * (e.g. `"faults"`, `"kills"`, an account id). Components draw from separate streams, so one
 * drawing more numbers (a retry more) does not shift the choices of the others.
 */
export function deriveSeed(seed: number, label: string): number {
  // FNV-1a over the label, mixed with the seed, then one round of a 32-bit finalizer.
  let h = 0x811c9dc5 ^ (seed >>> 0);
  for (let i = 0; i < label.length; i++) h = Math.imul(h ^ label.charCodeAt(i), 0x01000193);
  h = Math.imul(h ^ (h >>> 16), 0x85ebca6b);
  h = Math.imul(h ^ (h >>> 13), 0xc2b2ae35);
  return (h ^ (h >>> 16)) & MAX_SEED;
}
