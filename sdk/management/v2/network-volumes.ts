import * as V2 from "../../schemas/v2";
import type { CallOptions, Transport } from "../../transport";
import { PagedResourceV2 } from "./paged-resource";

/**
 * Network volumes of management API v2 (`/v2/network-volumes`), in v2's own shapes: `create`,
 * `get`, `list` (unwrapped from `{"networkVolumes": [...]}`), `update` (`PATCH`: name and/or size,
 * which may not shrink), `delete`. The version-neutral operations (`client.networkVolumes`) are
 * built on these.
 */
export class NetworkVolumesV2 extends PagedResourceV2<V2.NetworkVolume, V2.CreateNetworkVolumeRequest> {
  constructor(transport: Transport) {
    super(
      transport,
      {
        version: "v2",
        api: "v2.networkVolumes",
        path: "/network-volumes",
        noun: "network volume",
        schema: V2.NetworkVolumeSchema,
        listSchema: V2.NetworkVolumeListSchema,
        createSchema: V2.CreateNetworkVolumeRequestSchema,
      },
      "networkVolumes",
    );
  }

  /** `PATCH /v2/network-volumes/{id}`: only the given fields change. */
  async update(id: string, input: V2.UpdateNetworkVolumeRequest, options?: CallOptions): Promise<V2.NetworkVolume> {
    return this.sendUpdate(id, this.validated(V2.UpdateNetworkVolumeRequestSchema, input, "update"), options);
  }
}
