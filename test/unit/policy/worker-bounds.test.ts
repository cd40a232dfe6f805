import { describe, expect, it } from "vitest";
import type { ServerlessEndpointProps } from "../../../policy/resource-types";
import { type StackContext, settingsForStack } from "../../../policy/stack-context";
import {
  checkWorkerBounds,
  WORKER_BOUNDS_POLICY,
  type WorkerBoundsConfig,
  type WorkerBoundsSettings,
  workerBoundsPolicy,
} from "../../../policy/worker-bounds";
import { runPolicies } from "./engine-harness";

const check = (props: ServerlessEndpointProps, config: WorkerBoundsConfig = {}, context?: StackContext) =>
  checkWorkerBounds("api", props, config, context);
const msg = (text: string) => `ServerlessEndpoint "api": ${text}`;
const stack = (stackName?: string, tags: Record<string, string> = {}): StackContext => ({
  stackName,
  stackTags: new Map(Object.entries(tags)),
});

describe("worker bounds: counts", () => {
  it("accepts the platform defaults when nothing is set", () => {
    expect(check({})).toEqual([]);
  });

  it("accepts workersMin equal to workersMax, including zero", () => {
    expect(check({ workersMin: 2, workersMax: 2 })).toEqual([]);
    expect(check({ workersMin: 0, workersMax: 0 })).toEqual([]);
  });

  it("rejects workersMin above workersMax", () => {
    expect(check({ workersMin: 3, workersMax: 2 })).toEqual([msg("workersMin = 3: must not exceed workersMax = 2")]);
  });

  it("compares with the platform default when workersMax is unset", () => {
    expect(check({ workersMin: 3 })).toEqual([]);
    expect(check({ workersMin: 4 })).toEqual([
      msg("workersMin = 4: must not exceed workersMax = unset (platform default 3)"),
    ]);
  });

  it.each([
    ["workersMin", -1, "-1"],
    ["workersMax", -1, "-1"],
    ["workersMax", 1.5, "1.5"],
    ["workersMin", "2", '"2"'],
  ] as const)("rejects %s = %s as not a whole number of at least 0", (field, value, shown) => {
    expect(check({ [field]: value } as ServerlessEndpointProps)).toEqual([
      msg(`${field} = ${shown}: must be a whole number of at least 0`),
    ]);
  });
});

describe("worker bounds: caps", () => {
  it("accepts values at the caps and rejects values above them", () => {
    const config = { workersMinCap: 1, workersMaxCap: 5 };
    expect(check({ workersMin: 1, workersMax: 5 }, config)).toEqual([]);
    expect(check({ workersMin: 2, workersMax: 6 }, config)).toEqual([
      msg("workersMin = 2: exceeds the cap of 1 (workersMinCap); minimum workers are billed even when idle"),
      msg("workersMax = 6: exceeds the cap of 5 (workersMaxCap)"),
    ]);
  });

  it("applies the caps to unset values through the platform defaults", () => {
    expect(check({}, { workersMaxCap: 2 })).toEqual([
      msg("workersMax = unset (platform default 3): exceeds the cap of 2 (workersMaxCap)"),
    ]);
    expect(check({}, { workersMaxCap: 3, workersMinCap: 0 })).toEqual([]);
  });

  it("skips caps for values that are not counts (they are reported as such)", () => {
    expect(check({ workersMax: -5 }, { workersMaxCap: 2 })).toEqual([
      msg("workersMax = -5: must be a whole number of at least 0"),
    ]);
  });
});

describe("worker bounds: per-stack caps", () => {
  const config: WorkerBoundsConfig = {
    workersMinCap: 2,
    workersMaxCap: 10,
    byStack: { "dev*": { workersMinCap: 0 }, "dev-big": { workersMaxCap: 20 } },
    byStackTag: { "tier=sandbox": { workersMaxCap: 1 }, "cost-center": { workersMinCap: 1 } },
  };

  it("uses the base caps on a stack no override matches", () => {
    expect(check({ workersMin: 2, workersMax: 10 }, config, stack("prod"))).toEqual([]);
    expect(check({ workersMin: 2, workersMax: 10 }, config)).toEqual([]);
  });

  it("uses the caps of a matching stack-name pattern and names it", () => {
    expect(check({ workersMin: 1 }, config, stack("dev-alice"))).toEqual([
      msg(
        'workersMin = 1: exceeds the cap of 0 (workersMinCap from byStack "dev*" for stack "dev-alice"); minimum workers are billed even when idle',
      ),
    ]);
  });

  it("applies every matching pattern in order, a later one replacing an earlier one's values only", () => {
    const limits = settingsForStack<WorkerBoundsSettings>(config, stack("dev-big"));
    expect(limits.values).toEqual({ workersMinCap: 0, workersMaxCap: 20 });
    expect(check({ workersMax: 20 }, config, stack("dev-big"))).toEqual([]);
  });

  it("uses the caps of matching stack tags, after the stack-name patterns", () => {
    expect(check({ workersMax: 2 }, config, stack("dev-x", { tier: "sandbox" }))).toEqual([
      msg('workersMax = 2: exceeds the cap of 1 (workersMaxCap from byStackTag "tier=sandbox")'),
    ]);
    expect(
      settingsForStack<WorkerBoundsSettings>(config, stack("dev-x", { "cost-center": "r&d" })).values.workersMinCap,
    ).toBe(1);
  });

  it("overrides idle timeout bounds per stack too", () => {
    const idle = { idleTimeoutMax: 600, byStack: { "dev*": { idleTimeoutMax: 30 } } };
    expect(check({ idleTimeout: 60 }, idle, stack("prod"))).toEqual([]);
    expect(check({ idleTimeout: 60 }, idle, stack("dev"))).toEqual([
      msg('idleTimeout = 60: must be at most 30 seconds (idleTimeoutMax from byStack "dev*" for stack "dev")'),
    ]);
  });
});

