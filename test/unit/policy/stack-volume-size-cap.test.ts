import { describe, expect, it } from "vitest";
import {
  checkStackVolumeSize,
  STACK_VOLUME_SIZE_CAP_POLICY,
  stackVolumeSizeCapPolicy,
} from "../../../policy/stack-volume-size-cap";
import { runPolicies } from "./engine-harness";

describe("volume size cap: whole stack", () => {
  const volumes = [
    { name: "a", props: { size: 300 } },
    { name: "b", props: { size: 700 } },
  ];

  it("does not apply without a cap", () => {
    expect(checkStackVolumeSize(volumes)).toEqual([]);
  });

  it("accepts a total equal to the cap and rejects one above it", () => {
    expect(checkStackVolumeSize(volumes, { maxTotalSizeGb: 1000 })).toEqual([]);
    expect(checkStackVolumeSize(volumes, { maxTotalSizeGb: 999 })).toEqual([
      'Stack: size summed over 2 network volumes = 1000 GB ("b" 700 GB, "a" 300 GB): exceeds the cap of 999 GB per stack (maxTotalSizeGb)',
    ]);
  });

  it("leaves out sizes that are not whole numbers", () => {
    const withBad = [...volumes, { name: "bad", props: { size: 10.5 } }, { name: "none", props: {} }];
    expect(checkStackVolumeSize(withBad, { maxTotalSizeGb: 1000 })).toEqual([]);
  });

  it("takes the cap of a matching stack override", () => {
    const config = { maxTotalSizeGb: 5000, byStack: { "dev*": { maxTotalSizeGb: 100 } } };
    expect(checkStackVolumeSize(volumes, config, { stackName: "dev", stackTags: new Map() })).toEqual([
      'Stack "dev": size summed over 2 network volumes = 1000 GB ("b" 700 GB, "a" 300 GB): exceeds the cap of 100 GB per stack (maxTotalSizeGb from byStack "dev*" for stack "dev")',
    ]);
  });

  it("is advisory by default, sums only volumes, and is not applicable without a cap", async () => {
    const resources = [
      { type: "NetworkVolume" as const, name: "a", props: { size: 600 } },
      { type: "ServerlessEndpoint" as const, name: "api", props: { size: 600 } },
    ];
    const capped = await runPolicies([stackVolumeSizeCapPolicy], {
      resources,
      stack: "prod",
      config: { [STACK_VOLUME_SIZE_CAP_POLICY]: { maxTotalSizeGb: 500 } },
    });
    expect(capped.advisory).toEqual([
      {
        policy: STACK_VOLUME_SIZE_CAP_POLICY,
        message:
          'Stack "prod": size summed over 1 network volume = 600 GB ("a" 600 GB): exceeds the cap of 500 GB per stack (maxTotalSizeGb)',
      },
    ]);
    const uncapped = await runPolicies([stackVolumeSizeCapPolicy], { resources });
    expect(uncapped.notApplicable).toEqual([
      `${STACK_VOLUME_SIZE_CAP_POLICY}: no cap (maxTotalSizeGb) is configured for this stack`,
    ]);
  });
});
