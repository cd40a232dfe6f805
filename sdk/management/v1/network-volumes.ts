import { RequestValidationError } from "../../errors";
import {
  type NetworkVolume,
  type NetworkVolumeCreateInput,
  NetworkVolumeCreateInputSchema,
  NetworkVolumeListSchema,
  NetworkVolumeSchema,
  type NetworkVolumeUpdateInput,
  NetworkVolumeUpdateInputSchema,
  volumeSizeChangeProblem,
} from "../../schemas";
import type { Transport } from "../../transport";
import { ManagementResource, type UpdateMethodOptions } from "../management-resource";
import type { NetworkVolumeOperations, NetworkVolumeUpdateOptions } from "../neutral/api";

/** Options of {@link NetworkVolumesV1.update}: the neutral ones, plus v1's choice of verb. */
export interface VolumeUpdateOptions extends UpdateMethodOptions, NetworkVolumeUpdateOptions {}

/**
 * Network volumes on management API v1 (`/v1/networkvolumes`): `create`, `get`, `list`, `update`,
 * `delete`. Its input and answers are the version-neutral ones ({@link NetworkVolumeOperations});
 * `type` (a storage tier, v2 only) is refused before sending.
 */
export class NetworkVolumesV1
  extends ManagementResource<NetworkVolume, NetworkVolumeCreateInput>
  implements NetworkVolumeOperations
{
  constructor(transport: Transport) {
    super(transport, {
      version: "v1",
      api: "v1.networkVolumes",
      path: "/networkvolumes",
      noun: "network volume",
      schema: NetworkVolumeSchema,
      listSchema: NetworkVolumeListSchema,
      createSchema: NetworkVolumeCreateInputSchema,
      versionFields: "networkVolume",
    });
  }

  /**
   * Renames and/or grows a volume. A size that does not grow is refused here, before the update
   * is sent (documented: "size in an update must exceed the current size").
   */
  async update(id: string, input: NetworkVolumeUpdateInput, options?: VolumeUpdateOptions): Promise<NetworkVolume> {
    const body = this.validated(NetworkVolumeUpdateInputSchema, input, "update");
    if (body.size !== undefined) {
      const current = options?.currentSize ?? (await this.get(id, options)).size;
      const problem = volumeSizeChangeProblem(current, body.size);
      if (problem || body.size === current) {
        throw new RequestValidationError(
          [
            {
              field: "size",
              value: String(body.size),
              rule: problem ?? `must be greater than the current size of ${current} GB`,
            },
          ],
          `update network volume ${id}`,
        );
      }
    }
    return this.sendUpdate(id, body, options);
  }
}
