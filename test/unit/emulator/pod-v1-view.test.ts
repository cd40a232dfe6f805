import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { PodUpdateInput } from "../../../sdk/schemas";
import type * as V2 from "../../../sdk/schemas/v2";
import { PlatformCatalog } from "../../../emulator/platform/platform-catalog";
import type { PodAccount } from "../../../emulator/pods/pod-account";
import { EMULATED_MACHINE, PodRecordSchema } from "../../../emulator/pods/pod-record";
import { patchPodV2, updatePodV1 } from "../../../emulator/pods/pod-update";
import { type PodV1View, recordOfV1View, v1ViewOf } from "../../../emulator/pods/pod-v1-view";

/*
 * A pod record and its view in v1's names hold the same facts: a view brought to a record and
 * back is the view (so a v1 write, which goes through the view, and a state file before version
 * 3 lose nothing), and whatever v1 and v2 writes made a record, its view brought back is the record.
 */

const catalog = new PlatformCatalog();
const opt = <T>(arb: fc.Arbitrary<T>) => fc.option(arb, { nil: undefined });
const drop = <T extends object>(o: T) => Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as T;
/** Words of a command line: spaces, quotes, backslashes and empty words included. */
const words = fc.array(fc.oneof(fc.constantFrom("", "a b", 'x"y', "\\n", "-c", "\t", '"'), fc.string()), {
  maxLength: 4,
});
const path = fc.constantFrom("/workspace", "/data", "/mnt/x");

const view: fc.Arbitrary<PodV1View> = fc
  .record({
    gpu: fc.boolean(),
    count: fc.integer({ min: 1, max: 4 }),
    allocation: fc.constantFrom("standard", "large", "absent"),
    volumeInGb: fc.constantFrom(0, 20, 50),
    volumeMountPath: path,
    networkVolumeId: opt(fc.constantFrom("vol-a", "vol-b")),
    containerRegistryAuthId: opt(fc.constantFrom("cra-1")),
    templateId: opt(fc.constantFrom("tpl-1")),
    dockerEntrypoint: words,
    dockerStartCmd: words,
    interruptible: fc.boolean(),
    locked: fc.boolean(),
    globalNetworking: fc.boolean(),
    status: fc.constantFrom("RUNNING" as const, "EXITED" as const),
    containerDiskInGb: fc.constantFrom(0, 1, 50),
    cluster: fc.boolean(),
    containerError: opt(fc.constantFrom("container cannot start: no secret")),
  })
  .map(({ gpu, count, allocation, cluster, ...v }) => {
    const allocated =
      allocation === "absent"
        ? {}
        : gpu
          ? {
              vcpuCount: (allocation === "large" ? 16 : 8) * count,
              memoryInGb: (allocation === "large" ? 125 : 62) * count,
            }
          : { vcpuCount: 4, memoryInGb: 8 };
    return drop({
      id: "pod-1",
      name: "trainer",
      imageName: "img:1",
      env: { A: "1" },
      ports: ["8888/http"],
      cloudType: "SECURE" as const,
      cudaVersion: gpu ? "12.8" : null,
      placement: gpu
        ? { dataCenterId: "EU-RO-1", gpuTypeId: "NVIDIA L4", gpuCount: count }
        : { dataCenterId: "EU-RO-1", cpuFlavorId: "cpu3c", vcpuCount: 4 },
      ...allocated,
      costPerHr: 0.5,
      createdAt: 1,
      startedAt: 2,
      lastStatusChange: "Rented by User",
      containerDiskWipes: 0,
      ...(cluster ? { clusterId: "c-1", clusterRank: 1 } : {}),
      logs: [],
      ...v,
    });
  });

/** An account that has every record a write names, and a meter and vault that do nothing. */
const account = {
  userId: "user-1",
  templates: { get: () => undefined, has: () => false },
  containerRegistryAuths: { get: () => ({ id: "cra-1" }), has: () => true },
  networkVolumes: { get: () => undefined, has: () => false },
  meter: { now: () => 10, open: () => undefined, close: () => undefined },
  vault: { resolve: () => ({ ok: true, lines: [] }) },
} as unknown as PodAccount;

