import { describe, expect, it } from "vitest";
import { rolloutFailures, rolloutPlan } from "../../../provider/rollout-settings";
import { runStep } from "../../../provider/step-context";
import { UNKNOWN } from "../../../provider/property-values";

const reasons = (news: Record<string, unknown>, rolls?: boolean) => rolloutFailures(news, rolls).map((f) => f.reason);

describe("the rollout settings", () => {
  it("accept what makes sense, and values unknown at preview", () => {
    expect(reasons({})).toEqual([]);
    expect(reasons({ waitForRollout: true, rollbackOnFailure: false, rolloutTimeoutSeconds: 3600 })).toEqual([]);
    expect(reasons({ waitForRollout: false })).toEqual([]);
    expect(reasons({ rolloutTimeoutSeconds: UNKNOWN, waitForRollout: UNKNOWN })).toEqual([]);
  });

  it("refuse what does not, naming the field, the value and the rule", () => {
    expect(reasons({ rolloutTimeoutSeconds: 0 })).toEqual([
      "rolloutTimeoutSeconds = 0: must be a whole number of seconds from 1 to 86400",
    ]);
    expect(reasons({ rolloutTimeoutSeconds: 1.5 })).toHaveLength(1);
    expect(reasons({ rolloutTimeoutSeconds: 90_000 })).toHaveLength(1);
    expect(reasons({ waitForRollout: "yes" })).toEqual(['waitForRollout = "yes": must be true or false']);
    expect(reasons({ waitForRollout: false, rolloutTimeoutSeconds: 60 })).toEqual([
      "rolloutTimeoutSeconds = 60: needs waitForRollout (nothing waits with it false)",
    ]);
    expect(reasons({ rollbackOnFailure: true }, false)).toEqual([
      "rollbackOnFailure = true: a template with isServerless false runs no endpoint, so nothing rolls out or back",
    ]);
  });

  it("plan the wait: defaults, opting out, and the engine's timeout bounding the wait", () => {
    expect(rolloutPlan({})).toEqual({ wait: true, rollback: true, timeoutMs: 1_800_000, urn: undefined });
    expect(rolloutPlan({ waitForRollout: false })).toMatchObject({ wait: false, rollback: false });
    expect(rolloutPlan({ rollbackOnFailure: false, __urn: "urn:x" })).toMatchObject({ rollback: false, urn: "urn:x" });
    const bounded = runStep({ urn: "urn:y", timeoutSeconds: 120 }, () => rolloutPlan({ rolloutTimeoutSeconds: 600 }));
    expect(bounded).toEqual({ wait: true, rollback: true, timeoutMs: 120_000, urn: "urn:y" });
    expect(runStep({ timeoutSeconds: 0 }, () => rolloutPlan({ rolloutTimeoutSeconds: 600 })).timeoutMs).toBe(600_000);
  });
});
