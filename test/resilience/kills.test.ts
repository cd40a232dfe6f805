import { afterAll, beforeAll, describe, it } from "vitest";
import { PASSPHRASE_IN_NAMES } from "./engine-harness";
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
} from "./kill-stages";
import { announceSeed, resilienceSeed } from "./seed";

/**
 * Kills at every step, not only create, each followed by `runpod-iac recover` (the
 * runbook of docs/reliability.md). The stages run in order on one stack of 3 volumes and 3
 * endpoints; the seed picks each kill point (RESILIENCE_SEED replays a run). The stack is `dev` of
 * project `team-backend-app` with passphrase `team`: what `recover` reads from the engine holds the
 * passphrase, and what it prints must not.
 */
const SEED = resilienceSeed();
let ctx: StageContext;
const figures: string[] = [];

beforeAll(async () => {
  announceSeed("kills", SEED);
  ctx = await openStages(SEED, "kills", 3, undefined, PASSPHRASE_IN_NAMES);
  figures.push(await createFleet(ctx, false));
});
afterAll(async () => {
  console.log(`resilience/kills: seed=${SEED} ${figures.join("; ")}`);
  await closeStages(ctx);
});

describe(
  "pulumi killed with SIGKILL at every step, then recovered with runpod-iac recover",
  { timeout: 600_000 },
  () => {
    it("a kill during updates, its lock another machine's, is recovered with --force-unlock: state equal to the platform and a second up that changes nothing", async () => {
      figures.push(await killDuringUpdate(ctx, { foreignLock: true }));
    });

    it("a kill during replacements (after the new was created, or after the old was deleted) leaves no orphan and no duplicate", async () => {
      figures.push(await killDuringReplace(ctx));
    });

    it("a kill during destroy, then recover --run destroy, leaves nothing on the platform and nothing in state", async () => {
      figures.push(await killDuringDestroy(ctx));
    });

    it("a kill during creates that leaves the checkpoint's sidecar empty is repaired, and every lost create adopted", async () => {
      figures.push(await killWithBrokenCheckpoint(ctx));
      await destroyFleet(ctx);
    });
  },
);
