import { RequestValidationError } from "../errors";
import {
  type NetworkVolume,
  type NetworkVolumeCreateInput,
  NetworkVolumeCreateInputSchema,
  NetworkVolumeListSchema,
  NetworkVolumeSchema,
  type NetworkVolumeUpdateInput,
  NetworkVolumeUpdateInputSchema,
  volumeSizeChangeProblem,
} from "../schemas";
import type { Transport } from "../transport";
import { ManagementResource, type UpdateMethodOptions } from "./management-resource";

/** Options of {@link NetworkVolumes.update}. */
export interface VolumeUpdateOptions extends UpdateMethodOptions {
  /**
   * The volume's current size, when the caller knows it. The size-only-grows rule is checked
   * against it before any request; without it, the client reads the volume first.
   */
  currentSize?: number | undefined;
}

/** Network volumes of the management API (`/v1/networkvolumes`): `create`, `get`, `list`, `update`, `delete`. */
export class NetworkVolumes extends ManagementResource<NetworkVolume, NetworkVolumeCreateInput> {
  constructor(transport: Transport) {
    super(transport, {
      path: "/networkvolumes",
      noun: "network volume",
      schema: NetworkVolumeSchema,
      listSchema: NetworkVolumeListSchema,
      createSchema: NetworkVolumeCreateInputSchema,
    });
  }

  /**
   * Renames and/or grows a volume. A size that does not grow is refused here, before the update
   * is sent (spec: "size in an update must exceed the current size").
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
