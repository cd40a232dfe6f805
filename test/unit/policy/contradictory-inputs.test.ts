import { describe, expect, it } from "vitest";
import {
  CONTRADICTORY_INPUTS_POLICY,
  checkContradictoryInputs,
  contradictoryInputsPolicy,
  CPU_ONLY_FIELDS,
  GPU_ONLY_FIELDS,
} from "../../../policy/contradictory-inputs";
import type { ServerlessEndpointProps } from "../../../policy/resource-types";
import { UNKNOWN } from "../../../policy/unknown-values";
import { EndpointCreateInputSchema } from "../../../sdk/schemas";
import { runPolicies } from "./engine-harness";

const check = (props: ServerlessEndpointProps, config = {}) => checkContradictoryInputs("api", props, config);
const ONE_FIELD = "set only one: networkVolumeId for one volume, networkVolumeIds for a multi-region endpoint";

describe("contradictory inputs: network volume fields", () => {
  it("refuses networkVolumeId together with networkVolumeIds", () => {
    expect(check({ networkVolumeId: "a", networkVolumeIds: ["b", "c"] })).toEqual([
      `ServerlessEndpoint "api": networkVolumeIds = ["b","c"]: is set together with networkVolumeId = "a"; ${ONE_FIELD}`,
    ]);
  });

  it("counts values unknown during preview as set, and shows them as unknown", () => {
    expect(check({ networkVolumeId: UNKNOWN, networkVolumeIds: [UNKNOWN] })).toEqual([
      `ServerlessEndpoint "api": networkVolumeIds = ["<unknown until pulumi up>"]: is set together with networkVolumeId = <unknown until pulumi up>; ${ONE_FIELD}`,
    ]);
  });

  it("accepts either field alone, and an empty list beside the single id", () => {
    expect(check({ networkVolumeId: "a" })).toEqual([]);
    expect(check({ networkVolumeIds: ["a", "b"] })).toEqual([]);
    expect(check({ networkVolumeId: "a", networkVolumeIds: [] })).toEqual([]);
  });

  it("is refused even with allowIgnoredFields", () => {
    expect(check({ networkVolumeId: "a", networkVolumeIds: ["b"] }, { allowIgnoredFields: true })).toHaveLength(1);
  });
});

describe("contradictory inputs: fields of the other compute type", () => {
  it("refuses each GPU field on a CPU endpoint", () => {
    const props: ServerlessEndpointProps = {
      computeType: "CPU",
      gpuTypeIds: ["NVIDIA L4"],
      gpuCount: 2,
      allowedCudaVersions: ["12.4"],
      minCudaVersion: "12.1",
    };
    expect(check(props)).toEqual(
      [
        ["gpuTypeIds", '["NVIDIA L4"]'],
        ["gpuCount", "2"],
        ["allowedCudaVersions", '["12.4"]'],
        ["minCudaVersion", '"12.1"'],
      ].map(
        ([field, value]) =>
          `ServerlessEndpoint "api": ${field} = ${value}: is a GPU setting on a CPU endpoint (computeType = "CPU"), which the platform ignores; remove it, or set computeType to "GPU"`,
      ),
    );
  });

  it("refuses CPU fields on an endpoint left at the default GPU, saying it is the default", () => {
    expect(check({ gpuTypeIds: ["NVIDIA L4"], cpuFlavorIds: ["cpu3c"], vcpuCount: 4 })).toEqual([
      'ServerlessEndpoint "api": cpuFlavorIds = ["cpu3c"]: is a CPU setting on a GPU endpoint (computeType = unset (platform default "GPU")), which the platform ignores; remove it, or set computeType to "CPU"',
      'ServerlessEndpoint "api": vcpuCount = 4: is a CPU setting on a GPU endpoint (computeType = unset (platform default "GPU")), which the platform ignores; remove it, or set computeType to "CPU"',
    ]);
  });

  it("accepts the fields of the endpoint's own compute type, and empty lists of the other", () => {
    expect(check({ computeType: "CPU", cpuFlavorIds: ["cpu3c"], vcpuCount: 4, gpuTypeIds: [] })).toEqual([]);
    expect(check({ computeType: "GPU", gpuTypeIds: ["NVIDIA L4"], gpuCount: 2, minCudaVersion: "12.4" })).toEqual([]);
  });

  it("accepts fields of the other compute type with allowIgnoredFields, per stack too", () => {
    const props: ServerlessEndpointProps = { computeType: "CPU", gpuTypeIds: ["NVIDIA L4"] };
    expect(check(props, { allowIgnoredFields: true })).toEqual([]);
    const config = { byStackTag: { shared: { allowIgnoredFields: true } } };
    const tagged = { stackName: "x", stackTags: new Map([["shared", "yes"]]) };
    expect(checkContradictoryInputs("api", props, config, tagged)).toEqual([]);
    expect(checkContradictoryInputs("api", props, config)).toHaveLength(1);
  });

  it("names only fields the platform knows, and every field specific to one compute type", () => {
    const fields = Object.keys(EndpointCreateInputSchema.shape);
    for (const field of [...GPU_ONLY_FIELDS, ...CPU_ONLY_FIELDS]) expect(fields).toContain(field);
  });
});

describe("contradictory inputs under the engine", () => {
  it("is mandatory by default and reads present-but-unknown values without failing", async () => {
    expect(contradictoryInputsPolicy.enforcementLevel).toBe("mandatory");
    const result = await runPolicies([contradictoryInputsPolicy], {
      resources: [
        { type: "ServerlessEndpoint", name: "api", props: { networkVolumeId: UNKNOWN, dataCenterIds: ["EU-RO-1"] } },
        { type: "ServerlessEndpoint", name: "both", props: { networkVolumeId: UNKNOWN, networkVolumeIds: ["v"] } },
      ],
    });
    expect(result.advisory).toEqual([]);
    expect(result.mandatory).toEqual([
      {
        policy: CONTRADICTORY_INPUTS_POLICY,
        message: `ServerlessEndpoint "both": networkVolumeIds = ["v"]: is set together with networkVolumeId = <unknown until pulumi up>; ${ONE_FIELD}`,
      },
    ]);
  });
});
