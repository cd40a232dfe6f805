import { RequestValidationError } from "../errors";
import { BatchRequestSchema, fieldProblems, LIMITS } from "../schemas";

/*
 * The bodies of batch creates and appends, checked before anything is sent: each request valid
 * and encodable as JSON, at most 5,000 requests, at most 10 MiB a body. Pure functions, shared by
 * `jobs.batches` and `submitMany`'s batch path.
 */

/** Bytes of an append body around its requests: `{"requests":[` and `]}`, and of a create's `[` `]`. */
export const APPEND_FRAME_BYTES = Buffer.byteLength('{"requests":[]}');
const CREATE_FRAME_BYTES = 2;

/**
 * One request as it goes into a batch body: validated as a `/run` body and serialized once. A
 * RequestValidationError names `<field>.<i>` and what is wrong (an input that is not JSON: a
 * BigInt, a cycle).
 */
export function serializeBatchRequest(request: unknown, field: string, context: string): string {
  const parsed = BatchRequestSchema.safeParse(request);
  if (!parsed.success) {
    const problems = fieldProblems(parsed.error, request).map((p) => ({
      ...p,
      field: p.field ? `${field}.${p.field}` : field,
    }));
    throw new RequestValidationError(problems, context);
  }
  const valid = parsed.data;
  let text: string | undefined;
  try {
    text = JSON.stringify(valid);
  } catch (error) {
    const why = error instanceof Error ? error.message.split("\n")[0] : String(error);
    throw new RequestValidationError(
      [{ field: `${field}.input`, value: "(not JSON)", rule: `must be encodable as JSON (${why})` }],
      context,
    );
  }
  return text;
}

/** The body of an append (`{"requests":[...]}`) or a create (`[...]`) from serialized requests. */
export function batchBody(kind: "append" | "create", requests: readonly string[]): string {
  const list = `[${requests.join(",")}]`;
  return kind === "create" ? list : `{"requests":${list}}`;
}

/**
 * Checks and serializes the requests of one create or append, refusing before any request: not
 * an array, more than a batch holds, a request that is invalid or not JSON, a body over 10 MiB
 * (split it). Answers the body to send.
 */
export function checkedBatchBody(kind: "append" | "create", requests: unknown, context: string): string {
  if (!Array.isArray(requests)) {
    const value = requests === null ? "null" : typeof requests;
    throw new RequestValidationError([{ field: "requests", value, rule: "must be an array of job requests" }], context);
  }
  if (kind === "append" && requests.length === 0) {
    throw new RequestValidationError(
      [{ field: "requests", value: "[]", rule: "must hold at least one request" }],
      context,
    );
  }
  if (requests.length > LIMITS.batchRequests) {
    const rule = `a batch holds at most ${LIMITS.batchRequests} requests: put the rest into another batch`;
    throw new RequestValidationError([{ field: "requests", value: `${requests.length} requests`, rule }], context);
  }
  const texts = requests.map((r: unknown, i) => serializeBatchRequest(r, `requests.${i}`, context));
  const bytes = texts.reduce(
    (sum, t) => sum + Buffer.byteLength(t),
    (kind === "append" ? APPEND_FRAME_BYTES : CREATE_FRAME_BYTES) + Math.max(0, texts.length - 1),
  );
  if (bytes > LIMITS.batchAppendBytes) {
    const split =
      kind === "append" ? "split the requests into several appends" : "create it with fewer and append the rest";
    const rule = `the body must be at most ${LIMITS.batchAppendBytes} bytes (10 MiB): ${split}`;
    throw new RequestValidationError([{ field: "requests", value: `${bytes} bytes`, rule }], context);
  }
  return batchBody(kind, texts);
}

/**
 * Collects serialized requests into append bodies within the limits: at most `maxRequests` and
 * 10 MiB a body. `add` answers false when the request does not fit the part being built (take it,
 * then add again); a request too large for any append is refused by `fits`.
 */
export class AppendPart {
  private texts: string[] = [];
  private bytes = APPEND_FRAME_BYTES;

  constructor(private readonly maxRequests: number) {}

  /** Requests in the part. */
  get size(): number {
    return this.texts.length;
  }

  /** Whether one request of `bytes` fits an empty append at all. */
  static fits(bytes: number): boolean {
    return APPEND_FRAME_BYTES + bytes <= LIMITS.batchAppendBytes;
  }

  /** Adds a request to the part; false (and nothing added) when it would pass a limit. */
  add(text: string, bytes = Buffer.byteLength(text)): boolean {
    const more = bytes + (this.texts.length > 0 ? 1 : 0);
    if (this.texts.length >= this.maxRequests || this.bytes + more > LIMITS.batchAppendBytes) return false;
    this.texts.push(text);
    this.bytes += more;
    return true;
  }

  /** The part's append body; the part is empty afterwards. */
  take(): { body: string; count: number } {
    const body = batchBody("append", this.texts);
    const count = this.texts.length;
    this.texts = [];
    this.bytes = APPEND_FRAME_BYTES;
    return { body, count };
  }
}
