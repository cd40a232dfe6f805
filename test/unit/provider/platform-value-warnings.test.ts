import { describe, expect, it } from "vitest";
import { platformValueWarnings } from "../../../provider/platform-value-warnings";

const NEWER = "it may be newer than this release of runpod-iac, and the platform decides at `pulumi up`";

describe("warnings about values this release does not know", () => {
  it("names the field, the value and the list, for a GPU type newer than this release", () => {
    expect(platformValueWarnings("ServerlessEndpoint", { gpuTypeIds: ["NVIDIA L4", "NVIDIA B300"] })).toEqual([
      `gpuTypeIds[1] = "NVIDIA B300": is not in this release's list of GPU types; ${NEWER}`,
    ]);
  });

  it("suggests the known value a case or whitespace variant stands for", () => {
    expect(
      platformValueWarnings("ServerlessEndpoint", { gpuTypeIds: ["nvidia l4"], dataCenterIds: ["EU-RO-1 "] }),
    ).toEqual([
      `gpuTypeIds[0] = "nvidia l4": is not in this release's list of GPU types (did you mean "NVIDIA L4"?); ${NEWER}`,
      `dataCenterIds[0] = "EU-RO-1 ": is not in this release's list of data centers (did you mean "EU-RO-1"?); ${NEWER}`,
    ]);
  });

  it("covers CUDA versions, CPU flavors and a volume's data center", () => {
    expect(
      platformValueWarnings("ServerlessEndpoint", {
        allowedCudaVersions: ["12.4", "13.1"],
        minCudaVersion: "13.1",
        cpuFlavorIds: ["cpu7c"],
      }),
    ).toEqual([
      `allowedCudaVersions[1] = "13.1": is not in this release's list of CUDA versions; ${NEWER}`,
      `minCudaVersion = "13.1": is not in this release's list of CUDA versions; ${NEWER}`,
      `cpuFlavorIds[0] = "cpu7c": is not in this release's list of CPU flavors; ${NEWER}`,
    ]);
    expect(platformValueWarnings("NetworkVolume", { dataCenterId: "AP-SG-1" })).toEqual([
      `dataCenterId = "AP-SG-1": is not in this release's list of data centers; ${NEWER}`,
    ]);
  });

  it("names a repeated GPU type, which check lets through for the policy pack's remediation", () => {
    expect(
      platformValueWarnings("ServerlessEndpoint", { gpuTypeIds: ["NVIDIA L4", "NVIDIA A40", "NVIDIA L4"] }),
    ).toEqual([
      'gpuTypeIds = ["NVIDIA L4","NVIDIA A40","NVIDIA L4"]: lists "NVIDIA L4" more than once; the platform uses the first occurrence (the policy pack\'s runpod-gpu-priority-list refuses repeats, or removes them at enforcement level remediate)',
    ]);
  });

  it("says nothing about known values", () => {
    expect(
      platformValueWarnings("ServerlessEndpoint", {
        gpuTypeIds: ["NVIDIA L4", "NVIDIA A40"],
        dataCenterIds: ["EU-RO-1"],
        allowedCudaVersions: ["12.4"],
      }),
    ).toEqual([]);
  });

  it("never shows a secret value, nor a suggestion derived from it", () => {
    const warnings = platformValueWarnings(
      "ServerlessEndpoint",
      { gpuTypeIds: ["nvidia l4", "nvidia l4"] },
      new Set(["gpuTypeIds"]),
    );
    expect(warnings).toHaveLength(3);
    for (const w of warnings) expect(w).not.toMatch(/nvidia l4|NVIDIA L4/);
    expect(warnings[0]).toMatch(/^gpuTypeIds\[0\] = \[secret\]: /);
  });
});