describe("worker bounds: idle timeout", () => {
  it.each([1, 5, 3600])("accepts %s seconds within the platform's bounds", (idleTimeout) => {
    expect(check({ idleTimeout })).toEqual([]);
  });

  it.each([0, 3601, -3])("rejects %s seconds outside the platform's bounds", (idleTimeout) => {
    expect(check({ idleTimeout })).toEqual([
      msg(`idleTimeout = ${idleTimeout}: must be between 1 and 3600 seconds (platform limit)`),
    ]);
  });

  it("rejects a fractional idle timeout", () => {
    expect(check({ idleTimeout: 2.5 })).toEqual([msg("idleTimeout = 2.5: must be a whole number of seconds")]);
  });

  it("applies the configured range on both sides", () => {
    const config = { idleTimeoutMin: 10, idleTimeoutMax: 300 };
    expect(check({ idleTimeout: 10 }, config)).toEqual([]);
    expect(check({ idleTimeout: 300 }, config)).toEqual([]);
    expect(check({ idleTimeout: 9 }, config)).toEqual([
      msg("idleTimeout = 9: must be at least 10 seconds (idleTimeoutMin)"),
    ]);
    expect(check({ idleTimeout: 301 }, config)).toEqual([
      msg("idleTimeout = 301: must be at most 300 seconds (idleTimeoutMax)"),
    ]);
  });

  it("checks the default of the stack's management API version when idleTimeout is unset, naming the version", () => {
    const v1: StackContext = { ...stack(), apiVersion: "v1" };
    expect(check({}, { idleTimeoutMin: 10 }, v1)).toEqual([
      msg(
        "idleTimeout = unset (platform default 5 on management API v1): must be at least 10 seconds (idleTimeoutMin)",
      ),
    ]);
    // v2, the default, idles 10 s.
    expect(check({}, { idleTimeoutMin: 10 })).toEqual([]);
    expect(check({}, { idleTimeoutMin: 11 }, { ...stack(), apiVersion: "v2" })).toEqual([
      msg(
        "idleTimeout = unset (platform default 10 on management API v2): must be at least 11 seconds (idleTimeoutMin)",
      ),
    ]);
  });
});

describe("worker bounds policy in the analyzer", () => {
  const endpoint = (props: Record<string, unknown>) => ({ type: "ServerlessEndpoint" as const, name: "api", props });

  it("is mandatory by default and checks CPU endpoints too", async () => {
    const result = await runPolicies([workerBoundsPolicy], {
      resources: [endpoint({ computeType: "CPU", workersMin: 4, workersMax: 1 })],
    });
    expect(result.mandatory).toEqual([
      { policy: WORKER_BOUNDS_POLICY, message: msg("workersMin = 4: must not exceed workersMax = 1") },
    ]);
  });

  it("reads the stack name the engine passes in PULUMI_STACK and the stack's tags", async () => {
    const config = {
      [WORKER_BOUNDS_POLICY]: { byStack: { "dev*": { workersMinCap: 0 } }, byStackTag: { env: { workersMaxCap: 1 } } },
    };
    const resources = [endpoint({ workersMin: 1, workersMax: 2 })];
    expect((await runPolicies([workerBoundsPolicy], { resources, config, stack: "prod" })).mandatory).toEqual([]);
    const dev = await runPolicies([workerBoundsPolicy], { resources, config, stack: "dev", stackTags: { env: "x" } });
    expect(dev.mandatory.map((v) => v.message)).toEqual([
      msg(
        'workersMin = 1: exceeds the cap of 0 (workersMinCap from byStack "dev*" for stack "dev"); minimum workers are billed even when idle',
      ),
      msg('workersMax = 2: exceeds the cap of 1 (workersMaxCap from byStackTag "env")'),
    ]);
  });

  it("does not check network volumes", async () => {
    const result = await runPolicies([workerBoundsPolicy], {
      resources: [{ type: "NetworkVolume", name: "v", props: { workersMin: 9, workersMax: 1 } }],
    });
    expect(result.mandatory).toEqual([]);
  });
});
