import * as V2 from "../../schemas/v2";
import type { CallOptions, Transport } from "../../transport";
import { validateRequest } from "../../request-validation";
import { sendOnVersion } from "../management-resource";
import type { PageOptions } from "../paged-list";
import { PagedResourceV2, readEveryPage } from "./paged-resource";

const PATH = "/registries/delegations";
const DELEGATIONS_PAGE = V2.pagedList("delegations", V2.EcrDelegationSchema);

/**
 * ECR pull delegations of management API v2 (`/v2/registries/delegations`): `list`, `create`
 * (from an ECR repository's ARN), `revoke`. There is no read of one delegation.
 */
export class EcrDelegationsV2 {
  constructor(private readonly transport: Transport) {}

  /** `GET /v2/registries/delegations`, unwrapped from `{"delegations": [...]}`, every page of them. */
  list(options?: PageOptions): Promise<V2.EcrDelegation[]> {
    return readEveryPage(this.transport, "v2.registries.delegations.list", PATH, DELEGATIONS_PAGE, undefined, options);
  }

  /** `POST /v2/registries/delegations` (`resource`: the ECR repository's ARN). Not idempotent. */
  async create(input: V2.CreateDelegationRequest, options?: CallOptions): Promise<V2.EcrDelegation> {
    const body = validateRequest(V2.CreateDelegationRequestSchema, input, "create ECR delegation");
    return sendOnVersion(this.transport, "v2", "v2.registries.delegations.create", {
      method: "POST",
      path: PATH,
      body: JSON.stringify(body),
      idempotent: false,
      schema: V2.EcrDelegationSchema,
      options,
    });
  }

  /** `DELETE /v2/registries/delegations/{id}`; a missing one is a `NotFoundError`. */
  async revoke(id: string, options?: CallOptions): Promise<void> {
    await sendOnVersion(this.transport, "v2", "v2.registries.delegations.revoke", {
      method: "DELETE",
      path: `${PATH}/${encodeURIComponent(id)}`,
      idempotent: true,
      options,
    });
  }
}

/**
 * Registry credentials of management API v2 (`/v2/registries`): `create`, `get`, `list`
 * (unwrapped from `{"registries": [...]}`), `delete`; the username and password are write-only,
 * and there is no update. `delegations` holds the ECR delegations. Templates that use a deleted
 * credential lose it (their `registry` becomes null) rather than blocking the delete.
 */
export class RegistriesV2 extends PagedResourceV2<V2.Registry, V2.CreateRegistryRequest> {
  /** `/v2/registries/delegations`. */
  readonly delegations: EcrDelegationsV2;

  constructor(transport: Transport) {
    super(
      transport,
      {
        version: "v2",
        api: "v2.registries",
        path: "/registries",
        noun: "registry",
        schema: V2.RegistrySchema,
        listSchema: V2.RegistryListSchema,
        createSchema: V2.CreateRegistryRequestSchema,
      },
      "registries",
    );
    this.delegations = new EcrDelegationsV2(transport);
  }
}
