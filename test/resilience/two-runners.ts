import { accountCounters } from "./inventory";
import { setFaults } from "./kill-window";
import { must, mustBeNoOp, mustMatchPlatform, type StageContext, UP } from "./kill-stages";

/**
 * Two CI runners starting `pulumi up` of one stack at once: the backend's lock lets
 * exactly one through. Runner A's management requests are slowed (1.5 s each), so it is surely
 * mid-run, holding the lock it takes before its program starts, when runner B starts; B must be
 * refused by that lock, naming A's pid, and change nothing; A must land, with state equal to the
 * platform and nothing lost.
 *
 * Why not start both in the same millisecond: the DIY backends' lock is write, then list, then
 * back off if any other lock is there (pkg/backend/diy/lock.go), so two runs that write their
 * locks in the same instant can both back off, and neither lands; nothing is lost then either,
 * and the next run goes through. That race is the engine's, and docs/teams.md says how CI avoids
 * it (one concurrency group per stack); this test proves the lock itself.
 */

/** How long runner A's requests take, so B surely starts while A holds the lock. */
const SLOW_MS = 1_500;
/** The longest wait for A's first request (a busy machine starts `pulumi` slowly). */
const START_MS = 240_000;

/** Runs the two runners on the stage's stack (creating its fleet); resolves to the figures line. */
export async function twoRunnersAtOnce(ctx: StageContext): Promise<string> {
  const management = new URL(ctx.emulator.apiUrl).pathname;
  await setFaults(ctx.emulator, ctx.key, [{ route: management, latencyMs: SLOW_MS }]);
  const before = accountCounters(ctx.emulator, ctx.key).requests;
  const a = ctx.e.spawnCli(UP);
  let aOutput = "";
  a.stdout?.on("data", (d) => (aOutput += d));
  a.stderr?.on("data", (d) => (aOutput += d));
  const aExit = new Promise<number>((resolve) => a.once("exit", (code) => resolve(code ?? 1)));
  const deadline = Date.now() + START_MS;
  while (accountCounters(ctx.emulator, ctx.key).requests === before && a.exitCode === null && Date.now() < deadline) {
    await new Promise((r) => setTimeout(r, 20));
  }
  must(ctx, a.exitCode === null, "two runners: runner A ended before it sent a request", aOutput);
  const b = await ctx.e.cli(UP);
  // B has been answered: A need not be slow any longer.
  await setFaults(ctx.emulator, ctx.key, []);
  const aCode = await aExit;
  const refusal = new RegExp(`the stack is currently locked by 1 lock\\(s\\)[\\s\\S]*\\(pid ${a.pid}\\)`);
  must(
    ctx,
    b.code !== 0 && refusal.test(b.stderr),
    "two runners: runner B should be refused by runner A's lock, naming A's pid",
    `${b.stdout}\n${b.stderr}`,
  );
  must(ctx, aCode === 0, `two runners: runner A failed (exit ${aCode})`, aOutput);
  ctx.log.push(`two runners: B refused by A's lock (pid ${a.pid}), A landed`);
  await mustMatchPlatform(ctx, "two runners", 2 * ctx.count);
  await mustBeNoOp(ctx, "two runners");
  return "two runners: one landed, one refused by the lock";
}
