import { describe, expect, it } from "vitest";
import { runpodPolicies } from "../../../policy/index";
import { checkKnownPlatformValues, KNOWN_PLATFORM_VALUES_POLICY } from "../../../policy/known-platform-values";
import { runPolicies } from "./engine-harness";

const endpoint = (props: Record<string, unknown>, config = {}) =>
  checkKnownPlatformValues("ServerlessEndpoint", "api", props, config);
const volume = (props: Record<string, unknown>, config = {}) =>
  checkKnownPlatformValues("NetworkVolume", "models", props, config);

describe("known platform values: data centers, CUDA versions, CPU flavors", () => {
  it("accepts the values of this release's lists", () => {
    expect(
      endpoint({
        dataCenterIds: ["EU-RO-1", "US-TX-3"],
        allowedCudaVersions: ["12.4", "13.0"],
        minCudaVersion: "12.1",
      }),
    ).toEqual([]);
    expect(endpoint({ computeType: "CPU", cpuFlavorIds: ["cpu3c", "cpu5g"] })).toEqual([]);
    expect(volume({ dataCenterId: "EU-RO-1" })).toEqual([]);
  });

  it("refuses each unknown value by name, saying which setting admits it", () => {
    expect(
      endpoint({
        dataCenterIds: ["EU-RO-1", "AP-SG-1"],
        allowedCudaVersions: ["13.1"],
        minCudaVersion: "13.1",
        cpuFlavorIds: ["cpu7c"],
      }),
    ).toEqual([
      'ServerlessEndpoint "api": dataCenterIds[1] = "AP-SG-1": is not a data center the platform knows (if the platform added it, list it in additionalDataCenterIds)',
      'ServerlessEndpoint "api": allowedCudaVersions[0] = "13.1": is not a CUDA version the platform knows (if the platform added it, list it in additionalCudaVersions)',
      'ServerlessEndpoint "api": minCudaVersion = "13.1": is not a CUDA version the platform knows (if the platform added it, list it in additionalCudaVersions)',
      'ServerlessEndpoint "api": cpuFlavorIds[0] = "cpu7c": is not a CPU flavor the platform knows (if the platform added it, list it in additionalCpuFlavorIds)',
    ]);
    expect(volume({ dataCenterId: "AP-SG-1" })).toEqual([
      'NetworkVolume "models": dataCenterId = "AP-SG-1": is not a data center the platform knows (if the platform added it, list it in additionalDataCenterIds)',
    ]);
  });

  it("accepts values the team listed", () => {
    const config = {
      additionalDataCenterIds: ["AP-SG-1"],
      additionalCudaVersions: ["13.1"],
      additionalCpuFlavorIds: ["cpu7c"],
    };
    expect(
      endpoint(
        { dataCenterIds: ["AP-SG-1"], allowedCudaVersions: ["13.1"], minCudaVersion: "13.1", cpuFlavorIds: ["cpu7c"] },
        config,
      ),
    ).toEqual([]);
    expect(volume({ dataCenterId: "AP-SG-1" }, config)).toEqual([]);
  });

  it("suggests the known value a case or whitespace variant stands for", () => {
    expect(volume({ dataCenterId: "eu-ro-1" })).toEqual([
      'NetworkVolume "models": dataCenterId = "eu-ro-1": is not a data center the platform knows (did you mean "EU-RO-1"?) (if the platform added it, list it in additionalDataCenterIds)',
    ]);
  });

  it("leaves GPU types to runpod-gpu-priority-list and malformed values to the provider's check", () => {
    expect(endpoint({ gpuTypeIds: ["NVIDIA B300"], dataCenterIds: [42], minCudaVersion: 12 })).toEqual([]);
  });

  it("runs on both endpoints and volumes in the pack, as one set of settings", async () => {
    const result = await runPolicies(runpodPolicies, {
      resources: [
        {
          type: "ServerlessEndpoint",
          name: "api",
          props: { templateId: "echo", gpuTypeIds: ["NVIDIA L4"], dataCenterIds: ["AP-SG-1"] },
        },
        { type: "NetworkVolume", name: "models", props: { name: "m", size: 10, dataCenterId: "AP-SG-1" } },
      ],
    });
    expect(result.mandatory.filter((v) => v.policy === KNOWN_PLATFORM_VALUES_POLICY).map((v) => v.message)).toEqual([
      'ServerlessEndpoint "api": dataCenterIds[0] = "AP-SG-1": is not a data center the platform knows (if the platform added it, list it in additionalDataCenterIds)',
      'NetworkVolume "models": dataCenterId = "AP-SG-1": is not a data center the platform knows (if the platform added it, list it in additionalDataCenterIds)',
    ]);
    const allowed = await runPolicies(runpodPolicies, {
      config: { [KNOWN_PLATFORM_VALUES_POLICY]: { additionalDataCenterIds: ["AP-SG-1"] } },
      resources: [
        {
          type: "ServerlessEndpoint",
          name: "api",
          props: { templateId: "echo", gpuTypeIds: ["NVIDIA L4"], dataCenterIds: ["AP-SG-1"] },
        },
        { type: "NetworkVolume", name: "models", props: { name: "m", size: 10, dataCenterId: "AP-SG-1" } },
      ],
    });
    expect(allowed.mandatory).toEqual([]);
  });
});
