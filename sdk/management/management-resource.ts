import type { z } from "zod";
import type { ApiVersion } from "../config";
import { UnsupportedOperationError } from "../errors";
import { validateForVersion, validateRequest } from "../request-validation";
import type { CallOptions, Transport, TransportRequest } from "../transport";

/** Options of a v1 update: which of the two documented verbs to send. */
export interface UpdateMethodOptions extends CallOptions {
  /** `PATCH /<resource>/{id}` (default) or its synonym `POST /<resource>/{id}/update`. */
  method?: "PATCH" | "POST" | undefined;
}

/** Query parameters of a read (`?includeTemplate=true`, a list filter); undefined values are not sent. */
export type ReadQuery = Record<string, string | number | boolean | undefined>;

/**
 * Sends a management request of an operation that belongs to `version` (named `operation` in
 * errors, e.g. `v2.catalog.gpus`), after checking the client talks that version: otherwise an
 * `UnsupportedOperationError`, and nothing is sent.
 */
export function sendOnVersion<U>(
  transport: Transport,
  version: ApiVersion,
  operation: string,
  req: Omit<TransportRequest<U>, "base">,
): Promise<U> {
  const talks = transport.config.apiVersion;
  if (talks !== version) return Promise.reject(new UnsupportedOperationError(operation, talks));
  return transport.send({ ...req, base: transport.config.apiUrl, management: true });
}

/** A list query value as the v2 API takes it: arrays comma-separated (OpenAPI `style: form, explode: false`). */
export function queryList(values: readonly string[] | undefined): string | undefined {
  return values === undefined || values.length === 0 ? undefined : values.join(",");
}

/** What tells one management resource from another: where it lives and what it looks like. */
export interface ResourceDescription<T> {
  /** The management API version the resource belongs to; the client must talk that version. */
  version: ApiVersion;
  /** How callers reach it, for errors: e.g. `networkVolumes` or `v2.catalog.gpus`. */
  api: string;
  /** Collection path under the API base, e.g. `/networkvolumes`. */
  path: string;
  /** Its name in validation errors, e.g. `network volume` (`create network volume: ...`). */
  noun: string;
  /** Schema of one resource in a response. */
  schema: z.ZodType<T>;
  /** Schema of the list response (v2 lists are wrapped objects: the schema unwraps them). */
  listSchema: z.ZodType<T[]>;
  /** Schema of the create body, checked before anything is sent (none: the resource has no create). */
  createSchema?: z.ZodType | undefined;
  /**
   * Its key in `VERSION_ONLY_FIELDS`, when it takes version-neutral input: inputs only the other
   * version has are refused before sending.
   */
  versionFields?: string | undefined;
}

/**
 * The CRUD plumbing every management resource shares, on either API version: validation before
 * sending, the paths, the verbs and which of them are safe to repeat (retry-policy.ts: a create
 * is not, the others are). A resource class extends it and holds only what differs: its
 * description, its read query (`readQuery`), its update and its own operations.
 *
 * Every request goes through {@link send}, which refuses, before anything is sent, a resource of
 * one API version on a client that talks the other (an `UnsupportedOperationError` naming the
 * operation). Every method is async, so bad input (or an id `encodeURIComponent` refuses) is a
 * rejected promise, never a synchronous throw.
 *
 * @typeParam T - the resource as the API returns it
 * @typeParam C - the create input
 * @typeParam R - the options of `get` and `list` (query parameters, if the resource has any)
 */
export abstract class ManagementResource<T, C, R extends CallOptions = CallOptions> {
  constructor(
    protected readonly transport: Transport,
    protected readonly resource: ResourceDescription<T>,
  ) {}

  /**
   * Creates one (`POST /<resource>`). Not idempotent: a lost answer is not retried (a repeat
   * would create a second one; see retry-policy.ts). Bad input is a `RequestValidationError`
   * naming each field, before anything is sent.
   */
  async create(input: C, options?: CallOptions): Promise<T> {
    const body = this.createBody(input);
    return this.send("create", {
      method: "POST",
      path: this.resource.path,
      body: JSON.stringify(body),
      idempotent: false,
      schema: this.resource.schema,
      options,
    });
  }

  /** Reads one (`GET /<resource>/{id}`); a missing one is a `NotFoundError` (code `not_found`). */
  async get(id: string, options?: R): Promise<T> {
    return this.send("get", {
      method: "GET",
      path: this.itemPath(id),
      query: this.readQuery(options),
      idempotent: true,
      schema: this.resource.schema,
      options,
    });
  }

  /** Lists the account's (`GET /<resource>`). */
  async list(options?: R): Promise<T[]> {
    return this.send("list", {
      method: "GET",
      path: this.resource.path,
      query: this.readQuery(options),
      idempotent: true,
      schema: this.resource.listSchema,
      options,
    });
  }

  /** Deletes one (`DELETE /<resource>/{id}`, 200 or 204). A missing one is a `NotFoundError`. */
  async delete(id: string, options?: CallOptions): Promise<void> {
    await this.send("delete", { method: "DELETE", path: this.itemPath(id), idempotent: true, options });
  }

  /** The create body of `input`: validated with the resource's create schema, when it has one. */
  protected createBody(input: C): unknown {
    return this.resource.createSchema ? this.validated(this.resource.createSchema, input, "create") : input;
  }

  /** The query parameters of `get` and `list`; none unless the resource has some. */
  protected readQuery(_options: R | undefined): ReadQuery | undefined {
    return undefined;
  }

  /**
   * Validates `input` with `schema` or throws a `RequestValidationError` naming each field,
   * including the inputs only the other API version has.
   */
  protected validated<S extends z.ZodType>(schema: S, input: unknown, verb: string): z.infer<S> {
    const context = `${verb} ${this.resource.noun}`;
    const kind = this.resource.versionFields;
    if (kind === undefined) return validateRequest(schema, input, context);
    return validateForVersion(schema, input, context, kind, this.resource.version);
  }

  /**
   * Sends one request of operation `operation` on the management base URL, after checking the
   * client talks this resource's API version.
   */
  protected send<U>(operation: string, req: Omit<TransportRequest<U>, "base">): Promise<U> {
    return sendOnVersion(this.transport, this.resource.version, `${this.resource.api}.${operation}`, req);
  }

  /** Validates and sends a v1 update (see {@link sendUpdate}). */
  protected async updateWith(
    schema: z.ZodType,
    id: string,
    input: unknown,
    options: UpdateMethodOptions | undefined,
  ): Promise<T> {
    return this.sendUpdate(id, this.validated(schema, input, "update"), options);
  }

  /**
   * `PATCH /<resource>/{id}`, or on v1 its synonym `POST /<resource>/{id}/update`, with an already
   * validated body. Idempotent: an update sets absolute values.
   */
  protected async sendUpdate(id: string, body: unknown, options: UpdateMethodOptions | undefined): Promise<T> {
    const method = options?.method ?? "PATCH";
    return this.send("update", {
      method,
      path: `${this.itemPath(id)}${method === "POST" ? "/update" : ""}`,
      body: JSON.stringify(body),
      idempotent: true,
      schema: this.resource.schema,
      options,
    });
  }

  /** `<collection path>/<id>`, the id encoded. */
  protected itemPath(id: string): string {
    return `${this.resource.path}/${encodeURIComponent(id)}`;
  }
}
