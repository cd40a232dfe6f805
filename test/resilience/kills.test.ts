import { afterAll, beforeAll, describe, it } from "vitest";
import { PASSPHRASE_IN_NAMES } from "./engine-harness";
import { closeStages, destroyFleet, killWithBrokenCheckpoint, openStages, type StageContext } from "./kill-stages";
import { announceSeed, resilienceSeed } from "./seed";

/**
 * A kill during creates on the file backend (users' default), with the checkpoint's `.attrs`
 * sidecar then emptied as a kill between its truncate and its write leaves it, followed by
 * `runpod-iac recover` (the runbook of docs/reliability.md), on a new stack of 3 volumes and 3
 * endpoints; the seed picks the kill point (RESILIENCE_SEED replays a run). The stack is `dev` of
 * project `team-backend-app` with passphrase `team`: what `recover` reads from the engine holds the
 * passphrase, and what it prints must not.
 *
 * The other kill stages (during updates with another machine's lock, replacements, destroy and
 * plain creates) run in the suite on PostgreSQL and S3 (shared-backend-scenarios.ts), and all of
 * them on files, over many seeds, in `npm run soak` (soak/soak.soak.ts): the same stages on a
 * third backend cost three minutes of CI on 2 cores and found nothing the others do not.
 */
const SEED = resilienceSeed();
let ctx: StageContext;
const figures: string[] = [];

beforeAll(async () => {
  announceSeed("kills", SEED);
  ctx = await openStages(SEED, "kills", 3, undefined, PASSPHRASE_IN_NAMES);
});
afterAll(async () => {
  console.log(`resilience/kills: seed=${SEED} ${figures.join("; ")}`);
  await closeStages(ctx);
});

describe("pulumi killed with SIGKILL, then recovered with runpod-iac recover", { timeout: 600_000 }, () => {
  it("a kill during creates that leaves the checkpoint's sidecar empty is repaired, and every lost create adopted", async () => {
    figures.push(await killWithBrokenCheckpoint(ctx));
    await destroyFleet(ctx);
  });
});
