import { describe, expect, it } from "vitest";
import type { BackendKind } from "../../backends/state-backend";
import { withSeed } from "../seed";
import { type FleetOptions, fleetFigures, runFleet } from "./run-fleet";

/**
 * `npm run fleet` (not part of `npm test`): the full fleet (docs/teams.md), one project with a stack
 * per environment and region (4 x 5 by default) on one account, updated by parallel runners
 * under the emulator's rate limits and 10% 429s. Settings come from fleet.mjs (FLEET_*); prints
 * one line of figures (`fleet: ...`), which docs/teams.md quotes.
 */
const ENVIRONMENTS = ["dev", "staging", "qa", "prod"];
const REGIONS = ["EU-RO-1", "US-TX-3", "EU-SE-1", "CA-MTL-1", "US-IL-1"];
const env = (name: string, fallback: number) => Number(process.env[name] ?? fallback);
const OPTIONS: FleetOptions = {
  environments: ENVIRONMENTS.slice(0, env("FLEET_ENVIRONMENTS", 4)),
  regions: REGIONS.slice(0, env("FLEET_REGIONS", 5)),
  runners: env("FLEET_RUNNERS", 4),
  perStack: env("FLEET_PER_STACK", 2),
  seed: env("FLEET_SEED", 1),
  backend: (process.env.FLEET_BACKEND ?? "file") as BackendKind,
};

describe("the fleet", { timeout: 3_600_000 }, () => {
  it("converges every stack in one run, no stack touching another's resources, and destroys to nothing", async () => {
    console.log(`fleet: seed=${OPTIONS.seed} (replay: npm run fleet -- --seed ${OPTIONS.seed})`);
    const result = await runFleet(OPTIONS);
    console.log(fleetFigures(result, OPTIONS));
    const failures = [...result.up.failed, ...result.destroy.failed].map((f) => `${f.stack}:\n${f.output}`);
    expect(failures, withSeed(OPTIONS.seed, "runs that failed")).toEqual([]);
    expect(result.problems).toEqual([]);
    expect(result.crossStack).toEqual([]);
    expect(result.resources).toBe(OPTIONS.environments.length * OPTIONS.regions.length * 2 * OPTIONS.perStack);
    expect(result.leftAfterDestroy).toBe(0);
  });
});
