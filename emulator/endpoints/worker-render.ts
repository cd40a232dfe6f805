import { type Pod, wordsFromArgs } from "../../sdk/schemas";
import { workerOpening } from "../billing/resource-usage";
import type { Worker } from "../jobs/worker-pool";
import { EMULATED_MACHINE } from "../pods/pod-record";
import { type EndpointRecord, networkVolumesOf, vcpuCountOf } from "./endpoint-record";
import { containerOf } from "./endpoint-render";
import type { PlatformCatalog } from "../platform/platform-catalog";
import type { TemplateRecord } from "../templates/template-record";
import { renderVolumeV1, type VolumeRecord } from "../volumes/volume-record";

/** What a worker's answer needs of its endpoint besides the worker. */
export interface WorkerContext {
  endpoint: EndpointRecord;
  /** The template the endpoint is linked to (v1), if any. */
  template: TemplateRecord | undefined;
  catalog: PlatformCatalog;
  userId: string;
  /** The account's network volume of this id, if any. */
  volume(id: string): VolumeRecord | undefined;
  /** Platform time as an ISO date (the clock's epoch origin plus `t`). */
  iso(t: number): string;
}

/**
 * A serverless worker as v1 answers it under `includeWorkers` (OpenAPI v1 `Endpoint.workers`,
 * whose items are `Pod`s): a running pod of the endpoint, with the container the endpoint runs,
 * the GPU type and price its billing uses, and its network volume.
 */
export function renderWorkerPodV1(worker: Worker, ctx: WorkerContext): Pod {
  const e = ctx.endpoint;
  // The container it started with (a worker of an older release runs that release's image).
  const current = containerOf(e, ctx.template);
  const container = worker.runs?.image !== undefined ? { ...current, image: worker.runs.image } : current;
  const opening = workerOpening(e, worker.id, ctx.catalog);
  const gpu = opening.gpuTypeId === undefined ? undefined : ctx.catalog.gpuType(opening.gpuTypeId);
  const gpuCount = e.gpu?.count ?? 1;
  const vcpus = vcpuCountOf(e) ?? 2;
  const flavor = e.cpu?.[0]?.id ?? ctx.catalog.cpuFlavors()[0]?.id;
  const pod: Pod = {
    id: worker.id,
    name: `${e.name}-worker`,
    desiredStatus: "RUNNING",
    endpointId: e.id,
    ...(e.templateId !== undefined ? { templateId: e.templateId } : {}),
    ...(container.image !== undefined ? { image: container.image } : {}),
    env: container.env,
    ports: container.ports,
    dockerEntrypoint: [],
    dockerStartCmd: wordsFromArgs(container.args),
    ...(container.disk !== undefined ? { containerDiskInGb: container.disk } : {}),
    ...(container.registry ? { containerRegistryAuthId: container.registry } : {}),
    volumeInGb: 0,
    volumeEncrypted: false,
    costPerHr: opening.ratePerHour,
    adjustedCostPerHr: opening.ratePerHour,
    interruptible: false,
    locked: false,
    machineId: `m${worker.id
      .replace(/[^a-z0-9]/gi, "")
      .slice(0, 11)
      .toLowerCase()}`,
    consumerUserId: ctx.userId,
    lastStartedAt: ctx.iso(worker.startedAt),
    lastStatusChange: `Started by the emulator: ${worker.job || worker.inFlight > 0 ? "running a job" : "idle"}`,
  };
  if (gpu) {
    pod.gpu = {
      id: gpu.id,
      count: gpuCount,
      displayName: gpu.name,
      securePrice: gpu.price.secure,
      communityPrice: gpu.price.community,
    };
    pod.vcpuCount = EMULATED_MACHINE.vcpusPerGpu * gpuCount;
    pod.memoryInGb = EMULATED_MACHINE.ramGbPerGpu * gpuCount;
  } else {
    if (flavor !== undefined) pod.cpuFlavorId = flavor;
    pod.vcpuCount = vcpus;
    pod.memoryInGb = (ctx.catalog.cpuFlavor(flavor ?? "")?.ramGbPerVcpu ?? 4) * vcpus;
  }
  const [volumeId] = networkVolumesOf(e);
  if (volumeId !== undefined) {
    const v = ctx.volume(volumeId);
    pod.networkVolume = v ? renderVolumeV1(v) : { id: volumeId };
  }
  return pod;
}
