import {
  type Pod,
  type PodCreateInput,
  PodCreateInputSchema,
  PodListSchema,
  PodSchema,
  type PodUpdateInPlaceInput,
  PodUpdateInPlaceInputSchema,
  type PodUpdateInput,
  PodUpdateInputSchema,
} from "../../schemas";
import type { CallOptions, Transport } from "../../transport";
import { ManagementResource, type ReadQuery } from "../management-resource";
import type { PodListOptions, PodOperations } from "../neutral/api";
import { validateForVersion } from "../../request-validation";

/**
 * Pods on management API v1 (`/v1/pods`): `create`, `get` and `list` (the OpenAPI's filters and
 * `include*` flags), `updateInPlace` (`PATCH`: name, locked), `update` (`POST /pods/{id}/update`,
 * which resets the pod: its container restarts on the new settings and its container disk is
 * wiped), `start`, `stop`, `restart`, `reset`, `delete`. Its shapes are the version-neutral ones
 * ({@link PodOperations}); inputs only v2 has (`startSsh`, ...) are refused before sending, and
 * the placement filters travel under v1's names.
 */
export class PodsV1 extends ManagementResource<Pod, PodCreateInput, PodListOptions> implements PodOperations {
  constructor(transport: Transport) {
    super(transport, {
      version: "v1",
      api: "v1.pods",
      path: "/pods",
      noun: "pod",
      schema: PodSchema,
      listSchema: PodListSchema,
      createSchema: PodCreateInputSchema,
      versionFields: "pod",
    });
  }

  /**
   * The create body on v1's wire: the placement filters under v1's names (`minRAMPerGPU`,
   * `minVCPUPerGPU`), the rest as validated.
   */
  protected override createBody(input: PodCreateInput): unknown {
    const { minRamPerGpu, minVcpuCountPerGpu, ...rest } = super.createBody(input) as PodCreateInput;
    return {
      ...rest,
      ...(minRamPerGpu !== undefined ? { minRAMPerGPU: minRamPerGpu } : {}),
      ...(minVcpuCountPerGpu !== undefined ? { minVCPUPerGPU: minVcpuCountPerGpu } : {}),
    };
  }

  /** `PATCH /pods/{id}` with name and/or locked: nothing that runs changes. */
  async updateInPlace(id: string, input: PodUpdateInPlaceInput, options?: CallOptions): Promise<Pod> {
    const body = this.validated(PodUpdateInPlaceInputSchema, input, "update pod in place");
    return this.sendUpdate(id, body, { ...options, method: "PATCH" });
  }

  /**
   * `POST /pods/{id}/update` (OpenAPI v1 `PodUpdateInput`, "which will trigger a reset"): the
   * container restarts on the new settings and its container disk is wiped; the pod volume and a
   * network volume keep their data.
   */
  async update(id: string, input: PodUpdateInput, options?: CallOptions): Promise<Pod> {
    const body = validateForVersion(PodUpdateInputSchema, input, `update pod ${id}`, "podUpdate", "v1");
    return this.sendUpdate(id, body, { ...options, method: "POST" });
  }

  /** `POST /pods/{id}/start`: a stopped pod runs again (on free GPUs of its machine). */
  start(id: string, options?: CallOptions): Promise<void> {
    return this.lifecycle("start", id, options);
  }

  /** `POST /pods/{id}/stop`: compute is released, disks kept. Refused while the pod is locked. */
  stop(id: string, options?: CallOptions): Promise<void> {
    return this.lifecycle("stop", id, options);
  }

  /** `POST /pods/{id}/restart`: the container restarts in place. */
  restart(id: string, options?: CallOptions): Promise<void> {
    return this.lifecycle("restart", id, options);
  }

  /** `POST /pods/{id}/reset`: the container restarts and its container disk is wiped. Refused while locked. */
  reset(id: string, options?: CallOptions): Promise<void> {
    return this.lifecycle("reset", id, options);
  }

  protected override readQuery(o: PodListOptions | undefined): ReadQuery {
    if (!o) return {};
    const list = (values: readonly string[] | undefined) => (values?.length ? values.join(",") : undefined);
    return {
      includeMachine: o.includeMachine,
      includeNetworkVolume: o.includeNetworkVolume,
      includeSavingsPlans: o.includeSavingsPlans,
      includeTemplate: o.includeTemplate,
      includeWorkers: o.includeWorkers,
      computeType: o.computeType,
      cpuFlavorId: list(o.cpuFlavorId),
      dataCenterId: list(o.dataCenterId),
      desiredStatus: o.desiredStatus,
      endpointId: o.endpointId,
      gpuTypeId: list(o.gpuTypeId),
      id: o.id,
      imageName: o.imageName,
      name: o.name,
      networkVolumeId: o.networkVolumeId,
      templateId: o.templateId,
    };
  }

  /** A lifecycle call: idempotent (a repeat finds the pod where the first call left it). */
  private async lifecycle(verb: "start" | "stop" | "restart" | "reset", id: string, options?: CallOptions) {
    await this.send(verb, {
      method: "POST",
      path: `${this.itemPath(id)}/${verb}`,
      idempotent: true,
      options,
    });
  }
}
