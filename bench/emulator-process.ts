import { type ChildProcess, spawn } from "node:child_process";
import path from "node:path";
import type { FaultRule } from "../emulator/faults/fault-rules";

/** An emulator running in its own process, as users run it (`runpod-iac emulator`). */
export interface EmulatorProcess {
  /** Origin, e.g. `http://127.0.0.1:40123`. */
  url: string;
  apiUrl: string;
  queueUrl: string;
  apiKey: string;
  /** Process id, for memory sampling. */
  pid: number;
  /** SIGTERM, then waits for the exit. */
  stop(): Promise<void>;
}

/** The compiled CLI next to this compiled file (`dist/bench/..` is `dist/`). */
export const EMULATOR_CLI = path.join(__dirname, "..", "emulator", "cli.js");

/**
 * Starts `node dist/emulator/cli.js emulator --port 0 --api-key KEY ...extraArgs` and resolves once
 * it prints its `ready` line. Benchmarks pass `--no-rate-limits`: the platform's limits (e.g. 2000
 * `/status` per 10 s) would otherwise measure the limiter, not the code.
 */
export async function startEmulatorProcess(apiKey: string, extraArgs: readonly string[]): Promise<EmulatorProcess> {
  const server = await startServerProcess([EMULATOR_CLI, "emulator", "--port", "0", "--api-key", apiKey, ...extraArgs]);
  return { ...server, apiUrl: `${server.url}/v1`, queueUrl: `${server.url}/v2`, apiKey };
}

/** Any server process that prints `ready: listening on <url>`: its origin, pid and how to stop it. */
export type ServerProcess = Pick<EmulatorProcess, "url" | "pid" | "stop">;

/** Starts `node ...args` and resolves once it prints its `ready` line (the emulator's CLI, or a bench server). */
export async function startServerProcess(args: readonly string[]): Promise<ServerProcess> {
  const child = spawn(process.execPath, args, { stdio: ["ignore", "pipe", "inherit"] });
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  const url = await waitForReady(child);
  return {
    url,
    pid: child.pid!,
    async stop() {
      if (child.exitCode === null && child.signalCode === null) child.kill("SIGTERM");
      await exited;
    },
  };
}

function waitForReady(child: ChildProcess): Promise<string> {
  return new Promise((resolve, reject) => {
    let out = "";
    const timer = setTimeout(() => reject(new Error("the server did not print `ready` within 30 s")), 30_000);
    child.stdout!.setEncoding("utf8");
    child.stdout!.on("data", (chunk: string) => {
      out += chunk;
      const match = /ready: listening on (\S+)/.exec(out);
      if (match) {
        clearTimeout(timer);
        // Keep draining stdout so a chatty child never blocks on a full pipe.
        child.stdout!.removeAllListeners("data");
        child.stdout!.resume();
        resolve(match[1]!);
      }
    });
    child.once("exit", (code) => {
      clearTimeout(timer);
      reject(new Error(`the server exited with code ${code} before it was ready:\n${out}`));
    });
  });
}

/** Small admin and setup calls against an emulator (plain fetch; not part of any measurement). */
export class EmulatorApi {
  constructor(
    readonly url: string,
    private readonly apiKey: string,
  ) {}

  /** One JSON call; throws on a non-2xx answer. */
  async call<T = unknown>(method: string, route: string, body?: unknown): Promise<T> {
    const res = await fetch(`${this.url}${route}`, {
      method,
      headers: { authorization: `Bearer ${this.apiKey}`, "content-type": "application/json" },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await res.text();
    if (!res.ok) throw new Error(`${method} ${route}: ${res.status} ${text}`);
    return (text ? JSON.parse(text) : undefined) as T;
  }

  /** Creates an endpoint of a built-in template; resolves to its id. */
  async createEndpoint(templateId: string, workersMin: number, workersMax: number): Promise<string> {
    const body = { templateId, workersMin, workersMax, gpuTypeIds: ["NVIDIA L4"] };
    return (await this.call<{ id: string }>("POST", "/v1/endpoints", body)).id;
  }

  /** Submits `count` jobs (16 at a time) and resolves to their ids, in order. */
  async submitJobs(endpointId: string, count: number, input: (i: number) => unknown): Promise<string[]> {
    const ids: string[] = new Array(count);
    let next = 0;
    const lane = async () => {
      while (next < count) {
        const i = next++;
        ids[i] = (await this.call<{ id: string }>("POST", `/v2/${endpointId}/run`, { input: input(i) })).id;
      }
    };
    await Promise.all(Array.from({ length: 16 }, lane));
    return ids;
  }

  /** Polls `/health` until `completed` reaches `count` (bounded: 60 s). */
  async waitForCompleted(endpointId: string, count: number): Promise<void> {
    const deadline = Date.now() + 60_000;
    for (;;) {
      const health = await this.call<{ jobs: { completed: number } }>("GET", `/v2/${endpointId}/health`);
      if (health.jobs.completed >= count) return;
      if (Date.now() > deadline) throw new Error(`only ${health.jobs.completed} of ${count} jobs completed in 60 s`);
      await new Promise((r) => setTimeout(r, 100));
    }
  }

  /** Replaces the account's fault rules (`PUT /_emulator/faults`); `[]` clears them. */
  async setFaults(rules: readonly FaultRule[]): Promise<void> {
    await this.call("PUT", "/_emulator/faults", { rules });
  }

  /** API requests answered for this account since the last reset (admin routes excluded). */
  async requestCount(): Promise<number> {
    return (await this.call<{ requests: { total: number } }>("GET", "/_emulator/stats")).requests.total;
  }

  /**
   * API requests answered for this account since the last reset (admin routes excluded), and
   * how many of them management API v2's quota refused with 429.
   */
  async requestCounters(): Promise<{ requests: number; quotaRefused: number }> {
    type Stats = { requests: { total: number }; managementQuotaRefused: number };
    const stats = await this.call<Stats>("GET", "/_emulator/stats");
    return { requests: stats.requests.total, quotaRefused: stats.managementQuotaRefused };
  }
}
