import { RequestValidationError } from "../../../errors";
import {
  type NetworkVolume,
  type NetworkVolumeCreateInput,
  NetworkVolumeCreateInputShape,
  type NetworkVolumeUpdateInput,
  NetworkVolumeUpdateInputShape,
  volumeSizeChangeProblem,
} from "../../../schemas";
import { V2_NEUTRAL_NAMES } from "../../../schemas/resource-fields";
import type * as V2 from "../../../schemas/v2";
import { validateForVersion } from "../../../request-validation";
import type { CallOptions } from "../../../transport";
import type { NetworkVolumeOperations, NetworkVolumeUpdateOptions } from "../api";
import type { NetworkVolumesV2 } from "../../v2/network-volumes";
import { renamedProblems } from "./neutral-fields";

const KIND = "networkVolume";

/** A v2 network volume in the version-neutral shape (`dataCenter` is read as `dataCenterId`). */
export function volumeFromV2(volume: V2.NetworkVolume): NetworkVolume {
  return { id: volume.id, name: volume.name, size: volume.size, dataCenterId: volume.dataCenter, type: volume.type };
}

/** The v2 create body of a version-neutral create input. */
export function volumeCreateToV2(input: NetworkVolumeCreateInput): V2.CreateNetworkVolumeRequest {
  const body: V2.CreateNetworkVolumeRequest = { name: input.name, size: input.size, dataCenter: input.dataCenterId };
  if (input.type !== undefined) body.type = input.type;
  return body;
}

/**
 * The version-neutral network volume operations on management API v2: v1's field names and
 * rules, translated to and from `client.v2.networkVolumes`. v2's own size range (10 to 4096 GB,
 * `VERSION_BOUNDS`) is checked before sending, naming v1's field (`dataCenter` is
 * `dataCenterId`: `NetworkVolumeArgs`' `@wire` tags).
 */
export class NeutralNetworkVolumesOverV2 implements NetworkVolumeOperations {
  constructor(private readonly v2: NetworkVolumesV2) {}

  async create(input: NetworkVolumeCreateInput, options?: CallOptions): Promise<NetworkVolume> {
    const valid = validateForVersion(NetworkVolumeCreateInputShape, input, "create network volume", KIND, "v2");
    const body = volumeCreateToV2(valid);
    const create = () => this.v2.create(body, options);
    return volumeFromV2(await renamedProblems(V2_NEUTRAL_NAMES.networkVolume, create, "create network volume"));
  }

  async get(id: string, options?: CallOptions): Promise<NetworkVolume> {
    return volumeFromV2(await this.v2.get(id, options));
  }

  async list(options?: CallOptions): Promise<NetworkVolume[]> {
    return (await this.v2.list(options)).map(volumeFromV2);
  }

  async update(
    id: string,
    input: NetworkVolumeUpdateInput,
    options?: NetworkVolumeUpdateOptions,
  ): Promise<NetworkVolume> {
    const valid = validateForVersion(NetworkVolumeUpdateInputShape, input, `update network volume ${id}`, KIND, "v2");
    if (valid.size !== undefined) {
      const current = options?.currentSize ?? (await this.v2.get(id, options)).size;
      const problem = volumeSizeChangeProblem(current, valid.size);
      if (problem) {
        throw new RequestValidationError(
          [{ field: "size", value: String(valid.size), rule: problem }],
          `update network volume ${id}`,
        );
      }
      // v2 takes an unchanged size; sending it would only widen the request.
      if (valid.size === current) delete valid.size;
    }
    if (valid.name === undefined && valid.size === undefined) return this.get(id, options);
    return volumeFromV2(await this.v2.update(id, valid, options));
  }

  delete(id: string, options?: CallOptions): Promise<void> {
    return this.v2.delete(id, options);
  }
}
