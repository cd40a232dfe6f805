import { spawn } from "node:child_process";
import path from "node:path";
import autocannon from "autocannon";

const KEY = "bench-status-key";

async function call(url: string, method: string, body?: unknown): Promise<{ id: string }> {
  const res = await fetch(url, {
    method,
    headers: { authorization: `Bearer ${KEY}`, "content-type": "application/json" },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  if (!res.ok) throw new Error(`${method} ${url}: ${res.status} ${await res.text()}`);
  return (await res.json()) as { id: string };
}

/**
 * `/status` throughput and latency (target: >= 10,000 req/s with p99 < 10 ms on 2 cores).
 * The emulator runs in its own process, as users run it; rate limits are off so the figure is the
 * server's, not the platform's 2000 per 10 s. Prints figures, asserts nothing.
 */
export async function measureStatusThroughput(seconds = 10, connections = 50, jobs = 1000) {
  const cli = path.join(__dirname, "../emulator/cli.js");
  const child = spawn(process.execPath, [cli, "emulator", "--port", "0", "--api-key", KEY, "--no-rate-limits"], {
    stdio: ["ignore", "pipe", "inherit"],
  });
  try {
    const origin = await new Promise<string>((resolve, reject) => {
      let out = "";
      child.stdout!.on("data", (chunk) => {
        out += chunk;
        const m = /ready: listening on (\S+)/.exec(out);
        if (m) resolve(m[1]!);
      });
      child.on("exit", (code) => reject(new Error(`emulator exited with ${code}`)));
    });
    const endpoint = await call(`${origin}/v1/endpoints`, "POST", { templateId: "echo", workersMin: 1 });
    const ids: string[] = [];
    for (let i = 0; i < jobs; i++)
      ids.push((await call(`${origin}/v2/${endpoint.id}/run`, "POST", { input: { i } })).id);
    let next = 0;
    const result = await autocannon({
      url: origin,
      connections,
      duration: seconds,
      headers: { authorization: `Bearer ${KEY}` },
      requests: [
        {
          method: "GET",
          setupRequest: (req) => ({ ...req, path: `/v2/${endpoint.id}/status/${ids[next++ % ids.length]}` }),
        },
      ],
    });
    return {
      requestsPerSecond: Math.round(result.requests.average),
      requests: result.requests.total,
      p99Ms: result.latency.p99,
      p50Ms: result.latency.p50,
      non2xx: result.non2xx,
      errors: result.errors,
    };
  } finally {
    child.kill("SIGTERM");
  }
}

if (require.main === module) {
  measureStatusThroughput(Number(process.argv[2] ?? 10), Number(process.argv[3] ?? 50)).then(
    (r) =>
      console.log(
        `emulator /status: ${r.requestsPerSecond} req/s, p50 ${r.p50Ms} ms, p99 ${r.p99Ms} ms (${r.non2xx} non-2xx, ${r.errors} errors)`,
      ),
    (e: unknown) => {
      console.error(e);
      process.exitCode = 1;
    },
  );
}
