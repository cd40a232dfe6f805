import {
  type Endpoint,
  type EndpointCreateInput,
  EndpointCreateInputSchema,
  EndpointListSchema,
  EndpointSchema,
  type EndpointUpdateInput,
  EndpointUpdateInputSchema,
} from "../../schemas";
import type { CallOptions, Transport } from "../../transport";
import { ManagementResource, type ReadQuery, type UpdateMethodOptions } from "../management-resource";

/** Options of {@link EndpointsV1.get} and {@link EndpointsV1.list}. */
export interface EndpointReadOptions extends CallOptions {
  /** Include the endpoint's template. */
  includeTemplate?: boolean | undefined;
  /** Include the endpoint's workers. */
  includeWorkers?: boolean | undefined;
}

/** Options of {@link EndpointsV1.update}: `method` picks `PATCH` (default) or `POST .../update`. */
export type EndpointUpdateOptions = UpdateMethodOptions;

/**
 * A version-neutral endpoint input as v1's body: v1 has no `type` (every v1 endpoint is a queue,
 * so `QUEUE` is sent as nothing) and takes flash boot as a boolean (`FLASHBOOT` is `true`, `OFF`
 * is `false`). The v2-only values were refused before (`VERSION_ONLY_FIELDS.endpoint`).
 */
export function endpointBodyV1<T extends { type?: string | undefined; flashboot?: boolean | string | undefined }>(
  input: T,
): Omit<T, "type"> {
  const { type: _queue, ...body } = input;
  if (typeof body.flashboot === "string") body.flashboot = body.flashboot !== "OFF";
  return body;
}

/**
 * Serverless endpoints of the management API (`/v1/endpoints`): `create`, `get` and `list` (with
 * `includeTemplate` / `includeWorkers`), `update`, `delete`. Its inputs are the version-neutral
 * ones; v2's own values (`type: "LOAD_BALANCER"`, GPU pools, `PRIORITY_FLASHBOOT`) are refused
 * before sending.
 */
export class EndpointsV1 extends ManagementResource<Endpoint, EndpointCreateInput, EndpointReadOptions> {
  constructor(transport: Transport) {
    super(transport, {
      version: "v1",
      api: "v1.endpoints",
      path: "/endpoints",
      noun: "endpoint",
      schema: EndpointSchema,
      listSchema: EndpointListSchema,
      createSchema: EndpointCreateInputSchema,
      versionFields: "endpoint",
    });
  }

  /** Updates an endpoint in place (a rolling release on the platform). */
  async update(id: string, input: EndpointUpdateInput, options?: EndpointUpdateOptions): Promise<Endpoint> {
    return this.sendUpdate(id, endpointBodyV1(this.validated(EndpointUpdateInputSchema, input, "update")), options);
  }

  protected override createBody(input: EndpointCreateInput): unknown {
    return endpointBodyV1(this.validated(EndpointCreateInputSchema, input, "create"));
  }

  protected override readQuery(o: EndpointReadOptions | undefined): ReadQuery {
    return { includeTemplate: o?.includeTemplate, includeWorkers: o?.includeWorkers };
  }
}
