import type { FastifyInstance } from "fastify";
import { deriveSeed, seededRandom } from "../../sdk/seeded-random";
import { type Scheduler, Timer } from "../clock/scheduler";
import type { PodAccount } from "./pod-account";
import { stopPod } from "./pod-lifecycle";
import { isInterruptible, type PodRecord } from "./pod-record";

/*
 * Preemption of interruptible pods: the platform may stop an interruptible pod at any
 * time to give its GPUs to someone else. The emulator does it on request
 * (`POST /_emulator/pods/{id}/preempt`) and, with a preemption rate, by chance: once a platform
 * minute each running interruptible pod is preempted with the probability that makes `rate` the
 * chance of being preempted within a platform hour. The draws come from the account's own seeded
 * stream (`seed` and the account, as the fault injector's), so a seed replays the same preemptions.
 */

/** The preemption settings (`preemptionRate` option, `--preemption-rate` flag). */
export interface PreemptionSettings {
  /** Chance, per platform hour, that a running interruptible pod is preempted (0 to 1). Default 0. */
  ratePerHour: number;
  /** The emulator's seed: each account draws from its own stream of it. */
  seed: number;
}

/** How often the chance is drawn, in platform ms. */
export const PREEMPTION_TICK_MS = 60_000;

/** The chance per tick that gives `ratePerHour` per hour: 1 - (1 - rate)^(tick / hour). */
export function chancePerTick(ratePerHour: number, tickMs = PREEMPTION_TICK_MS): number {
  if (ratePerHour >= 1) return 1;
  return 1 - (1 - ratePerHour) ** (tickMs / 3_600_000);
}

/** Preempts a running interruptible pod: EXITED, its GPUs back to the stock once written. */
export function preempt(account: PodAccount, pod: PodRecord): Promise<void> {
  stopPod(account, pod, "preempted");
  return account.pods.put(pod);
}

/**
 * Preemption by chance, with a rate: once the server is ready, a platform-minute tick draws for
 * every running interruptible pod of every account. The admin route that preempts on request is
 * `api/admin/preemption-routes.ts`.
 */
export function schedulePreemption(
  app: FastifyInstance,
  scheduler: Scheduler,
  accounts: () => Iterable<PodAccount>,
  settings: PreemptionSettings | undefined,
): void {
  if (!settings || settings.ratePerHour <= 0) return;
  const chance = chancePerTick(settings.ratePerHour);
  const streams = new Map<string, () => number>();
  const stream = (account: PodAccount) => {
    let random = streams.get(account.userId);
    if (!random)
      streams.set(account.userId, (random = seededRandom(deriveSeed(settings.seed, `${account.userId}/preemption`))));
    return random;
  };
  const tick = new Timer(() => {
    for (const account of accounts()) {
      for (const pod of account.pods.values()) {
        if (isInterruptible(pod) && pod.status === "RUNNING" && stream(account)() < chance) {
          preempt(account, pod).catch(() => undefined);
        }
      }
    }
    scheduler.after(tick, PREEMPTION_TICK_MS);
  });
  app.addHook("onReady", async () => scheduler.after(tick, PREEMPTION_TICK_MS));
}
