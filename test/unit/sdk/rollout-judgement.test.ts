import { describe, expect, it } from "vitest";
import { judgeRollout, progressLine, UNHEALTHY_POLLS_TO_FAIL } from "../../../sdk/rollout/rollout-judgement";
import type { RolloutSnapshot } from "../../../sdk/rollout/rollout-snapshot";

const snap = (over: Partial<RolloutSnapshot>): RolloutSnapshot => ({
  version: 3,
  total: 0,
  ready: 0,
  starting: 0,
  unhealthy: [],
  stale: 0,
  ...over,
});

describe("judgeRollout: when an endpoint serves its new configuration", () => {
  it.each([
    ["no worker, workersMin 0: done at once", snap({}), 0, "done"],
    ["no worker yet, workersMin 1: waiting", snap({}), 1, "waiting"],
    ["one started of one wanted", snap({ total: 1, ready: 1 }), 1, "done"],
    ["a worker still on the older configuration", snap({ total: 2, ready: 1, stale: 1 }), 1, "waiting"],
    ["workersMin 0 but a new worker still starting", snap({ total: 1, starting: 1 }), 0, "waiting"],
    ["two wanted, one started, one starting", snap({ total: 2, ready: 1, starting: 1 }), 2, "waiting"],
    ["one unhealthy beside one started: served", snap({ total: 2, ready: 1, unhealthy: ["w2"] }), 1, "done"],
  ] as const)("%s", (_what, s, workersMin, state) => {
    expect(judgeRollout(s, workersMin, 0).state).toBe(state);
  });

  it(`fails only after ${UNHEALTHY_POLLS_TO_FAIL} polls with every new worker unhealthy, naming how many`, () => {
    const one = snap({ total: 1, unhealthy: ["w1"] });
    expect(judgeRollout(one, 1, UNHEALTHY_POLLS_TO_FAIL - 1).state).toBe("waiting");
    expect(judgeRollout(one, 1, UNHEALTHY_POLLS_TO_FAIL)).toEqual({
      state: "failed",
      reason: "its one worker of the new configuration cannot start",
    });
    const two = snap({ total: 3, unhealthy: ["a", "b"], stale: 1 });
    expect(judgeRollout(two, 2, UNHEALTHY_POLLS_TO_FAIL)).toEqual({
      state: "failed",
      reason: "all 2 workers of the new configuration cannot start",
    });
    // One still starting: not clear yet.
    expect(judgeRollout(snap({ total: 2, unhealthy: ["a"], starting: 1 }), 1, 10).state).toBe("waiting");
  });

  it("says the progress in one line", () => {
    expect(progressLine(snap({ total: 3, ready: 1, starting: 1, stale: 1 }), 2)).toBe(
      "rolling out configuration version 3: 1 of 2 worker(s) serving it (1 starting, 1 still on an older configuration)",
    );
    expect(progressLine(snap({ version: undefined, total: 1, unhealthy: ["w"] }), 1)).toBe(
      "rolling out the new configuration: 0 of 1 worker(s) serving it (1 unable to start)",
    );
  });
});
