import * as V2 from "../../schemas/v2";
import { UnsupportedOperationError } from "../../errors";
import type { CallOptions, Transport, TransportRequest } from "../../transport";
import { PagedResourceV2 } from "./paged-resource";

/** Why a secrets operation fails on a client that talks v1. */
const NOT_ON_V1 = "management API v1 has no account secrets; point apiUrl at a /v2 URL to manage them";

/**
 * The account's secrets (`/v2/account/secrets`): `list`, `create`, `get`, `update` (a new
 * description, or a new value: a rotation) and `delete`. The value is write-only: no answer holds
 * it and no error repeats it. An env value of a pod, an endpoint or a template refers to a secret
 * as `{{ RUNPOD_SECRET_<name> }}` (`V2.secretReference(name)`); the platform puts the value in
 * when the pod or worker starts, so a rotation reaches each the next time it starts.
 *
 * Management API v1 has no secrets: on a client that talks v1, every operation fails before
 * anything is sent (or validated) with an `UnsupportedOperationError` naming the operation and v1.
 */
export class SecretsV2 extends PagedResourceV2<V2.Secret, V2.CreateSecretRequest> {
  constructor(transport: Transport) {
    super(
      transport,
      {
        version: "v2",
        api: "v2.account.secrets",
        path: "/account/secrets",
        noun: "secret",
        schema: V2.SecretSchema,
        listSchema: V2.SecretListSchema,
        createSchema: V2.CreateSecretRequestSchema,
      },
      "secrets",
    );
  }

  /**
   * `POST /v2/account/secrets`: a new secret (`name` unique in the account, `value`, optional
   * `description`). Not idempotent. The rules (name pattern and length, the reserved `RUNPOD`
   * prefix, the value under 16 MiB, the description at most 65,535 bytes) are checked first.
   */
  override async create(input: V2.CreateSecretRequest, options?: CallOptions): Promise<V2.Secret> {
    this.refuseOnV1("create");
    return super.create(input, options);
  }

  /**
   * `PATCH /v2/account/secrets/{id}`: `{ value }` rotates the value (pods and workers get it the
   * next time they start), `{ description }` replaces the description (`""` clears it). The name
   * cannot change.
   */
  async update(id: string, input: V2.UpdateSecretRequest, options?: CallOptions): Promise<V2.Secret> {
    this.refuseOnV1("update");
    return this.sendUpdate(id, this.validated(V2.UpdateSecretRequestSchema, input, "update"), options);
  }

  /** Refuses, before anything is validated or sent, an operation on a client that talks v1. */
  private refuseOnV1(operation: string): void {
    const talks = this.transport.config.apiVersion;
    if (talks !== "v2") throw new UnsupportedOperationError(`v2.account.secrets.${operation}`, talks, NOT_ON_V1);
  }

  /** Every request of this class (each caller is async, so a refusal is a rejected promise); on v1 the refusal says why. */
  protected override send<U>(operation: string, req: Omit<TransportRequest<U>, "base">): Promise<U> {
    this.refuseOnV1(operation);
    return super.send(operation, req);
  }
}
