import { afterAll, beforeAll, describe, it } from "vitest";
import { type BackendKind, openStateBackend, type StateBackend } from "../backends/state-backend";
import { PASSPHRASE_IN_NAMES } from "./engine-harness";
import {
  closeStages,
  destroyFleet,
  killDuringCreate,
  killDuringDestroy,
  killDuringReplace,
  killDuringUpdate,
  openStages,
  type StageContext,
} from "./kill-stages";
import { announceSeed, resilienceSeed } from "./seed";
import { twoRunnersAtOnce } from "./two-runners";

/**
 * A team's stack on a shared backend (docs/teams.md). On one backend of `kind` (a private PostgreSQL
 * cluster or S3 server) and one stack of one volume and one endpoint: two runners at once, then a
 * runner SIGKILLed during updates (its lock made another machine's, so `--force-unlock` is
 * needed), replacements, destroy and creates, each followed by `runpod-iac recover --run`, with
 * state equal to the platform, zero orphans, zero duplicates and a second `up` that changes
 * nothing after each. The same stages as `npm run soak` runs on files (kills.test.ts runs the
 * broken-sidecar one there).
 * The stack is `dev` of project `team-backend-app` with passphrase `team` (`PASSPHRASE_IN_NAMES`):
 * every recovery reads names holding the passphrase from the engine, and must print none of it.
 */
const COUNT = 1;

/** Declares the scenarios on a fresh backend of `kind`. */
export function describeTeamScenarios(kind: BackendKind): void {
  const seed = resilienceSeed();
  const label = `backend-${kind}`;
  let backend: StateBackend;
  let ctx: StageContext;
  const figures: string[] = [];

  describe(
    `a team's stack on a ${kind} backend (passphrase "team", project "team-backend-app"): two runners at once, runners killed at every step`,
    { timeout: 600_000 },
    () => {
      beforeAll(async () => {
        announceSeed(label, seed);
        backend = await openStateBackend(kind);
        ctx = await openStages(seed, label, COUNT, backend, PASSPHRASE_IN_NAMES);
        // A server's start and a stack's set-up: minutes on a busy 2-core machine.
      }, 300_000);
      afterAll(async () => {
        console.log(`resilience/${label}: seed=${seed} ${figures.join("; ")}`);
        await closeStages(ctx);
        await backend?.close();
      });

      it("two runners on one stack at once: exactly one lands, the other is refused by the lock, nothing is lost", async () => {
        figures.push(await twoRunnersAtOnce(ctx));
      });

      it("a kill during updates, its lock another machine's: recover names the lock and goes on only with --force-unlock", async () => {
        figures.push(await killDuringUpdate(ctx, { foreignLock: true }));
      });

      it("a kill during replacements leaves no orphan and no duplicate after recover", async () => {
        figures.push(await killDuringReplace(ctx));
      });

      it("a kill during destroy, then recover --run destroy, leaves nothing", async () => {
        figures.push(await killDuringDestroy(ctx));
      });

      it("a kill during creates: recover adopts every lost create, and destroy leaves nothing", async () => {
        figures.push(await killDuringCreate(ctx));
        await destroyFleet(ctx);
      });
    },
  );
}
