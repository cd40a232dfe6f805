import { APIError, BadRequestError, RequestValidationError, UnsupportedOperationError } from "../../../errors";
import { validateForVersion } from "../../../request-validation";
import {
  type Pod,
  type PodCreateInput,
  PodCreateInputSchema,
  type PodUpdateInPlaceInput,
  PodUpdateInPlaceInputSchema,
  type PodUpdateInput,
  PodUpdateInputSchema,
  versionFieldProblems,
} from "../../../schemas";
import * as V2 from "../../../schemas/v2";
import type { CallOptions } from "../../../transport";
import type { PodListOptions, PodOperations, PodReadOptions } from "../api";
import type { PodsV2 } from "../../v2/pods";
import { checkV2Body, podCreateToV2, podFromV2, podUpdateToV2 } from "./pod-translation";

/** What the neutral read options keep on v2: only the call's own signal and timeout. */
function callOptions(o: CallOptions | undefined): CallOptions | undefined {
  return o && { signal: o.signal, timeoutMs: o.timeoutMs };
}

/** Whether a neutral pod passes v1's list filters (v2's list has none: applied here). */
export function podMatchesFilters(pod: Pod, o: PodListOptions): boolean {
  const gpuType = pod.gpu?.id;
  const computeType = pod.cpuFlavorId !== undefined ? "CPU" : "GPU";
  return (
    (o.computeType === undefined || o.computeType === computeType) &&
    (!o.cpuFlavorId?.length || (pod.cpuFlavorId !== undefined && o.cpuFlavorId.includes(pod.cpuFlavorId))) &&
    (!o.dataCenterId?.length || (typeof pod.dataCenterId === "string" && o.dataCenterId.includes(pod.dataCenterId))) &&
    (o.desiredStatus === undefined || o.desiredStatus === pod.desiredStatus) &&
    (!o.gpuTypeId?.length || (gpuType !== undefined && o.gpuTypeId.includes(gpuType))) &&
    (o.id === undefined || o.id === pod.id) &&
    (o.imageName === undefined || o.imageName === pod.image) &&
    (o.name === undefined || o.name === pod.name) &&
    (o.networkVolumeId === undefined || o.networkVolumeId === pod.networkVolume?.id)
  );
}

/**
 * The version-neutral pod operations on management API v2, over `client.v2.pods`:
 * - `create` tries `gpuTypeIds` (or `cpuFlavorIds`) in order, one v2 create each, until one is
 *   placed (v2 places one named type and does not fall back; a 400 moves on to the next), then
 *   locks the pod when `locked` was asked for (v2's create has no `locked`);
 * - `start`, `stop`, `restart` are v2's `action`; starting a running pod or stopping a stopped one
 *   changes nothing, as on v1 (v2's 409 for them is read as "already there");
 * - `update` (v1's reset update) is v2's `PATCH`: the container restarts on the new settings and
 *   its disk is wiped, the pod volume and a network volume keep their data;
 * - `reset` does not exist on v2: an `UnsupportedOperationError` that says what to use instead.
 */
export class NeutralPodsOverV2 implements PodOperations {
  constructor(private readonly v2: PodsV2) {}

  async create(input: PodCreateInput, options?: CallOptions): Promise<Pod> {
    const valid = validateForVersion(PodCreateInputSchema, input, "create pod", "pod", "v2");
    const candidates = podCreateToV2(valid);
    if (candidates.length === 0) {
      throw new RequestValidationError(
        [
          {
            field: "gpuTypeIds",
            value: "undefined",
            rule: "is required for a GPU pod: name the GPU types it may rent",
          },
        ],
        "create pod",
      );
    }
    let created: V2.Pod | undefined;
    for (const [i, candidate] of candidates.entries()) {
      const body = checkV2Body(V2.CreatePodRequestSchema, candidate, "create pod");
      try {
        created = await this.v2.create(body, options);
        break;
      } catch (error) {
        // A 400 is a placement failure (or a rule every candidate breaks alike): try the next.
        if (!(error instanceof BadRequestError) || i === candidates.length - 1) throw error;
      }
    }
    if (valid.locked && created) created = await this.v2.update(created.id, { locked: true }, options);
    return podFromV2(created!);
  }

  async get(id: string, options?: PodReadOptions): Promise<Pod> {
    return podFromV2(await this.v2.get(id, callOptions(options)));
  }

  async list(options?: PodListOptions): Promise<Pod[]> {
    if (options) {
      const problems = versionFieldProblems("podList", "v2", options as Record<string, unknown>);
      if (problems.length) throw new RequestValidationError(problems, "list pods");
    }
    const pods = (await this.v2.list(callOptions(options))).map(podFromV2);
    return options ? pods.filter((pod) => podMatchesFilters(pod, options)) : pods;
  }

  async updateInPlace(id: string, input: PodUpdateInPlaceInput, options?: CallOptions): Promise<Pod> {
    const valid = validateForVersion(PodUpdateInPlaceInputSchema, input, "update pod in place", "podUpdate", "v2");
    return podFromV2(await this.v2.update(id, valid, options));
  }

  async update(id: string, input: PodUpdateInput, options?: CallOptions): Promise<Pod> {
    const valid = validateForVersion(PodUpdateInputSchema, input, `update pod ${id}`, "podUpdate", "v2");
    const needsMounts = valid.volumeInGb !== undefined || valid.volumeMountPath !== undefined;
    const current = needsMounts ? await this.v2.get(id, options) : undefined;
    const body = checkV2Body(V2.UpdatePodRequestSchema, podUpdateToV2(valid, current), `update pod ${id}`);
    return podFromV2(await this.v2.update(id, body, options));
  }

  start(id: string, options?: CallOptions): Promise<void> {
    return this.transition(id, "start", "RUNNING", options);
  }

  stop(id: string, options?: CallOptions): Promise<void> {
    return this.transition(id, "stop", "EXITED", options);
  }

  async restart(id: string, options?: CallOptions): Promise<void> {
    await this.v2.action(id, "restart", options);
  }

  reset(_id: string, _options?: CallOptions): Promise<void> {
    return Promise.reject(
      new UnsupportedOperationError(
        "pods.reset",
        "v2",
        "v2 has no reset; update (PATCH) replaces the container and wipes its disk, restart restarts it in place",
      ),
    );
  }

  delete(id: string, options?: CallOptions): Promise<void> {
    return this.v2.delete(id, options);
  }

  /** An action, where a 409 for a pod already in the target state is success (v1's behaviour). */
  private async transition(id: string, action: "start" | "stop", target: string, options?: CallOptions) {
    try {
      await this.v2.action(id, action, options);
    } catch (error) {
      if (!(error instanceof APIError) || error.status !== 409) throw error;
      const pod = podFromV2(await this.v2.get(id, callOptions(options)));
      if (pod.desiredStatus !== target) throw error;
    }
  }
}
