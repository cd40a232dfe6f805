import { z } from "zod";

/*
 * A pod as the emulator keeps it: one record per pod, read and written through both API
 * versions (v1's `/pods` and v2's `/v2/pods` answer the same pod under the same id), persisted in
 * the account's `pods` collection. Times are epoch milliseconds of platform time.
 */

/** Where a pod runs: the GPUs (or vCPUs) it holds in one data center while it runs. */
export const PodPlacementSchema = z.object({
  dataCenterId: z.string(),
  /** GPU type, for a GPU pod. */
  gpuTypeId: z.string().optional(),
  gpuCount: z.number().int().optional(),
  /** CPU flavor, for a CPU pod. */
  cpuFlavorId: z.string().optional(),
  vcpuCount: z.number().int().optional(),
});
/** A pod's placement. */
export type PodPlacement = z.infer<typeof PodPlacementSchema>;

/**
 * One emulated machine, per GPU and in bandwidth: what a GPU pod gets (its vCPUs and RAM), what
 * v1's machine filters may ask for at most, and what v1's `machine` reports.
 */
export const EMULATED_MACHINE = {
  vcpusPerGpu: 8,
  ramGbPerGpu: 62,
  diskThroughputMBps: 4000,
  downloadMbps: 5000,
  uploadMbps: 5000,
} as const;

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

/** A stored pod. */
export const PodRecordSchema = z.object({
  id: z.string(),
  name: z.string(),
  /** What runs: `RUNNING` holds its placement's GPUs or vCPUs; `EXITED` holds none. */
  status: z.enum(["RUNNING", "EXITED"]),
  imageName: z.string(),
  env: z.record(z.string(), z.string()),
  ports: z.array(z.string()),
  containerDiskInGb: z.number().int(),
  volumeInGb: z.number().int(),
  volumeMountPath: z.string(),
  networkVolumeId: z.string().optional(),
  containerRegistryAuthId: z.string().optional(),
  dockerEntrypoint: z.array(z.string()),
  dockerStartCmd: z.array(z.string()),
  /** The template a v1 create named (v2 keeps no link: its pods answer `template: null`). */
  templateId: z.string().optional(),
  cloudType: z.enum(["SECURE", "COMMUNITY"]),
  interruptible: z.boolean(),
  locked: z.boolean(),
  globalNetworking: z.boolean(),
  cudaVersion: z.string().nullable(),
  placement: PodPlacementSchema,
  /** Dollars per hour while running. */
  costPerHr: z.number(),
  createdAt: z.number(),
  /** When the container last started (create, start, restart, reset, a container update). */
  startedAt: z.number().nullable(),
  /** v1's `lastStatusChange`: the last lifecycle event, in words. */
  lastStatusChange: z.string(),
  /**
   * Why the container could not start the last time it tried (its env names a secret the account
   * does not have): the pod holds its machine but runs nothing, and v2 shows it as `ERROR`.
   */
  containerError: z.string().optional(),
  /** How many times the container disk was wiped (reset, a container update): observable in `/_emulator/state`. */
  containerDiskWipes: z.number().int(),
  /** The cluster this pod belongs to (v2 clusters), with its rank. */
  clusterId: z.string().optional(),
  clusterRank: z.number().int().optional(),
  logs: z.array(PodLogLineSchema),
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
