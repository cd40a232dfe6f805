import type { Transport } from "../../transport";
import { BillingV1 } from "./billing";
import { ContainerRegistryAuthsV1 } from "./container-registry-auths";
import { EndpointsV1 } from "./endpoints";
import { NetworkVolumesV1 } from "./network-volumes";
import { PodsV1 } from "./pods";
import { TemplatesV1 } from "./templates";

/**
 * Management API v1 (`https://rest.runpod.io/v1`), in its own shapes: `client.v1`. Its
 * resources take and return the version-neutral shapes (v1's own), plus what only v1 has (the
 * `POST .../update` synonym, the template read flags, pod `reset`). On a client whose `apiUrl`
 * names v2, every call is an `UnsupportedOperationError`, before anything is sent.
 */
export class ManagementV1 {
  /** `/networkvolumes`. */
  readonly networkVolumes: NetworkVolumesV1;
  /** `/endpoints`. */
  readonly endpoints: EndpointsV1;
  /** `/templates`. */
  readonly templates: TemplatesV1;
  /** `/containerregistryauth`. */
  readonly containerRegistryAuth: ContainerRegistryAuthsV1;
  /** `/pods`. */
  readonly pods: PodsV1;
  /** `/billing/pods`, `/billing/endpoints`, `/billing/networkvolumes`. */
  readonly billing: BillingV1;

  constructor(transport: Transport) {
    this.networkVolumes = new NetworkVolumesV1(transport);
    this.endpoints = new EndpointsV1(transport);
    this.templates = new TemplatesV1(transport);
    this.containerRegistryAuth = new ContainerRegistryAuthsV1(transport);
    this.pods = new PodsV1(transport);
    this.billing = new BillingV1(transport);
  }
}
