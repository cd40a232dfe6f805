import { execFile } from "node:child_process";
import path from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type RunningEmulator, startEmulator } from "../../../emulator";
import { REPO_ROOT } from "../../../scripts/pulumi-cli";
import { ensureBuilt } from "../../resilience/engine-harness";

// What each entry point of the built package loads, in a fresh Node.js process (a test worker has
// loaded everything already). The provider process pays for every module before its first create.

/** Runs `script` in a new Node.js process in the repo (so `runpod-iac` resolves through the self-link). */
async function inFreshProcess(script: string, env: Record<string, string> = {}): Promise<Record<string, unknown>> {
  const { stdout } = await promisify(execFile)(process.execPath, ["-e", script], {
    cwd: REPO_ROOT,
    env: { ...process.env, ...env },
  });
  return JSON.parse(stdout) as Record<string, unknown>;
}

/** Prints which of undici, undici's index and zod the process has loaded, after `body` ran. */
const report = (body: string) => `
(async () => {
  ${body}
  const loaded = Object.keys(require.cache);
  const has = (re) => loaded.some((f) => re.test(f));
  console.log(JSON.stringify({
    ...(typeof result === "undefined" ? {} : { result }),
    undici: has(/[\\\\/]node_modules[\\\\/]undici[\\\\/]/),
    undiciIndex: has(/[\\\\/]node_modules[\\\\/]undici[\\\\/]index\\.js$/),
    zod: has(/[\\\\/]node_modules[\\\\/]zod[\\\\/]/),
  }));
})().catch((err) => { console.error(err); process.exit(1); });`;

let emulator: RunningEmulator;
beforeAll(async () => {
  ensureBuilt();
  emulator = await startEmulator({ port: 0, apiKeys: ["loading-it"] });
}, 120_000);
afterAll(() => emulator.close());

describe("what the built package loads", () => {
  it("a Pulumi program's `require('runpod-iac')` loads neither zod nor undici", async () => {
    expect(await inFreshProcess(report(`require("runpod-iac");`))).toEqual({
      undici: false,
      undiciIndex: false,
      zod: false,
    });
  });

  it("the client talks to the platform with undici's Agent alone, never undici's index", async () => {
    const sdk = JSON.stringify(path.join(REPO_ROOT, "dist", "sdk"));
    const out = await inFreshProcess(
      report(`
        const { RunpodClient } = require(${sdk});
        const client = new RunpodClient({ apiKey: "loading-it", apiUrl: process.env.API_URL });
        const volume = await client.networkVolumes.create({ name: "loading", size: 10, dataCenterId: "EU-RO-1" });
        const result = (await client.networkVolumes.get(volume.id)).name;
        await client.close();`),
      { API_URL: emulator.apiUrl },
    );
    expect(out).toEqual({ result: "loading", undici: true, undiciIndex: false, zod: true });
  });

  it("a v2 client reads the rate-limit headers with structured-headers' CommonJS build", async () => {
    const sdk = JSON.stringify(path.join(REPO_ROOT, "dist", "sdk"));
    const internal = JSON.stringify(path.join(REPO_ROOT, "dist", "sdk", "internal"));
    const out = await inFreshProcess(
      report(`
        const { RunpodClient } = require(${sdk});
        const { parseRateLimit } = require(${internal});
        const client = new RunpodClient({ apiKey: "loading-it", apiUrl: process.env.API_URL });
        await client.networkVolumes.list();
        await client.networkVolumes.list();
        await client.close();
        const result = {
          parsed: parseRateLimit('"minute";r=58;t=60'),
          files: Object.keys(require.cache)
            .filter((f) => f.includes("structured-headers"))
            .map((f) => f.slice(f.lastIndexOf("structured-headers"))),
        };`),
      { API_URL: emulator.apiUrlV2 },
    );
    expect(out.result).toEqual({
      parsed: [{ window: "minute", remaining: 58, resetSeconds: 60 }],
      files: [path.join("structured-headers", "cjs", "index.cjs")],
    });
  });
});
