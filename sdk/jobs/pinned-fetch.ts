import { RequestValidationError } from "../errors";
import { renderValue } from "../schemas";
import { dispatcherFetch } from "./dispatcher-fetch";

/** The header naming a load-balancing endpoint's worker: on every answer, and on a request to pin it. */
export const WORKER_ID_HEADER = "x-runpod-worker-id";

/**
 * What a worker id looks like: a pod id (lowercase letters and digits on the platform); letters,
 * digits, `-` and `_` are accepted, up to 128 characters. Above all no space, which the header's
 * `strict <id>` form could not carry.
 */
const WORKER_ID = /^[A-Za-z0-9][A-Za-z0-9_-]{0,127}$/;

/** How a pinned session asks for its worker. */
export type PinMode = "soft" | "strict" | "strict-resume";

/** Options of `RunpodClient.pinnedFetch`. */
export interface PinnedFetchOptions {
  /**
   * The worker to start pinned to: the `X-Runpod-Worker-Id` of an earlier answer. Default: none,
   * so the first request is routed normally and the session pins to the worker that answered it.
   */
  worker?: string | undefined;
  /**
   * `"soft"` (default): prefer the worker, and let the platform route elsewhere when it is busy or
   * gone (the session then follows the worker that answered). `"strict"`: only that worker; a
   * request waits up to about 5 minutes while it is at capacity (then 400), and a worker that left
   * the active set is a 404 `affinity_worker_gone`. `"strict-resume"`: as strict, but a worker that
   * scaled down is resumed (404 only when it is gone for good).
   */
  mode?: PinMode | undefined;
  /** Sends each request (default: undici's own dispatch, as `openAiFetch()`). */
  fetch?: typeof fetch | undefined;
}

/** A `fetch` whose requests go to one worker of a load-balancing endpoint (docs/client.md "Worker affinity"). */
export interface PinnedFetch {
  /** Sends a request as `fetch` does, pinned. */
  (input: string | URL | Request, init?: RequestInit): Promise<Response>;
  /** The worker the session is pinned to; undefined before its first answer (or after `unpin`). */
  readonly workerId: string | undefined;
  /**
   * Why the last answer was a pin's refusal, under a strict pin: `"worker_gone"` (404
   * `affinity_worker_gone`: the pin is dropped, the next request is routed normally) or
   * `"worker_timeout"` (400: the worker stayed at capacity; the pin stays). Undefined otherwise.
   */
  readonly refusal: AffinityRefusal | undefined;
  /** Drops the pin: the next request is routed normally, and the session pins to whoever answers it. End a session with it. */
  unpin(): void;
}

/** A strict pin's refusal: its worker left the active set, or stayed at capacity too long. */
export type AffinityRefusal = "worker_gone" | "worker_timeout";

/**
 * The refusal an answer to a strictly pinned request is, read from its body: 404 with
 * `affinity_worker_gone`, or 400 with `worker_timeout` (the platform's table) or "timed out
 * waiting for worker" (its prose; which one it sends is not settled, so both count).
 */
export async function affinityRefusal(res: Response): Promise<AffinityRefusal | undefined> {
  if (res.status !== 404 && res.status !== 400) return undefined;
  const text = await res
    .clone()
    .text()
    .catch(() => "");
  if (res.status === 404) return text.includes("affinity_worker_gone") ? "worker_gone" : undefined;
  return /worker_timeout|timed out waiting for worker/i.test(text) ? "worker_timeout" : undefined;
}

/** Refuses a value that is not a worker id, naming the field. */
function checkWorkerId(value: unknown, context: string): string {
  if (typeof value === "string" && WORKER_ID.test(value)) return value;
  const rule = "must be a worker id: letters, digits, - or _, at most 128 characters, as X-Runpod-Worker-Id names it";
  throw new RequestValidationError([{ field: "worker", value: renderValue(value), rule }], context);
}

/**
 * Whether a URL is the platform's (or the emulator's): the host of the client's `queueUrl`, or a
 * subdomain of it (a load-balancing endpoint answers at `https://<id>.api.runpod.ai`). Only there
 * does the session add the API key.
 */
function sameService(url: URL, queueUrl: URL): boolean {
  return url.host === queueUrl.host || url.hostname.endsWith(`.${queueUrl.hostname}`);
}

/**
 * The request's headers as a plain object (what the sending `fetch` copies anyway: a `Headers`
 * object here would be built twice per request), with the pin set, or removed when there is none;
 * and whether they carry `Authorization`.
 */
function withPin(given: RequestInit["headers"], pin: string | undefined) {
  const headers: Record<string, string> = {};
  let authorized = false;
  const add = (value: string, name: string) => {
    const lower = name.toLowerCase();
    if (lower === WORKER_ID_HEADER) return;
    if (lower === "authorization") authorized = true;
    headers[lower] = headers[lower] === undefined ? value : `${headers[lower]}, ${value}`;
  };
  if (given instanceof Headers) given.forEach(add);
  else if (Array.isArray(given)) for (const [name, value] of given) add(value!, name!);
  else if (given) for (const name of Object.keys(given)) add(String(given[name]), name);
  if (pin !== undefined) headers[WORKER_ID_HEADER] = pin;
  return { headers, authorized };
}

/**
 * A fetch pinned to one worker: sends `X-Runpod-Worker-Id` (`<id>`, `strict <id>` or
 * `strict-resume <id>`) once it knows the worker, learns it from the answers' header, and adds
 * `Authorization: Bearer <API key>` to a request of the platform's that has none.
 */
export function pinnedFetch(
  options: PinnedFetchOptions,
  apiKey: string | undefined,
  queueUrl: string,
  context = "pinnedFetch",
): PinnedFetch {
  const mode = options.mode ?? "soft";
  if (!["soft", "strict", "strict-resume"].includes(mode)) {
    const rule = 'must be "soft", "strict" or "strict-resume"';
    throw new RequestValidationError([{ field: "mode", value: renderValue(mode), rule }], context);
  }
  let workerId = options.worker === undefined ? undefined : checkWorkerId(options.worker, context);
  let refusal: AffinityRefusal | undefined;
  const send = options.fetch ?? dispatcherFetch();
  const service = new URL(queueUrl);
  const call = async (input: string | URL | Request, init?: RequestInit): Promise<Response> => {
    const strict = workerId !== undefined && mode !== "soft";
    const pin = workerId === undefined ? undefined : strict ? `${mode} ${workerId}` : workerId;
    const { headers, authorized } = withPin(
      init?.headers ?? (input instanceof Request ? input.headers : undefined),
      pin,
    );
    if (apiKey && !authorized) {
      const url = new URL(typeof input === "string" ? input : input instanceof URL ? input.href : input.url);
      if (sameService(url, service)) headers.authorization = `Bearer ${apiKey}`;
    }
    const res = await send(input, { ...init, headers });
    const served = res.headers.get(WORKER_ID_HEADER);
    if (served !== null && WORKER_ID.test(served)) workerId = served;
    refusal = strict ? await affinityRefusal(res) : undefined;
    if (refusal === "worker_gone") workerId = undefined;
    return res;
  };
  return Object.defineProperties(call, {
    workerId: { get: () => workerId, enumerable: true },
    refusal: { get: () => refusal, enumerable: true },
    unpin: { value: () => void (workerId = undefined), enumerable: true },
  }) as PinnedFetch;
}
