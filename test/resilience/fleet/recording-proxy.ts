import * as http from "node:http";
import type { AddressInfo } from "node:net";

/**
 * A pass-through HTTP proxy in front of the emulator that records the method and path of every
 * request through it. The fleet gives each stack its own, so every request the platform sees can
 * be traced to the stack that sent it: one account serves them all, and the emulator's own
 * counters (which the figures come from) cannot tell stacks apart.
 */
export interface RecordingProxy {
  /** The proxy's origin, `http://127.0.0.1:<port>`. */
  origin: string;
  /** `METHOD /path` of every request so far. */
  requests: string[];
  close(): Promise<void>;
}

/** Starts a proxy to `upstream` (an origin such as the emulator's `url`). */
export async function startRecordingProxy(upstream: string): Promise<RecordingProxy> {
  const target = new URL(upstream);
  const requests: string[] = [];
  const agent = new http.Agent({ keepAlive: true });
  const server = http.createServer((req, res) => {
    requests.push(`${req.method} ${req.url}`);
    const forward = http.request(
      { host: target.hostname, port: target.port, method: req.method, path: req.url, headers: req.headers, agent },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      },
    );
    // A connection the emulator dropped (a fault) is dropped here too: the client sees what it would have seen.
    forward.on("error", () => res.destroy());
    req.pipe(forward);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    requests,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        agent.destroy();
        server.close(() => resolve());
      }),
  };
}
