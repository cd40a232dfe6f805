import type { Transport } from "../../transport";
import { AccountV2 } from "./account";
import { BillingV2 } from "./billing";
import { CatalogV2 } from "./catalog";
import { ClustersV2 } from "./clusters";
import { NetworkVolumesV2 } from "./network-volumes";
import { RegistriesV2 } from "./registries";
import { ServerlessV2 } from "./serverless";
import { TemplatesV2 } from "./templates";
import { PodsV2 } from "./pods";

/**
 * Management API v2 (`https://api.runpod.io/v2`), in its own shapes (`V2.*` schemas): `client.v2`.
 * On a client whose `apiUrl` names v1, every call is an `UnsupportedOperationError`, before
 * anything is sent.
 */
export class ManagementV2 {
  /** `/v2/network-volumes`. */
  readonly networkVolumes: NetworkVolumesV2;
  /** `/v2/catalog/...`: GPU types, CPU flavors, data centers, public templates. */
  readonly catalog: CatalogV2;
  /** `/v2/serverless`: endpoints, their workers, releases and worker logs. */
  readonly serverless: ServerlessV2;
  /** `/v2/templates`. */
  readonly templates: TemplatesV2;
  /** `/v2/registries`, with its ECR `delegations`. */
  readonly registries: RegistriesV2;
  /** `/v2/pods`: pods, their `action`s and `logs`. */
  readonly pods: PodsV2;
  /** `/v2/clusters`: groups of GPU pods in one data center. */
  readonly clusters: ClustersV2;
  /** `/v2/billing/...`: spend, aggregated and per kind. */
  readonly billing: BillingV2;
  /** `/v2/account/...`: the account's SSH keys and secrets. */
  readonly account: AccountV2;

  constructor(transport: Transport) {
    this.networkVolumes = new NetworkVolumesV2(transport);
    this.catalog = new CatalogV2(transport);
    this.serverless = new ServerlessV2(transport);
    this.templates = new TemplatesV2(transport);
    this.registries = new RegistriesV2(transport);
    this.pods = new PodsV2(transport);
    this.clusters = new ClustersV2(transport);
    this.billing = new BillingV2(transport);
    this.account = new AccountV2(transport);
  }
}
