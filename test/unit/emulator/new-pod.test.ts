import { describe, expect, it } from "vitest";
import { POD_DEFAULTS } from "../../../sdk/schemas";
import { cpuPodPricePerHour, gpuPodPricePerHour } from "../../../emulator/billing/prices";
import { PlatformCatalog } from "../../../emulator/platform/platform-catalog";
import { type NewPod, newPodRecord } from "../../../emulator/pods/new-pod";
import { EMULATED_MACHINE, PodRecordSchema } from "../../../emulator/pods/pod-record";

const catalog = new PlatformCatalog();
const gpu = catalog.gpuTypes()[0]!;
const flavor = catalog.cpuFlavors()[0]!;
const NOW = Date.UTC(2026, 5, 1, 12, 0, 0);

/** The fields every new pod must be given: everything else is left to the builder. */
const minimal = (over: Partial<NewPod> = {}): NewPod => ({
  id: "pod-1",
  name: "trainer",
  image: "runpod/pytorch:2.8",
  env: { A: "1" },
  ports: ["8888/http"],
  mounts: { persistent: { size: 20, path: "/workspace" } },
  cudaVersion: "12.8",
  dataCenterId: "EU-RO-1",
  gpu: { id: gpu.id, count: 2 },
  ...over,
});

describe("newPodRecord, the one builder of pod records (pods and cluster members)", () => {
  it("fills what a create leaves out from POD_DEFAULTS", () => {
    const pod = newPodRecord(minimal(), NOW, catalog);
    expect(pod).toMatchObject({
      disk: POD_DEFAULTS.containerDiskInGb,
      cloud: POD_DEFAULTS.cloudType,
      locked: POD_DEFAULTS.locked,
      globalNetworking: { enabled: POD_DEFAULTS.globalNetworking },
      args: "",
      registry: null,
      template: null,
    });
    // Nothing only v1 says: not interruptible, no entrypoint override.
    expect(pod.v1).toBeUndefined();
  });

  it("keeps every field it is given over the defaults", () => {
    const given = minimal({
      disk: 80,
      mounts: { network: [{ volumeId: "vol-1", path: "/data" }] },
      args: '-c "sleep infinity"',
      cloud: "COMMUNITY",
      locked: true,
      registry: "cra-1",
      template: "tpl-1",
      v1: { dockerEntrypoint: ["bash"], interruptible: true },
    });
    const { id: _id, gpu: _gpu, globalNetworking: _off, ...fields } = given;
    expect(newPodRecord(given, NOW, catalog)).toMatchObject(fields);
    expect(newPodRecord(minimal({ globalNetworking: true }), NOW, catalog).globalNetworking).toEqual({ enabled: true });
  });

  it("creates the pod RUNNING since now, its disk never wiped, with no log lines", () => {
    const pod = newPodRecord(minimal(), NOW, catalog);
    expect(pod).toMatchObject({ status: "RUNNING", createdAt: NOW, startedAt: NOW, containerDiskWipes: 0, logs: [] });
    expect(pod.lastStatusChange).toBe("Rented by User: 2026-06-01T12:00:00.000Z");
  });

  it("prices the pod from the catalog: its GPUs at its cloud's price, or its vCPUs, halved when interruptible", () => {
    const secure = newPodRecord(minimal(), NOW, catalog);
    expect(secure.pricePerHour).toBe(gpuPodPricePerHour(gpu.price, 2, "SECURE", false));
    expect(secure.pricePerHour).toBeGreaterThan(0);
    const spot = newPodRecord(minimal({ v1: { interruptible: true } }), NOW, catalog);
    expect(spot.pricePerHour).toBeLessThan(secure.pricePerHour);
    const cpu = newPodRecord(
      minimal({ cudaVersion: null, gpu: undefined, cpu: { id: flavor.id, vcpuCount: 4 } }),
      NOW,
      catalog,
    );
    expect(cpu.pricePerHour).toBe(cpuPodPricePerHour(flavor.price.securePerVcpu, 4, false));
  });

  it("allocates a GPU pod its machine's vCPUs and RAM per GPU, a CPU pod its flavor's RAM per vCPU", () => {
    expect(newPodRecord(minimal(), NOW, catalog).gpu).toEqual({
      id: gpu.id,
      count: 2,
      vcpuCount: 2 * EMULATED_MACHINE.vcpusPerGpu,
      memory: 2 * EMULATED_MACHINE.ramGbPerGpu,
    });
    const large = newPodRecord(minimal({ machine: "large" }), NOW, catalog);
    expect(large.gpu).toMatchObject({ vcpuCount: 32, memory: 250 });
    const cpu = newPodRecord(minimal({ gpu: undefined, cpu: { id: flavor.id, vcpuCount: 4 } }), NOW, catalog);
    expect(cpu.cpu).toEqual({ id: flavor.id, vcpuCount: 4, memory: 4 * flavor.ramGbPerVcpu });
    expect(cpu.gpu).toBeUndefined();
  });

  it("writes the optional parts only when they are given, never as keys holding undefined", () => {
    const bare = newPodRecord(minimal({ v1: {} }), NOW, catalog);
    for (const key of ["cluster", "cpu", "v1", "containerError"]) expect(Object.keys(bare)).not.toContain(key);
    const linked = newPodRecord(
      minimal({ registry: "cra-1", template: "tpl-1", cluster: { id: "c-1", rank: 0 } }),
      NOW,
      catalog,
    );
    expect(linked).toMatchObject({ registry: "cra-1", template: "tpl-1", cluster: { id: "c-1", rank: 0 } });
  });

  it("builds a record the pods collection accepts", () => {
    const pod = newPodRecord(minimal({ cluster: { id: "c-1", rank: 1 } }), NOW, catalog);
    expect(PodRecordSchema.parse(pod)).toEqual(pod);
  });
});
