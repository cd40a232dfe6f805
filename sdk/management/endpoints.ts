import { validateRequest } from "../request-validation";
import {
  type Endpoint,
  type EndpointCreateInput,
  EndpointCreateInputSchema,
  EndpointListSchema,
  EndpointSchema,
  type EndpointUpdateInput,
  EndpointUpdateInputSchema,
} from "../schemas";
import type { CallOptions, Transport } from "../transport";

/** Options of {@link Endpoints.get} and {@link Endpoints.list}. */
export interface EndpointReadOptions extends CallOptions {
  /** Include the endpoint's template. */
  includeTemplate?: boolean | undefined;
  /** Include the endpoint's workers. */
  includeWorkers?: boolean | undefined;
}

/** Options of {@link Endpoints.update}. */
export interface EndpointUpdateOptions extends CallOptions {
  /** `PATCH /endpoints/{id}` (default) or its synonym `POST /endpoints/{id}/update`. */
  method?: "PATCH" | "POST" | undefined;
}

/** Serverless endpoints of the management API (`/v1/endpoints`). */
export class Endpoints {
  constructor(private readonly transport: Transport) {}

  private get base() {
    return this.transport.config.apiUrl;
  }

  /** Creates an endpoint. Not idempotent: a lost answer is not retried (see retry-policy.ts). */
  async create(input: EndpointCreateInput, options?: CallOptions): Promise<Endpoint> {
    const body = validateRequest(EndpointCreateInputSchema, input, "create endpoint");
    return this.transport.send({
      method: "POST",
      base: this.base,
      path: "/endpoints",
      body: JSON.stringify(body),
      idempotent: false,
      schema: EndpointSchema,
      options,
    });
  }

  /** Reads one endpoint; a missing one is a `NotFoundError`. */
  async get(id: string, options?: EndpointReadOptions): Promise<Endpoint> {
    return this.transport.send({
      method: "GET",
      base: this.base,
      path: `/endpoints/${encodeURIComponent(id)}`,
      query: { includeTemplate: options?.includeTemplate, includeWorkers: options?.includeWorkers },
      idempotent: true,
      schema: EndpointSchema,
      options,
    });
  }

  /** Lists the account's endpoints. */
  async list(options?: EndpointReadOptions): Promise<Endpoint[]> {
    return this.transport.send({
      method: "GET",
      base: this.base,
      path: "/endpoints",
      query: { includeTemplate: options?.includeTemplate, includeWorkers: options?.includeWorkers },
      idempotent: true,
      schema: EndpointListSchema,
      options,
    });
  }

  /** Updates an endpoint in place (a rolling release on the platform). */
  async update(id: string, input: EndpointUpdateInput, options?: EndpointUpdateOptions): Promise<Endpoint> {
    const body = validateRequest(EndpointUpdateInputSchema, input, "update endpoint");
    const method = options?.method ?? "PATCH";
    return this.transport.send({
      method,
      base: this.base,
      path: `/endpoints/${encodeURIComponent(id)}${method === "POST" ? "/update" : ""}`,
      body: JSON.stringify(body),
      idempotent: true,
      schema: EndpointSchema,
      options,
    });
  }

  /** Deletes an endpoint (200 or 204). A missing one is a `NotFoundError`. */
  async delete(id: string, options?: CallOptions): Promise<void> {
    await this.transport.send({
      method: "DELETE",
      base: this.base,
      path: `/endpoints/${encodeURIComponent(id)}`,
      idempotent: true,
      options,
    });
  }
}
