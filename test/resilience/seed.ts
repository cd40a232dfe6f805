import { deriveSeed, freshSeed, isSeed, seededRandom } from "../../sdk/seeded-random";

/**
 * One seed drives every random choice of a resilience run: the emulator's faults, the
 * provider's retry jitter, the kill points and the fuzzers each draw from their own stream derived
 * from it. `RESILIENCE_SEED=N` replays a run; without it each run takes a fresh seed. The seed is
 * printed when a test file starts and is part of every failure message.
 */

/** The run's seed: `RESILIENCE_SEED`, or a fresh one. A malformed value is an error, not ignored. */
export function resilienceSeed(): number {
  const raw = process.env.RESILIENCE_SEED;
  if (raw === undefined || raw === "") return freshSeed();
  const seed = Number(raw);
  if (!isSeed(seed)) throw new Error(`RESILIENCE_SEED=${raw}: must be a whole number between 0 and 2147483647`);
  return seed;
}

/** The streams of one run, each its own generator (a component drawing more never shifts another's). */
export interface SeedStreams {
  seed: number;
  /** Seed for `startEmulator({ seed })`. */
  emulator: number;
  /** Seed for the provider's retry jitter (`RUNPOD_RETRY_SEED` of the engine runs). */
  retries: number;
  /** Seed for fast-check (`fc.assert(..., { seed })`). */
  fuzz: number;
  /** Kill points and other choices of the test itself. */
  random: () => number;
}

/** Derives the streams of `seed` for one scenario (`label` keeps scenarios of one run apart). */
export function seedStreams(seed: number, label: string): SeedStreams {
  return {
    seed,
    emulator: deriveSeed(seed, `${label}/emulator`),
    retries: deriveSeed(seed, `${label}/retries`),
    fuzz: deriveSeed(seed, `${label}/fuzz`),
    random: seededRandom(deriveSeed(seed, `${label}/kills`)),
  };
}

/** Prints the seed at the start of a test file, with how to replay it. */
export function announceSeed(file: string, seed: number): void {
  console.log(`${file}: seed=${seed} (replay: RESILIENCE_SEED=${seed} npx vitest run test/resilience/${file}.test.ts)`);
}

/** A failure message that names the seed, so any failing run can be replayed. */
export function withSeed(seed: number, message: string): string {
  return `[seed=${seed}; replay with RESILIENCE_SEED=${seed}] ${message}`;
}
