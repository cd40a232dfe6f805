import type { z } from "zod";
import { validateRequest } from "../request-validation";
import type { CallOptions, Transport } from "../transport";

/** Options of an update: which of the two documented verbs to send. */
export interface UpdateMethodOptions extends CallOptions {
  /** `PATCH /<resource>/{id}` (default) or its synonym `POST /<resource>/{id}/update`. */
  method?: "PATCH" | "POST" | undefined;
}

/** Query flags of a read (`?includeTemplate=true` and the like); undefined flags are not sent. */
export type ReadQuery = Record<string, boolean | undefined>;

/** What tells one management resource from another: where it lives and what it looks like. */
export interface ResourceDescription<T> {
  /** Collection path under the API base, e.g. `/networkvolumes`. */
  path: string;
  /** Its name in validation errors, e.g. `network volume` (`create network volume: ...`). */
  noun: string;
  /** Schema of one resource in a response. */
  schema: z.ZodType<T>;
  /** Schema of the list response. */
  listSchema: z.ZodType<T[]>;
  /** Schema of the create body, checked before anything is sent. */
  createSchema: z.ZodType;
}

/**
 * The CRUD plumbing every management resource shares: validation before sending, the paths, the
 * verbs and which of them are safe to repeat (retry-policy.ts: a create is not, the others are).
 * A resource class extends it and holds only what differs: its description, its read flags
 * (`readQuery`), its update (if the platform has one) and its own rules (such as the
 * size-only-grows rule of network volumes).
 *
 * Every method is async, so bad input (or an id `encodeURIComponent` refuses) is a rejected
 * promise, never a synchronous throw.
 *
 * @typeParam T - the resource as the API returns it
 * @typeParam C - the create input
 * @typeParam R - the options of `get` and `list` (query flags, if the resource has any)
 */
export abstract class ManagementResource<T, C, R extends CallOptions = CallOptions> {
  constructor(
    protected readonly transport: Transport,
    private readonly resource: ResourceDescription<T>,
  ) {}

  /**
   * Creates one (`POST /<resource>`). Not idempotent: a lost answer is not retried (a repeat
   * would create a second one; see retry-policy.ts). Bad input is a `RequestValidationError`
   * naming each field, before anything is sent.
   */
  async create(input: C, options?: CallOptions): Promise<T> {
    const body = this.validated(this.resource.createSchema, input, "create");
    return this.transport.send({
      method: "POST",
      base: this.transport.config.apiUrl,
      path: this.resource.path,
      body: JSON.stringify(body),
      idempotent: false,
      schema: this.resource.schema,
      options,
    });
  }

  /** Reads one (`GET /<resource>/{id}`); a missing one is a `NotFoundError` (code `not_found`). */
  async get(id: string, options?: R): Promise<T> {
    return this.transport.send({
      method: "GET",
      base: this.transport.config.apiUrl,
      path: this.itemPath(id),
      query: this.readQuery(options),
      idempotent: true,
      schema: this.resource.schema,
      options,
    });
  }

  /** Lists the account's (`GET /<resource>`). */
  async list(options?: R): Promise<T[]> {
    return this.transport.send({
      method: "GET",
      base: this.transport.config.apiUrl,
      path: this.resource.path,
      query: this.readQuery(options),
      idempotent: true,
      schema: this.resource.listSchema,
      options,
    });
  }

  /** Deletes one (`DELETE /<resource>/{id}`, 200 or 204). A missing one is a `NotFoundError`. */
  async delete(id: string, options?: CallOptions): Promise<void> {
    await this.transport.send({
      method: "DELETE",
      base: this.transport.config.apiUrl,
      path: this.itemPath(id),
      idempotent: true,
      options,
    });
  }

  /** The query flags of `get` and `list`; none unless the resource has some. */
  protected readQuery(_options: R | undefined): ReadQuery | undefined {
    return undefined;
  }

  /** Validates `input` with `schema` or throws a `RequestValidationError` naming each field. */
  protected validated<S extends z.ZodType>(schema: S, input: unknown, verb: "create" | "update"): z.infer<S> {
    return validateRequest(schema, input, `${verb} ${this.resource.noun}`);
  }

  /** Validates and sends an update (see {@link sendUpdate}). */
  protected async updateWith(
    schema: z.ZodType,
    id: string,
    input: unknown,
    options: UpdateMethodOptions | undefined,
  ): Promise<T> {
    return this.sendUpdate(id, this.validated(schema, input, "update"), options);
  }

  /**
   * `PATCH /<resource>/{id}` or `POST /<resource>/{id}/update` with an already validated body.
   * Idempotent: an update sets absolute values.
   */
  protected async sendUpdate(id: string, body: unknown, options: UpdateMethodOptions | undefined): Promise<T> {
    const method = options?.method ?? "PATCH";
    return this.transport.send({
      method,
      base: this.transport.config.apiUrl,
      path: `${this.itemPath(id)}${method === "POST" ? "/update" : ""}`,
      body: JSON.stringify(body),
      idempotent: true,
      schema: this.resource.schema,
      options,
    });
  }

  private itemPath(id: string): string {
    return `${this.resource.path}/${encodeURIComponent(id)}`;
  }
}
