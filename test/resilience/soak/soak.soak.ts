import { describe, expect, it } from "vitest";
import {
  closeStages,
  createFleet,
  destroyFleet,
  killDuringDestroy,
  killDuringReplace,
  killDuringUpdate,
  killWithBrokenCheckpoint,
  openStages,
  type StageContext,
} from "../kill-stages";

/**
 * `npm run soak` (not part of `npm test`): the resilience scenarios once per seed, over many
 * seeds: a fleet created under the seeded fault mix, then kills during updates, replacements,
 * destroy and creates with an emptied checkpoint sidecar, each recovered with `runpod-iac
 * recover`. Prints one line per seed and the failure rate with the failing seeds; replay one
 * with `npm run soak -- --seeds 1 --first <seed>`. Settings come from soak.mjs (SOAK_*).
 */
const SEEDS = Number(process.env.SOAK_SEEDS ?? 10);
const FIRST = Number(process.env.SOAK_FIRST ?? 1);
const JOBS = Math.max(1, Number(process.env.SOAK_JOBS ?? 1));
/** One volume and one endpoint: every scenario still runs, at a fraction of the engine time. */
const COUNT = 1;

/** Runs every scenario for one seed; resolves to the figures, or throws the failure (which names the seed). */
async function soakOne(seed: number): Promise<string> {
  let ctx: StageContext | undefined;
  try {
    ctx = await openStages(seed, `soak-${seed}`, COUNT);
    const figures = [await createFleet(ctx, true)];
    figures.push(await killDuringUpdate(ctx));
    figures.push(await killDuringReplace(ctx));
    figures.push(await killDuringDestroy(ctx));
    figures.push(await killWithBrokenCheckpoint(ctx));
    await destroyFleet(ctx);
    return figures.join("; ");
  } finally {
    await closeStages(ctx);
  }
}

describe("soak: the resilience scenarios over many seeds", () => {
  it("recovers from every kill and fault for every seed", { timeout: 0 }, async () => {
    const started = Date.now();
    const failed: { seed: number; error: string }[] = [];
    let done = 0;
    const queue = Array.from({ length: SEEDS }, (_, i) => FIRST + i);
    console.log(`soak: ${SEEDS} seeds from ${FIRST}, ${JOBS} at a time`);
    const worker = async () => {
      for (let seed = queue.shift(); seed !== undefined; seed = queue.shift()) {
        const t0 = Date.now();
        const outcome = await soakOne(seed).then(
          (figures) => `ok ${figures}`,
          (error: Error) => {
            failed.push({ seed, error: error.message });
            return `FAILED ${error.message.split("\n")[0]}`;
          },
        );
        done++;
        console.log(`soak: [${done}/${SEEDS}] seed=${seed} ${Math.round((Date.now() - t0) / 1000)}s ${outcome}`);
      }
    };
    await Promise.all(Array.from({ length: JOBS }, worker));
    const rate = ((100 * failed.length) / SEEDS).toFixed(1);
    const minutes = ((Date.now() - started) / 60_000).toFixed(1);
    console.log(
      `soak: ${SEEDS} seeds, ${failed.length} failed (${rate}%) in ${minutes} min; failing seeds: ${
        failed.map((f) => f.seed).join(", ") || "none"
      }`,
    );
    expect(failed, failed.map((f) => f.error).join("\n\n")).toEqual([]);
  });
});
