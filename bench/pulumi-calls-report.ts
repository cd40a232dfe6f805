import type { Alternative, LifecycleTimes, Operation } from "./pulumi-bench";
import type { Table, TargetCheck } from "./report";
import { format, median, medianIntervalNote, perRoundRatios, shownRatio } from "./stats";

/*
 * Benchmark 3's management calls per operation, and its targets on them: a refresh within 1.1x
 * the no-op (one list per resource type, so it costs almost nothing, with or without the quota),
 * and, under v2's default quota, `up` and `destroy` within 1.1x the least time the quota allows
 * their calls.
 */

const OPERATIONS: Operation[] = ["up", "preview", "refresh", "destroy"];
/** A refresh of ours within this ratio to the no-op's: at 100 resources without a quota, and at every size under it. */
export const REFRESH_TARGET = 1.1;
/** `up` and `destroy` under the quota within this ratio to their floor. */
export const QUOTA_FLOOR_TARGET = 1.1;

const wall = (alt: Alternative, op: Operation) => alt.samples.map((t: LifecycleTimes) => t[op]);

/** The most calls any round of `alt` made in `op`, or NaN when none was counted. */
function mostCalls(alt: Alternative, op: Operation): number {
  const counted = alt.samples.map((t) => t.calls?.[op]).filter((n): n is number => n !== undefined && !Number.isNaN(n));
  return counted.length ? Math.max(...counted) : Number.NaN;
}

/** The calls per operation of each runpod alternative; under the quota, the floors of `up` and `destroy` and the 429s. */
export function callsTable(alternatives: readonly Alternative[]): Table {
  const rows = alternatives
    .filter((alt) => alt.latencyMs !== undefined)
    .map((alt) => {
      const floors = (op: Operation) =>
        alt.quota ? format.seconds(median(alt.samples.map((t) => t.quotaFloorMs?.[op] ?? Number.NaN))) : "-";
      const refused = alt.samples.reduce(
        (sum, t) => sum + OPERATIONS.reduce((n, op) => n + (t.refused?.[op] || 0), 0),
        0,
      );
      return [
        `${alt.size}`,
        alt.name,
        ...OPERATIONS.map((op) => format.int(mostCalls(alt, op))),
        floors("up"),
        floors("destroy"),
        alt.quota ? format.int(refused) : "-",
      ];
    });
  return {
    title: "Management API calls per operation (the most of any round), and the quota's floor (median)",
    columns: ["resources", "stack", "up", "preview", "refresh", "destroy", "floor up", "floor destroy", "429s"],
    textColumns: 2,
    rows,
  };
}

/** `refresh` of `alt` within {@link REFRESH_TARGET} of the baseline, with its calls. */
export function refreshTarget(size: number, alt: Alternative, baseline: Alternative, why: string): TargetCheck {
  const perRound = perRoundRatios(wall(alt, "refresh"), wall(baseline, "refresh"));
  const ratio = median(perRound);
  const under = alt.quota ? " under the default v2 quota" : " at 0 ms";
  return {
    benchmark: `pulumi (${size})`,
    target: `refresh${under} <= ${REFRESH_TARGET}x baseline`,
    measured: `${format.ratio(ratio)}${medianIntervalNote(perRound)}, ${format.int(mostCalls(alt, "refresh"))} calls`,
    met: shownRatio(ratio) <= REFRESH_TARGET,
    whyMissed: why,
  };
}

/**
 * `op` under the quota within {@link QUOTA_FLOOR_TARGET} of its floor: the longer of the quota's
 * floor for the calls it made and the no-op baseline's time in the same round (what the engine
 * takes for that many resources with no calls at all), per round.
 */
export function quotaFloorTarget(size: number, alt: Alternative, baseline: Alternative, op: Operation): TargetCheck {
  const perRound = alt.samples.map((t, i) => t[op] / Math.max(t.quotaFloorMs?.[op] ?? 0, baseline.samples[i]![op]));
  const ratio = median(perRound);
  const floors = alt.samples.map((t) => t.quotaFloorMs?.[op] ?? Number.NaN);
  return {
    benchmark: `pulumi (${size})`,
    target: `${op} under the default v2 quota <= ${QUOTA_FLOOR_TARGET}x its floor`,
    measured: `${format.ratio(ratio)}${medianIntervalNote(perRound)} of max(quota floor ${format.seconds(median(floors))} for ${format.int(mostCalls(alt, op))} calls, no-op ${format.seconds(median(wall(baseline, op)))})`,
    met: shownRatio(ratio) <= QUOTA_FLOOR_TARGET,
    whyMissed: QUOTA_MISS,
  };
}

/** Shown when a refresh is over its target. */
export const REFRESH_MISS =
  "a refresh of ours reads each resource type with one list (the calls column; by id only what a list does not hold), so its calls are a few whatever the size, and what is left is the provider process's CPU per read (module loading, zod parsing of the lists, building the outputs) against the no-op's, and the size of the state the engine rewrites per step. " +
  "What would close it: a CPU profile of the provider process during refresh (`--cpu-prof` through NODE_OPTIONS), and less state per resource.";
/** Shown when a refresh under the quota is over its target. */
export const QUOTA_REFRESH_MISS =
  "under the quota, a refresh is paced only when its few list calls meet a window spent by the operation before it (the calls column, and the 429s): the client then waits for the window to reopen. " +
  "What would close it: fewer calls in the operation before it (an unchanged preview makes none), or starting the refresh in a fresh window.";
/** Shown when `up` or `destroy` under the quota is over its floor. */
const QUOTA_MISS =
  "the floor is the least time the quota allows the operation's calls from where the account stood at its start, or the no-op's time when that is longer; time over it is the client waiting longer than the window requires (its pacing reads `RateLimit` after each answer, so calls already in flight when a window fills get a 429 and wait for the next), or the engine's own time on top of the last window. " +
  "What would close it: fewer calls (the calls column: one per resource plus a few per type is the least), or pacing that sends a window's last calls as it opens.";
