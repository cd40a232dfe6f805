import type { Transport } from "../../transport";
import { NetworkVolumesV2 } from "./network-volumes";

/**
 * Management API v2 (`https://api.runpod.io/v2`), in its own shapes (`V2.*` schemas): `client.v2`.
 * On a client whose `apiUrl` names v1, every call is an `UnsupportedOperationError`, before
 * anything is sent.
 */
export class ManagementV2 {
  /** `/v2/network-volumes`. */
  readonly networkVolumes: NetworkVolumesV2;

  constructor(transport: Transport) {
    this.networkVolumes = new NetworkVolumesV2(transport);
  }
}
