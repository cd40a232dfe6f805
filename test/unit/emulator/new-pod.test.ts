import { describe, expect, it } from "vitest";
import { POD_DEFAULTS } from "../../../sdk/schemas";
import { cpuPodPricePerHour, gpuPodPricePerHour } from "../../../emulator/billing/prices";
import { PlatformCatalog } from "../../../emulator/platform/platform-catalog";
import { type NewPod, newPodRecord } from "../../../emulator/pods/new-pod";
import { PodRecordSchema } from "../../../emulator/pods/pod-record";

const catalog = new PlatformCatalog();
const gpu = catalog.gpuTypes()[0]!;
const flavor = catalog.cpuFlavors()[0]!;
const NOW = Date.UTC(2026, 5, 1, 12, 0, 0);

/** The fields every new pod must be given: everything else is left to the builder. */
const minimal = (over: Partial<NewPod> = {}): NewPod => ({
  id: "pod-1",
  name: "trainer",
  imageName: "runpod/pytorch:2.8",
  env: { A: "1" },
  ports: ["8888/http"],
  volumeInGb: 20,
  cudaVersion: "12.8",
  placement: { dataCenterId: "EU-RO-1", gpuTypeId: gpu.id, gpuCount: 2 },
  ...over,
});

describe("newPodRecord, the one builder of pod records (pods and cluster members)", () => {
  it("fills what a create leaves out from POD_DEFAULTS", () => {
    const pod = newPodRecord(minimal(), NOW, catalog);
    expect(pod).toMatchObject({
      containerDiskInGb: POD_DEFAULTS.containerDiskInGb,
      volumeMountPath: POD_DEFAULTS.volumeMountPath,
      cloudType: POD_DEFAULTS.cloudType,
      interruptible: POD_DEFAULTS.interruptible,
      locked: POD_DEFAULTS.locked,
      globalNetworking: POD_DEFAULTS.globalNetworking,
      dockerEntrypoint: [],
      dockerStartCmd: [],
    });
  });

  it("keeps every field it is given over the defaults", () => {
    const given = minimal({
      containerDiskInGb: 80,
      volumeMountPath: "/data",
      dockerEntrypoint: ["bash"],
      dockerStartCmd: ["-c", "sleep infinity"],
      cloudType: "COMMUNITY",
      interruptible: true,
      locked: true,
      globalNetworking: true,
    });
    const { id: _id, placement: _placement, ...fields } = given;
    expect(newPodRecord(given, NOW, catalog)).toMatchObject(fields);
  });

  it("creates the pod RUNNING since now, its disk never wiped, with no log lines", () => {
    const pod = newPodRecord(minimal(), NOW, catalog);
    expect(pod).toMatchObject({ status: "RUNNING", createdAt: NOW, startedAt: NOW, containerDiskWipes: 0, logs: [] });
    expect(pod.lastStatusChange).toBe("Rented by User: 2026-06-01T12:00:00.000Z");
  });

  it("prices the pod from the catalog: its GPUs at its cloud's price, or its vCPUs, halved when interruptible", () => {
    const secure = newPodRecord(minimal(), NOW, catalog);
    expect(secure.costPerHr).toBe(gpuPodPricePerHour(gpu.price, 2, "SECURE", false));
    expect(secure.costPerHr).toBeGreaterThan(0);
    const spot = newPodRecord(minimal({ interruptible: true }), NOW, catalog);
    expect(spot.costPerHr).toBeLessThan(secure.costPerHr);
    const cpu = newPodRecord(
      minimal({ cudaVersion: null, placement: { dataCenterId: "EU-RO-1", cpuFlavorId: flavor.id, vcpuCount: 4 } }),
      NOW,
      catalog,
    );
    expect(cpu.costPerHr).toBe(cpuPodPricePerHour(flavor.price.securePerVcpu, 4, false));
  });

  it("writes the optional links only when they are given, never as keys holding undefined", () => {
    const bare = newPodRecord(minimal(), NOW, catalog);
    for (const key of ["networkVolumeId", "containerRegistryAuthId", "templateId", "clusterId", "clusterRank"]) {
      expect(Object.keys(bare)).not.toContain(key);
    }
    const linked = newPodRecord(
      minimal({
        networkVolumeId: "vol-1",
        containerRegistryAuthId: "cra-1",
        templateId: "tpl-1",
        clusterId: "c-1",
        clusterRank: 0,
      }),
      NOW,
      catalog,
    );
    expect(linked).toMatchObject({
      networkVolumeId: "vol-1",
      containerRegistryAuthId: "cra-1",
      templateId: "tpl-1",
      clusterId: "c-1",
      clusterRank: 0,
    });
  });

  it("builds a record the pods collection accepts", () => {
    const pod = newPodRecord(minimal({ clusterId: "c-1", clusterRank: 1 }), NOW, catalog);
    expect(PodRecordSchema.parse(pod)).toEqual(pod);
  });
});
