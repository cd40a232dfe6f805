import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach } from "vitest";
import { RunpodClient } from "../../../sdk";
import type { RunpodClientOptions } from "../../../sdk/config";

/** What the scripted server does with one request. */
export type Step =
  | { status: number; body?: unknown; headers?: Record<string, string> }
  | { drop: true }
  | { delayMs: number; status: number; body?: unknown }
  | { raw: string; status: number }
  /** The body in separate writes, `gapMs` apart, so the client reads it in several chunks. */
  | { chunks: Buffer[]; gapMs: number; status: number }
  /** A 103 Early Hints answer before the final one. */
  | { earlyHints: true; status: number; body: unknown };

/** A request the scripted server saw. */
export interface Seen {
  method: string;
  url: string;
  headers: IncomingMessage["headers"];
  body: string;
}

/** A real `node:http` server on port 0 that answers from a script, one step per request, and records requests. */
export async function scriptedServer(steps: Step[]) {
  const seen: Seen[] = [];
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    let body = "";
    req.on("data", (c) => {
      body += c;
    });
    req.on("end", () => {
      seen.push({ method: req.method ?? "", url: req.url ?? "", headers: req.headers, body });
      const step = steps.shift() ?? { status: 500, body: { error: "script exhausted" } };
      if ("drop" in step) {
        req.socket.destroy();
        return;
      }
      const send = () => {
        if ("chunks" in step) {
          res.writeHead(step.status, { "content-type": "application/json" });
          const write = (i: number) => {
            if (i === step.chunks.length) res.end();
            else res.write(step.chunks[i], () => setTimeout(() => write(i + 1), step.gapMs));
          };
          write(0);
          return;
        }
        if ("earlyHints" in step) res.writeEarlyHints({ link: "</style.css>; rel=preload; as=style" });
        if ("raw" in step) {
          res.writeHead(step.status, { "content-type": "application/json" }).end(step.raw);
          return;
        }
        const headers = { "content-type": "application/json", ...("headers" in step ? step.headers : {}) };
        res.writeHead(step.status, headers).end(step.body === undefined ? "" : JSON.stringify(step.body));
      };
      if ("delayMs" in step) setTimeout(send, step.delayMs);
      else send();
    });
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  const { port } = server.address() as AddressInfo;
  return {
    seen,
    url: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((r) => {
        server.closeAllConnections();
        server.close(() => r());
      }),
  };
}

/**
 * For a test file: `setup(steps, options)` starts a scripted server and a client pointed at it
 * (`/v1` and `/v2` on the server, `defaults` under `options`); both are closed after each test.
 */
export function scriptedClients(apiKey: string, defaults: RunpodClientOptions = {}) {
  let close: (() => Promise<void>) | undefined;
  let client: RunpodClient | undefined;
  afterEach(async () => {
    await client?.close();
    await close?.();
    client = undefined;
    close = undefined;
  });
  return async (steps: Step[], options: RunpodClientOptions = {}) => {
    const server = await scriptedServer(steps);
    close = server.close;
    client = new RunpodClient({
      apiKey,
      apiUrl: `${server.url}/v1`,
      queueUrl: `${server.url}/v2`,
      ...defaults,
      ...options,
    });
    return { server, client };
  };
}
