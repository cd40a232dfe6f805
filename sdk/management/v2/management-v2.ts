import type { Transport } from "../../transport";
import { CatalogV2 } from "./catalog";
import { NetworkVolumesV2 } from "./network-volumes";

/**
 * Management API v2 (`https://api.runpod.io/v2`), in its own shapes (`V2.*` schemas): `client.v2`.
 * On a client whose `apiUrl` names v1, every call is an `UnsupportedOperationError`, before
 * anything is sent.
 */
export class ManagementV2 {
  /** `/v2/network-volumes`. */
  readonly networkVolumes: NetworkVolumesV2;
  /** `/v2/catalog/...`: GPU types, CPU flavors, data centers. */
  readonly catalog: CatalogV2;

  constructor(transport: Transport) {
    this.networkVolumes = new NetworkVolumesV2(transport);
    this.catalog = new CatalogV2(transport);
  }
}
