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

/** Options of {@link Endpoints.get} and {@link Endpoints.list}. */
export interface EndpointReadOptions extends CallOptions {
  /** Include the endpoint's template. */
  includeTemplate?: boolean | undefined;
  /** Include the endpoint's workers. */
  includeWorkers?: boolean | undefined;
}

/** Options of {@link Endpoints.update}: `method` picks `PATCH` (default) or `POST .../update`. */
export type EndpointUpdateOptions = UpdateMethodOptions;

/**
 * Serverless endpoints of the management API (`/v1/endpoints`): `create`, `get` and `list` (with
 * `includeTemplate` / `includeWorkers`), `update`, `delete`.
 */
export class Endpoints extends ManagementResource<Endpoint, EndpointCreateInput, EndpointReadOptions> {
  constructor(transport: Transport) {
    super(transport, {
      version: "v1",
      api: "v1.endpoints",
      path: "/endpoints",
      noun: "endpoint",
      schema: EndpointSchema,
      listSchema: EndpointListSchema,
      createSchema: EndpointCreateInputSchema,
    });
  }

  /** Updates an endpoint in place (a rolling release on the platform). */
  update(id: string, input: EndpointUpdateInput, options?: EndpointUpdateOptions): Promise<Endpoint> {
    return this.updateWith(EndpointUpdateInputSchema, id, input, options);
  }

  protected override readQuery(o: EndpointReadOptions | undefined): ReadQuery {
    return { includeTemplate: o?.includeTemplate, includeWorkers: o?.includeWorkers };
  }
}
