import { describe, expect, it } from "vitest";
import type { NetworkVolumeProps } from "../../../policy/resource-types";
import {
  checkVolumeSize,
  VOLUME_SIZE_CAP_POLICY,
  VolumeSizeCapSettingsSchema,
  volumeSizeCapPolicy,
} from "../../../policy/volume-size-cap";
import { runPolicies } from "./engine-harness";

const platformRule = "must be a whole number of GB between 0 and 4000 (platform limit on management API v1)";
const v2Rule = "must be a whole number of GB between 10 and 4096 (platform limit on management API v2)";
/** A stack on management API v1, whose volumes are 0 to 4000 GB. */
const check = (props: NetworkVolumeProps, config = {}, stackName?: string, tags: Record<string, string> = {}) =>
  checkVolumeSize("models", props, config, {
    stackName,
    stackTags: new Map(Object.entries(tags)),
    apiVersion: "v1",
  });

describe("volume size cap: the platform's range on the stack's management API version", () => {
  const onV2 = (size: number) => checkVolumeSize("models", { size }, {}, { stackName: "dev", stackTags: new Map() });

  it("is 10 to 4096 GB on v2, the default", () => {
    expect(onV2(10)).toEqual([]);
    expect(onV2(4096)).toEqual([]);
    expect(onV2(9)).toEqual([`NetworkVolume "models": size = 9: ${v2Rule}`]);
    expect(onV2(4097)).toEqual([`NetworkVolume "models": size = 4097: ${v2Rule}`]);
  });

  it("lets a cap reach the larger maximum of the two versions", () => {
    expect(VolumeSizeCapSettingsSchema.safeParse({ maxSizeGb: 4096 }).success).toBe(true);
    expect(VolumeSizeCapSettingsSchema.safeParse({ maxSizeGb: 4097 }).success).toBe(false);
  });
});

describe("volume size cap: one volume", () => {
  it.each([0, 1, 4000])("accepts %s GB within the platform's bounds", (size) => {
    expect(check({ size })).toEqual([]);
  });

  it.each([
    [-1, "-1"],
    [4001, "4001"],
    [10.5, "10.5"],
    [undefined, "undefined"],
    ["100", '"100"'],
  ])("rejects size %s", (size, shown) => {
    expect(check({ size } as NetworkVolumeProps)).toEqual([`NetworkVolume "models": size = ${shown}: ${platformRule}`]);
  });

  it("accepts a size at the cap and rejects one above it", () => {
    expect(check({ size: 500 }, { maxSizeGb: 500 })).toEqual([]);
    expect(check({ size: 501 }, { maxSizeGb: 500 })).toEqual([
      'NetworkVolume "models": size = 501: exceeds the cap of 500 GB per volume (maxSizeGb); network volumes cannot shrink',
    ]);
  });

  it("takes the cap of a matching stack override and names it", () => {
    const config = { maxSizeGb: 500, byStack: { "dev*": { maxSizeGb: 50 } } };
    expect(check({ size: 100 }, config, "prod")).toEqual([]);
    expect(check({ size: 100 }, config, "dev-1")).toEqual([
      'NetworkVolume "models": size = 100: exceeds the cap of 50 GB per volume (maxSizeGb from byStack "dev*" for stack "dev-1"); network volumes cannot shrink',
    ]);
  });

  it("takes the cap of a matching tag override, which applies after the stack-name patterns", () => {
    const config = {
      maxSizeGb: 500,
      byStack: { "dev*": { maxSizeGb: 50 } },
      byStackTag: { "env=stag*": { maxSizeGb: 200 } },
    };
    expect(check({ size: 300 }, config, "prod", { env: "staging" })).toEqual([
      'NetworkVolume "models": size = 300: exceeds the cap of 200 GB per volume (maxSizeGb from byStackTag "env=stag*"); network volumes cannot shrink',
    ]);
    expect(check({ size: 100 }, config, "dev-1", { env: "staging" })).toEqual([]);
    expect(check({ size: 300 }, config, "prod", { env: "production" })).toEqual([]);
  });

  it("is mandatory by default and checks only network volumes", async () => {
    const result = await runPolicies([volumeSizeCapPolicy], {
      resources: [
        { type: "NetworkVolume", name: "big", props: { size: 5000 } },
        { type: "ServerlessEndpoint", name: "api", props: { size: 5000 } },
      ],
    });
    expect(result.mandatory).toEqual([
      { policy: VOLUME_SIZE_CAP_POLICY, message: `NetworkVolume "big": size = 5000: ${v2Rule}` },
    ]);
  });
});
