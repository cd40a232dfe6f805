import { describe, expect, it } from "vitest";
import { type FleetOptions, fleetFigures, runFleet } from "./fleet/run-fleet";
import { announceSeed, resilienceSeed, withSeed } from "./seed";

/**
 * A small fleet on one account in every `npm test` (`npm run fleet` runs the full one,
 * 4 environments x 5 regions with 4 runners): 2 environments x 2 regions, one volume and one
 * endpoint each, 2 runners, one file backend shared by the four stacks, the emulator's rate
 * limits on and 10% of management requests answered 429 (about 17 requests in `up`, so a seed
 * may draw no 429 at all: the figures line says how many; the full run meets dozens).
 */
const SEED = resilienceSeed();
const OPTIONS: FleetOptions = {
  environments: ["dev", "prod"],
  regions: ["EU-RO-1", "US-TX-3"],
  runners: 2,
  perStack: 1,
  seed: SEED,
  backend: "file",
};

describe("a fleet of stacks on one account under rate limits and 10% 429s", { timeout: 900_000 }, () => {
  it("converges every stack in one run, no stack touching another's resources, and destroys to nothing", async () => {
    announceSeed("fleet", SEED);
    const result = await runFleet(OPTIONS);
    console.log(`resilience/${fleetFigures(result, OPTIONS)}`);
    const failures = [...result.up.failed, ...result.destroy.failed].map((f) => `${f.stack}:\n${f.output}`);
    expect(failures, withSeed(SEED, "runs that failed")).toEqual([]);
    expect(result.problems, withSeed(SEED, "state against the platform")).toEqual([]);
    expect(result.crossStack, withSeed(SEED, "requests naming another stack's resources")).toEqual([]);
    expect(result.resources).toBe(4 * 2);
    expect(result.leftAfterDestroy, withSeed(SEED, "left after destroy")).toBe(0);
  });
});
