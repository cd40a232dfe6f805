import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { EndpointCreateInput, EndpointUpdateInput } from "../../../sdk/schemas";
import type * as V2 from "../../../sdk/schemas/v2";
import { createEndpointRecord, updateEndpointRecord } from "../../../emulator/endpoints/endpoint-v1";
import { recordOfV1View, v1ViewOf } from "../../../emulator/endpoints/endpoint-v1-view";
import { createEndpointRecordV2, updateEndpointRecordV2 } from "../../../emulator/endpoints/endpoint-v2";
import { PlatformCatalog } from "../../../emulator/platform/platform-catalog";

/*
 * An endpoint record and its view in v1's names hold the same facts: whatever v1 and v2 writes
 * made a record, its view brought back is the record, so a v1 write (which goes through the view)
 * loses nothing v2 wrote, and the view of a record is what a state file before version 2 held.
 */

const catalog = new PlatformCatalog();
const AT = "2026-06-01T00:00:00.000Z";
const opt = <T>(arb: fc.Arbitrary<T>) => fc.option(arb, { nil: undefined });
const some = <T>(values: readonly T[]) => fc.subarray([...values]);

const v1Fields = {
  name: opt(fc.constantFrom("a", "b")),
  gpuTypeIds: opt(some(["NVIDIA L4", "NVIDIA GeForce RTX 4090", "NVIDIA A40"])),
  gpuCount: opt(fc.constantFrom(1, 2)),
  workersMin: opt(fc.constantFrom(0, 1)),
  workersMax: opt(fc.constantFrom(1, 3)),
  idleTimeout: opt(fc.constantFrom(5, 60)),
  scalerType: opt(fc.constantFrom("QUEUE_DELAY" as const, "REQUEST_COUNT" as const)),
  scalerValue: opt(fc.constantFrom(1, 4)),
  executionTimeoutMs: opt(fc.constantFrom(1000, 60_000)),
  flashboot: opt(fc.boolean()),
  networkVolumeId: opt(fc.constantFrom("vol-a", "vol-b")),
  networkVolumeIds: opt(some(["vol-a", "vol-c"])),
  dataCenterIds: opt(some(["EU-RO-1", "US-KS-2"])),
  allowedCudaVersions: opt(some(["12.1", "12.4"])),
  minCudaVersion: opt(fc.constantFrom("12.1")),
  cpuFlavorIds: opt(some(["cpu3c", "cpu5c"])),
  vcpuCount: opt(fc.constantFrom(2, 4)),
};
const drop = <T extends object>(o: T) => Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as T;

const v1Create: fc.Arbitrary<EndpointCreateInput> = fc
  .record({
    ...v1Fields,
    templateId: fc.constantFrom("echo", "tpl-1"),
    computeType: opt(fc.constantFrom("GPU" as const, "CPU" as const)),
  })
  .map(drop);
const v1Update: fc.Arbitrary<EndpointUpdateInput> = fc
  .record({ ...v1Fields, templateId: opt(fc.constantFrom("echo", "tpl-2")) })
  .map(drop);

const v2Create: fc.Arbitrary<V2.CreateEndpointRequest> = fc
  .record({
    cpu: fc.boolean(),
    type: fc.constantFrom("QUEUE" as const, "LOAD_BALANCER" as const),
    count: opt(fc.constantFrom(1, 2)),
    networkVolumes: opt(some(["vol-a", "vol-c"])),
    flashboot: opt(fc.constantFrom("OFF" as const, "FLASHBOOT" as const, "PRIORITY_FLASHBOOT" as const)),
    queueDelay: fc.constantFrom(0.5, 4),
  })
  .map(({ cpu, type, count, networkVolumes, flashboot, queueDelay }) =>
    drop({
      name: "v2",
      type,
      image: "ghcr.io/acme/echo:1",
      scaling:
        type === "QUEUE"
          ? { type: "QUEUE_DELAY" as const, queueDelay }
          : { type: "REQUEST_COUNT" as const, requestCount: 2 },
      ...(cpu
        ? {
            cpu: [
              { id: "cpu3c", vcpuCount: 2 },
              { id: "cpu5c", vcpuCount: 4 },
            ],
          }
        : { gpu: drop({ pools: ["AMPERE_16", "ADA_24"], excludedTypes: ["NVIDIA RTX A4500"], count }) }),
      networkVolumes,
      flashboot,
    }),
  );

const v2Write = { catalog, template: undefined, linked: undefined, at: AT };

describe("an endpoint record and its view in v1's names", () => {
  it("brings a v1-made record back from its view, whatever v1 updates followed", () => {
    fc.assert(
      fc.property(v1Create, fc.array(v1Update, { maxLength: 3 }), (create, updates) => {
        let record = createEndpointRecord(create, "ep-1", "user-1", AT);
        for (const update of updates) record = updateEndpointRecord(record, update, AT);
        expect(recordOfV1View(v1ViewOf(record))).toEqual(record);
      }),
    );
  });

  it("brings a v2-made record back from its view, through v1 and v2 updates", () => {
    fc.assert(
      fc.property(v2Create, v1Update, (create, update) => {
        const made = createEndpointRecordV2(create, "ep-2", "user-1", v2Write, ["EU-RO-1"]);
        expect(recordOfV1View(v1ViewOf(made))).toEqual(made);
        const updated = updateEndpointRecord(made, update, AT);
        expect(recordOfV1View(v1ViewOf(updated))).toEqual(updated);
        const patched = updateEndpointRecordV2(updated, { workers: { max: 5 }, networkVolumes: ["vol-c"] }, v2Write);
        expect(recordOfV1View(v1ViewOf(patched))).toEqual(patched);
      }),
    );
  });

  it("keeps in `v1` only what v2's fields cannot say", () => {
    const record = createEndpointRecord(
      {
        templateId: "echo",
        gpuTypeIds: ["NVIDIA L4"],
        networkVolumeId: "vol-a",
        cpuFlavorIds: ["cpu3c"],
        workersMax: 2,
      },
      "ep-3",
      "user-1",
      AT,
    );
    expect(record.v1).toEqual({ gpuTypeIds: ["NVIDIA L4"], networkVolumeId: "vol-a", cpuFlavorIds: ["cpu3c"] });
    expect(record).toMatchObject({ workers: { max: 2 }, gpu: { count: 1 }, templateId: "echo", type: "QUEUE" });
    // A v2 write of what v1 named replaces it: pools for the GPU types, the list for the single volume.
    const patched = updateEndpointRecordV2(record, { gpu: { pools: ["ADA_24"] }, networkVolumes: [] }, v2Write);
    expect(patched.v1).toEqual({ cpuFlavorIds: ["cpu3c"] });
  });
});
