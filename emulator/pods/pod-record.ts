import { z } from "zod";
import * as V2 from "../../sdk/schemas/v2";
import { MACHINE_SIZE_ORDER, MACHINE_SIZES, type MachineSize } from "../capacity/capacity";
import type { PlatformCatalog } from "../platform/platform-catalog";

/*
 * A pod as the emulator keeps it: v2's answer (OpenAPI v2 `Pod`) in v2's names and nesting, one
 * record per pod read and written through both API versions (v1's `/pods` and v2's `/v2/pods`
 * answer the same pod under the same id), persisted in the account's `pods` collection. v1's
 * routes translate at their edge, through the record as v1 names it (pod-v1-view.ts). Times are
 * epoch milliseconds of platform time.
 */

/**
 * The standard emulated machine, per GPU and in bandwidth: what a GPU pod without placement
 * filters gets (its vCPUs and RAM), what a serverless worker reports, and what v1's bandwidth
 * filters may ask for at most and its `machine` reports (every machine size has the same
 * bandwidth; capacity.ts has the sizes).
 */
export const EMULATED_MACHINE = {
  ...MACHINE_SIZES.standard,
  diskThroughputMBps: 4000,
  downloadMbps: 5000,
  uploadMbps: 5000,
} as const;

/** The vCPUs and GB of RAM a GPU pod of `count` GPUs gets on a machine of `size`. */
export function gpuAllocation(size: MachineSize, count: number): { vcpuCount: number; memory: number } {
  const machine = MACHINE_SIZES[size];
  return { vcpuCount: machine.vcpusPerGpu * count, memory: machine.ramGbPerGpu * count };
}

/**
 * The size of machine a GPU pod's GPUs are in: the one that gives its allocation per GPU
 * (standard when none does, as for a pod of an earlier state file).
 */
export function machineOf(gpu: { count: number; vcpuCount: number; memory: number }): MachineSize {
  const fits = (size: MachineSize) => {
    const a = gpuAllocation(size, gpu.count);
    return a.vcpuCount === gpu.vcpuCount && a.memory === gpu.memory;
  };
  return MACHINE_SIZE_ORDER.find(fits) ?? "standard";
}

/** The GB of RAM a CPU pod of `vcpuCount` vCPUs of a flavor gets (4 per vCPU for a flavor the catalog lacks). */
export function cpuMemoryGb(catalog: PlatformCatalog, flavorId: string, vcpuCount: number): number {
  return (catalog.cpuFlavor(flavorId)?.ramGbPerVcpu ?? 4) * vcpuCount;
}

/** One line of a pod's log (`/v2/pods/{id}/logs`). */
export const PodLogLineSchema = z.object({
  ts: z.number(),
  seq: z.number().int(),
  source: z.enum(["container", "system"]),
  line: z.string(),
});
/** A pod log line. */
export type PodLogLine = z.infer<typeof PodLogLineSchema>;

/** The most log lines a pod keeps (v2's `tail` maximum). */
export const POD_LOG_LINES = 5000;

/**
 * What v1 wrote that v2's fields do not hold, each absent unless it differs from what v1 reads off
 * the v2 fields (pod-v1-view.ts): an entrypoint override, an interruptible (spot) pod, the mount
 * path of a pod with no mount (v1 keeps and answers it), a pod volume's size beside a network
 * volume (v2's mounts are one or the other).
 */
export const PodV1FieldsSchema = z.object({
  dockerEntrypoint: z.array(z.string()).optional(),
  interruptible: z.boolean().optional(),
  volumeInGb: z.number().int().optional(),
  volumeMountPath: z.string().optional(),
});
/** What v1 wrote that v2's fields do not hold. */
export type PodV1Fields = z.infer<typeof PodV1FieldsSchema>;

/**
 * A stored pod: v2's fields as v2 answers them, where the answer is not derived at answer time
 * (`actions`, `ssh`, `runtime`, `cost` and the addresses are), with these differences:
 *
 * - `status` is what runs (`RUNNING` holds its GPUs or vCPUs; `EXITED` none); v2 answers `ERROR`
 *   while `containerError` says why the container could not start;
 * - `disk` as written (v1 allows 0; v2 answers its minimum of 1);
 * - `gpu` (GPU pods) and `cpu` (CPU pods) hold the allocation too: `vcpuCount` and `memory` (GB)
 *   in all, for a GPU pod what its machine gives per GPU times its GPUs;
 * - `registry` and `template` are null for none; `template` is the template a v1 create named
 *   (v2 keeps no link);
 * - `globalNetworking` holds the switch (the address is derived);
 * - `cluster` names a cluster member's cluster and rank (the role and address are derived);
 * - `createdAt` and `startedAt` are epoch milliseconds; `startedAt` is when the container last
 *   started (create, start, restart, reset, a container update), kept while the pod is stopped
 *   (v2 answers null then).
 *
 * What only the emulator keeps: `pricePerHour` (dollars per hour while running: v2's `cost` while
 * it runs, v1's `costPerHr`), `lastStatusChange` (the last lifecycle event in words, which v1
 * answers), `containerError`, `containerDiskWipes` (observable in `/_emulator/state`), `logs`,
 * and `v1`: what v1 wrote that v2's fields do not hold.
 */
export const PodRecordSchema = V2.PodSchema.pick({
  id: true,
  name: true,
  image: true,
  args: true,
  disk: true,
  env: true,
  ports: true,
  mounts: true,
  cudaVersion: true,
  locked: true,
}).extend({
  status: z.enum(["RUNNING", "EXITED"]),
  registry: z.string().nullable(),
  cloud: z.enum(["SECURE", "COMMUNITY"]),
  dataCenterId: z.string(),
  gpu: z
    .object({ id: z.string(), count: z.number().int(), vcpuCount: z.number().int(), memory: z.number() })
    .optional(),
  cpu: z.object({ id: z.string(), vcpuCount: z.number().int(), memory: z.number() }).optional(),
  template: z.string().nullable(),
  globalNetworking: z.object({ enabled: z.boolean() }),
  cluster: z.object({ id: z.string(), rank: z.number().int() }).optional(),
  createdAt: z.number(),
  startedAt: z.number().nullable(),
  pricePerHour: z.number(),
  lastStatusChange: z.string(),
  containerError: z.string().optional(),
  containerDiskWipes: z.number().int(),
  logs: z.array(PodLogLineSchema),
  v1: PodV1FieldsSchema.optional(),
});
/** A stored pod. */
export type PodRecord = z.infer<typeof PodRecordSchema>;

/** Appends a log line, keeping the last {@link POD_LOG_LINES}. */
export function logLine(pod: PodRecord, ts: number, source: PodLogLine["source"], line: string): void {
  const seq = (pod.logs.at(-1)?.seq ?? 0) + 1;
  pod.logs.push({ ts, seq, source, line });
  if (pod.logs.length > POD_LOG_LINES) pod.logs.splice(0, pod.logs.length - POD_LOG_LINES);
}

/** The v2 actions valid for a pod now (OpenAPI v2 `podAction`); a locked pod cannot be stopped. */
export function podActions(pod: Pick<PodRecord, "status" | "locked">): ("start" | "stop" | "restart" | "terminate")[] {
  if (pod.status === "RUNNING") return pod.locked ? ["restart", "terminate"] : ["stop", "restart", "terminate"];
  return ["start", "terminate"];
}

/** Whether the pod is interruptible (spot): a v1 create only. */
export function isInterruptible(pod: Pick<PodRecord, "v1">): boolean {
  return pod.v1?.interruptible ?? false;
}
