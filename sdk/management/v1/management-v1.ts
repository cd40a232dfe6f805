import type { Transport } from "../../transport";
import { BillingV1 } from "./billing";
import { ContainerRegistryAuths } from "./container-registry-auths";
import { Endpoints } from "./endpoints";
import { NetworkVolumes } from "./network-volumes";
import { Pods } from "./pods";
import { Templates } from "./templates";

/**
 * Management API v1 (`https://rest.runpod.io/v1`), in its own shapes: `client.v1`. Its
 * resources take and return the version-neutral shapes (v1's own), plus what only v1 has (the
 * `POST .../update` synonym, the template read flags, pod `reset`). On a client whose `apiUrl`
 * names v2, every call is an `UnsupportedOperationError`, before anything is sent.
 */
export class ManagementV1 {
  /** `/networkvolumes`. */
  readonly networkVolumes: NetworkVolumes;
  /** `/endpoints`. */
  readonly endpoints: Endpoints;
  /** `/templates`. */
  readonly templates: Templates;
  /** `/containerregistryauth`. */
  readonly containerRegistryAuth: ContainerRegistryAuths;
  /** `/pods`. */
  readonly pods: Pods;
  /** `/billing/pods`, `/billing/endpoints`, `/billing/networkvolumes`. */
  readonly billing: BillingV1;

  constructor(transport: Transport) {
    this.networkVolumes = new NetworkVolumes(transport);
    this.endpoints = new Endpoints(transport);
    this.templates = new Templates(transport);
    this.containerRegistryAuth = new ContainerRegistryAuths(transport);
    this.pods = new Pods(transport);
    this.billing = new BillingV1(transport);
  }
}
