import { z } from "zod";
import { AbortError, RequestValidationError, TimeoutError } from "../errors";
import { pollDelays, sleepUnlessAborted } from "../polling";
import { validateRequest } from "../request-validation";
import {
  type BatchAck,
  BatchAckSchema,
  type BatchChild,
  type BatchChildPage,
  BatchChildPageSchema,
  batchDone,
  type BatchListItem,
  BatchListSchema,
  BatchPageQuerySchema,
  type BatchSummary,
  BatchSummarySchema,
  type JobRequest,
} from "../schemas";
import type { CallOptions, Transport } from "../transport";
import { checkedBatchBody } from "./batch-bodies";
import type { PollOptions } from "./job-options";

/** What an answer whose shape the platform does not document is read as: any JSON object. */
const LooseAnswerSchema = z.looseObject({});

/** Options of {@link EndpointBatches.requests}: where to start, the page size, and the per-call options. */
export interface BatchPageOptions extends CallOptions {
  /** Position of the first request, from 0. Default 0. */
  offset?: number | undefined;
  /** Requests per page. Default 50 (the platform's example; its maximum is not documented). */
  limit?: number | undefined;
}

/** Options of {@link EndpointBatches.wait}: how to poll the summary, and whom to tell of each read. */
export interface BatchWaitOptions extends PollOptions {
  /** Called with every summary read, e.g. to show progress. */
  onProgress?: ((summary: BatchSummary) => void) | undefined;
}

/**
 * The batch jobs of one queue-based endpoint (`{queueUrl}/<id>/batch`, docs/client.md "Batch
 * jobs"): `client.jobs(id).batches`. A batch is created as a DRAFT (with requests or empty), takes
 * appends of at most 10 MiB each up to 5,000 requests, and runs once finalized, on the platform's
 * batch workers, apart from `/run` traffic. It is done when completed + failed = total; a failed
 * request does not fail it; FAILED and CANCELLED are its only terminal states.
 */
export class EndpointBatches {
  private readonly prefix: string;

  constructor(
    private readonly transport: Transport,
    /** The endpoint id. */
    readonly endpointId: string,
  ) {
    this.prefix = `/${encodeURIComponent(endpointId)}/batch`;
  }

  private path(batchId?: string, rest = ""): string {
    return batchId === undefined ? this.prefix : `${this.prefix}/${encodeURIComponent(batchId)}${rest}`;
  }

  private send<T>(
    method: "GET" | "POST" | "PUT" | "DELETE",
    path: string,
    schema: z.ZodType<T> | undefined,
    idempotent: boolean,
    options?: CallOptions,
    body?: string,
    query?: Record<string, number | undefined>,
  ): Promise<T> {
    const base = this.transport.config.queueUrl;
    return this.transport.send({ method, base, path, query, body, idempotent, schema, options });
  }

  private id(batchId: unknown, op: string): string {
    if (typeof batchId === "string" && batchId.trim() !== "") return batchId;
    const value = typeof batchId === "string" ? JSON.stringify(batchId) : typeof batchId;
    throw new RequestValidationError([{ field: "batchId", value, rule: "must be a batch id" }], this.context(op));
  }

  private context(op: string): string {
    return `batches.${op} on ${this.endpointId}`;
  }

  /**
   * Creates a DRAFT batch, with `requests` (`/run` bodies) or empty. At most 5,000 requests and
   * 10 MiB; more goes through {@link append}. Not retried after delivery (a repeat makes a second batch).
   */
  async create<I = Record<string, unknown>>(
    requests: readonly JobRequest<I>[] = [],
    options?: CallOptions,
  ): Promise<BatchAck> {
    const body = checkedBatchBody("create", requests, this.context("create"));
    return this.send("POST", this.path(), BatchAckSchema, false, options, body);
  }

  /**
   * Appends requests to a DRAFT batch: at most 10 MiB a call (split larger sets) and 5,000 requests
   * a batch. Answers what the platform answered (its shape is not documented). Not retried after delivery.
   */
  async append<I = Record<string, unknown>>(
    batchId: string,
    requests: readonly JobRequest<I>[],
    options?: CallOptions,
  ): Promise<Record<string, unknown>> {
    const id = this.id(batchId, "append");
    const body = checkedBatchBody("append", requests, this.context("append"));
    return this.send("POST", this.path(id, "/requests"), LooseAnswerSchema, false, options, body);
  }

  /** Locks a DRAFT batch so it runs; a DRAFT never runs. */
  async finalize(batchId: string, options?: CallOptions): Promise<BatchAck> {
    const path = this.path(this.id(batchId, "finalize"), "/finalize");
    return this.send("POST", path, BatchAckSchema, false, options);
  }