const v1Update: fc.Arbitrary<PodUpdateInput> = fc
  .record({
    name: opt(fc.constantFrom("renamed")),
    imageName: opt(fc.constantFrom("img:2")),
    containerDiskInGb: opt(fc.constantFrom(0, 30)),
    volumeInGb: opt(fc.constantFrom(0, 40)),
    volumeMountPath: opt(path),
    dockerEntrypoint: opt(words),
    dockerStartCmd: opt(words),
    globalNetworking: opt(fc.boolean()),
    containerRegistryAuthId: opt(fc.constantFrom("", "cra-1")),
  })
  .map(drop);

const v2Patch: fc.Arbitrary<V2.UpdatePodRequest> = fc
  .record({
    args: opt(fc.constantFrom("", "  python  -m x ", 'bash -c "echo hi"')),
    disk: opt(fc.constantFrom(1, 20)),
    registry: opt(fc.constantFrom(null, "cra-1")),
    globalNetworking: opt(fc.boolean()),
  })
  .map(drop);

describe("a pod record and its view in v1's names", () => {
  it("brings every view back from its record, with `v1` holding only what v2's fields cannot say", () => {
    fc.assert(
      fc.property(view, (v) => {
        const record = recordOfV1View(v, catalog);
        expect(PodRecordSchema.parse(record)).toEqual(record);
        const { vcpuCount: _v, memoryInGb: _m, ...facts } = v1ViewOf(record);
        const { vcpuCount: _vv, memoryInGb: _mm, ...given } = v;
        expect(facts).toEqual(given);
        if (v.vcpuCount !== undefined) expect(v1ViewOf(record)).toEqual(v);
        // Each fact of `v1` is one the record would lose without it.
        for (const key of Object.keys(record.v1 ?? {}) as (keyof NonNullable<typeof record.v1>)[]) {
          const { [key]: kept, ...rest } = record.v1!;
          expect(v1ViewOf({ ...record, v1: rest })[key], key).not.toEqual(kept);
        }
      }),
    );
  });

  it("brings a record back from its view, whatever v1 and v2 writes followed", () => {
    fc.assert(
      fc.property(view, v1Update, v2Patch, (v, update, patch) => {
        const record = recordOfV1View({ ...v, locked: false }, catalog);
        expect(recordOfV1View(v1ViewOf(record))).toEqual(record);
        updatePodV1(account, record, update, false);
        expect(recordOfV1View(v1ViewOf(record))).toEqual(record);
        patchPodV2(account, record, patch);
        expect(recordOfV1View(v1ViewOf(record))).toEqual(record);
      }),
    );
  });

  it("gives a pod of a state file before version 3 the standard machine, and keeps in `v1` what v2 cannot hold", () => {
    const record = recordOfV1View(
      {
        id: "pod-2",
        name: "old",
        status: "RUNNING",
        imageName: "img:1",
        env: {},
        ports: [],
        containerDiskInGb: 0,
        volumeInGb: 0,
        volumeMountPath: "/data",
        dockerEntrypoint: ["bash"],
        dockerStartCmd: ["-c", "sleep infinity"],
        cloudType: "COMMUNITY",
        interruptible: true,
        locked: false,
        globalNetworking: true,
        cudaVersion: "12.4",
        placement: { dataCenterId: "US-TX-3", gpuTypeId: "NVIDIA A40", gpuCount: 2 },
        costPerHr: 0.35,
        createdAt: 1,
        startedAt: null,
        lastStatusChange: "Exited by User",
        containerDiskWipes: 1,
        logs: [],
      },
      catalog,
    );
    expect(record).toMatchObject({
      image: "img:1",
      args: '-c "sleep infinity"',
      disk: 0,
      mounts: {},
      cloud: "COMMUNITY",
      dataCenterId: "US-TX-3",
      gpu: {
        id: "NVIDIA A40",
        count: 2,
        vcpuCount: 2 * EMULATED_MACHINE.vcpusPerGpu,
        memory: 2 * EMULATED_MACHINE.ramGbPerGpu,
      },
      registry: null,
      template: null,
      globalNetworking: { enabled: true },
      pricePerHour: 0.35,
      v1: { dockerEntrypoint: ["bash"], interruptible: true, volumeMountPath: "/data" },
    });
    const { vcpuCount: _v, memoryInGb: _m, ...old } = v1ViewOf(record);
    const cpu = recordOfV1View({ ...old, placement: { dataCenterId: "US-TX-3", cpuFlavorId: "cpu3m", vcpuCount: 4 } });
    expect(cpu.cpu).toEqual({ id: "cpu3m", vcpuCount: 4, memory: 32 });
  });
});
