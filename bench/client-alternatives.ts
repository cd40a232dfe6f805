import { Agent, request } from "undici";
import { RunpodClient } from "../sdk/client";

/** Where the job calls go. */
export interface JobTarget {
  apiKey: string;
  apiUrl: string;
  queueUrl: string;
  /** Endpoint whose completed jobs `/status` reads. */
  statusEndpointId: string;
  /** Endpoint without workers that `/run` submits to (jobs stay queued: the emulator does no job work). */
  runEndpointId: string;
}

/** One way of calling the job API, reduced to the two calls the benchmark makes. */
export interface JobClientAlternative {
  name: string;
  /** Reads a job; resolves to its id as answered (checked by the caller). */
  status(jobId: string): Promise<string>;
  /** Submits a job; resolves to the new job's id. */
  run(input: Record<string, unknown>): Promise<string>;
  close(): Promise<void>;
}

/** Minimal shape of the official SDK (its published typings import a package it does not depend on). */
interface OfficialSdkEndpoint {
  status(requestId: string): Promise<{ id?: string; status?: number | string; statusText?: string }>;
  run(request: { input: unknown }): Promise<{ id?: string; status?: number | string; statusText?: string }>;
}
type OfficialSdkFactory = (
  apiKey: string,
  options: { baseUrl: string },
) => { endpoint(id: string): OfficialSdkEndpoint };

function idOf(body: { id?: unknown; status?: unknown; statusText?: unknown }, what: string): string {
  if (typeof body.id !== "string") throw new Error(`${what}: no job id in ${JSON.stringify(body).slice(0, 200)}`);
  return body.id;
}

/** Our typed client, used as a user would: one client, `client.jobs(id)` once per endpoint. */
export function oursAlternative(t: JobTarget, concurrency: number): JobClientAlternative {
  const client = new RunpodClient({
    apiKey: t.apiKey,
    apiUrl: t.apiUrl,
    queueUrl: t.queueUrl,
    connections: concurrency,
  });
  const statusJobs = client.jobs(t.statusEndpointId);
  const runJobs = client.jobs(t.runEndpointId);
  return {
    name: "ours (sdk)",
    status: async (jobId) => (await statusJobs.status(jobId)).id,
    run: async (input) => (await runJobs.run({ input })).id,
    close: () => client.close(),
  };
}

/**
 * The floor: `undici.request` on a keep-alive pool of the same size, parsing the JSON body and
 * checking the status code, and nothing else (no validation, retries, timeouts or errors).
 */
export function undiciAlternative(t: JobTarget, concurrency: number): JobClientAlternative {
  const dispatcher = new Agent({ connections: concurrency, keepAliveTimeout: 10_000, pipelining: 1 });
  const headers = { authorization: `Bearer ${t.apiKey}`, "content-type": "application/json" };
  const statusBase = `${t.queueUrl}/${t.statusEndpointId}/status/`;
  const runUrl = `${t.queueUrl}/${t.runEndpointId}/run`;
  const call = async (url: string, method: "GET" | "POST", body?: string) => {
    const res = await request(url, { method, headers, body, dispatcher });
    const json = (await res.body.json()) as { id?: string };
    if (res.statusCode !== 200) throw new Error(`${method} ${url}: ${res.statusCode}`);
    return idOf(json, url);
  };
  return {
    name: "raw undici.request",
    status: (jobId) => call(statusBase + jobId, "GET"),
    run: (input) => call(runUrl, "POST", JSON.stringify({ input })),
    close: () => dispatcher.close(),
  };
}

/** Node's global `fetch` (its bundled undici, default global dispatcher), parsing JSON. */
export function fetchAlternative(t: JobTarget): JobClientAlternative {
  const headers = { authorization: `Bearer ${t.apiKey}`, "content-type": "application/json" };
  const statusBase = `${t.queueUrl}/${t.statusEndpointId}/status/`;
  const runUrl = `${t.queueUrl}/${t.runEndpointId}/run`;
  const call = async (url: string, method: "GET" | "POST", body?: string) => {
    const res = await fetch(url, { method, headers, body });
    const json = (await res.json()) as { id?: string };
    if (!res.ok) throw new Error(`${method} ${url}: ${res.status}`);
    return idOf(json, url);
  };
  return {
    name: "global fetch",
    status: (jobId) => call(statusBase + jobId, "GET"),
    run: (input) => call(runUrl, "POST", JSON.stringify({ input })),
    close: async () => {},
  };
}

/**
 * The platform's official JavaScript SDK (npm `runpod-sdk`), pointed at the emulator with its
 * `baseUrl` option. It is an ES module, so it is loaded with a dynamic `import()`.
 */
export async function officialSdkAlternative(t: JobTarget): Promise<JobClientAlternative> {
  // A non-literal specifier keeps tsc from loading the SDK's typings (see OfficialSdkFactory).
  const specifier = "runpod-sdk";
  const mod = (await import(specifier)) as { default: OfficialSdkFactory };
  const sdk = mod.default(t.apiKey, { baseUrl: t.queueUrl });
  const statusEndpoint = sdk.endpoint(t.statusEndpointId);
  const runEndpoint = sdk.endpoint(t.runEndpointId);
  return {
    name: "official runpod-sdk",
    status: async (jobId) => idOf(await statusEndpoint.status(jobId), "runpod-sdk status"),
    run: async (input) => idOf(await runEndpoint.run({ input }), "runpod-sdk run"),
    close: async () => {},
  };
}