  /** The batch's summary: its state and counters (`createdAt` in epoch ms). */
  async get(batchId: string, options?: CallOptions): Promise<BatchSummary> {
    return this.send("GET", this.path(this.id(batchId, "get")), BatchSummarySchema, true, options);
  }

  /**
   * The endpoint's batches, newest first. The platform does not document this answer: a bare
   * array, or an object holding it under `batches`, `items` or `data`, is read; each batch must
   * have an `id`, the rest of the summary is kept as far as it came.
   */
  async list(options?: CallOptions): Promise<BatchListItem[]> {
    return this.send("GET", this.path(), BatchListSchema, true, options);
  }

  /**
   * Cancels a batch: its queued requests at once (not billed); running ones finish (billed), then
   * it turns CANCELLED. Safe to repeat.
   */
  async cancel(batchId: string, options?: CallOptions): Promise<BatchAck> {
    const path = this.path(this.id(batchId, "cancel"), "/cancel");
    return this.send("POST", path, BatchAckSchema, true, options);
  }

  /**
   * Updates a batch's attributes (`PUT`), such as its display name. The platform does not document
   * the body's fields: `attributes` is sent as given (the emulator takes `{ name }`), and the
   * answer is returned as it came.
   */
  async update(
    batchId: string,
    attributes: Readonly<Record<string, unknown>>,
    options?: CallOptions,
  ): Promise<Record<string, unknown>> {
    const context = this.context("update");
    const id = this.id(batchId, "update");
    const fields = validateRequest(z.record(z.string(), z.unknown()), attributes, context, "attributes");
    let body: string;
    try {
      body = JSON.stringify(fields);
    } catch (error) {
      const rule = `must be encodable as JSON (${(error as Error).message.split("\n")[0]})`;
      throw new RequestValidationError([{ field: "attributes", value: "(not JSON)", rule }], context);
    }
    return this.send("PUT", this.path(id), LooseAnswerSchema, true, options, body);
  }

  /** One page of the batch's child requests (`{ requests, total, offset, limit, hasMore }`), in the order they were added. */
  async requestsPage(batchId: string, options: BatchPageOptions = {}): Promise<BatchChildPage> {
    const { offset, limit, ...call } = options;
    const id = this.id(batchId, "requestsPage");
    const query = validateRequest(BatchPageQuerySchema, { offset, limit }, this.context("requestsPage"));
    return this.send("GET", this.path(id, "/requests"), BatchChildPageSchema, true, call, undefined, query);
  }

  /**
   * Every child request of the batch, page by page (following `hasMore`), as an async iterator:
   * `for await (const request of batches.requests(id)) ...`. Reads the next page only when the
   * caller has taken the previous one.
   */
  async *requests(batchId: string, options: BatchPageOptions = {}): AsyncGenerator<BatchChild, void, undefined> {
    let offset = options.offset ?? 0;
    for (;;) {
      const page = await this.requestsPage(batchId, { ...options, offset });
      yield* page.requests;
      if (!page.hasMore || page.requests.length === 0) return;
      offset += page.requests.length;
    }
  }

  /** Removes one request from a DRAFT batch. */
  async removeRequest(batchId: string, requestId: string, options?: CallOptions): Promise<void> {
    const id = this.id(batchId, "removeRequest");
    const child = this.id(requestId, "removeRequest");
    await this.send("DELETE", this.path(id, `/requests/${encodeURIComponent(child)}`), undefined, true, options);
  }

  /**
   * Polls the summary until the batch is done (completed + failed = total) or ended (FAILED,
   * CANCELLED), under a deadline (default 24 h: batches take hours on the platform), and answers
   * the last summary. A DRAFT is waited on like any batch: finalize it first.
   */
  async wait(batchId: string, options: BatchWaitOptions = {}): Promise<BatchSummary> {
    const timeoutMs = options.timeoutMs ?? 86_400_000;
    const deadline = Date.now() + timeoutMs;
    const delays = pollDelays(options);
    const request = { method: "GET", path: this.path(batchId) };
    for (;;) {
      const summary = await this.get(batchId, { signal: options.signal });
      options.onProgress?.(summary);
      if (batchDone(summary)) return summary;
      const left = deadline - Date.now();
      if (left <= 0) throw new TimeoutError(request, timeoutMs);
      if (!(await sleepUnlessAborted(Math.min(delays.next(), left), options.signal))) throw new AbortError(request);
    }
  }
}
