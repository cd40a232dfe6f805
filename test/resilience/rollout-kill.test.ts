import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type RunningEmulator, startEmulator } from "../../emulator";
import { RunpodClient } from "../../sdk/client";
import { createEngineStack, type EngineStack } from "./engine-harness";
import { runRecover } from "./kill-window";
import { killTree } from "./process-tree";

/*
 * A `pulumi up` killed while it waits for a rollout (docs/reliability.md "What each kill leaves"):
 * the template's image bump reached the platform, the provider is polling the endpoint's workers,
 * and the run is SIGKILLed. `runpod-iac recover --run up` and the next `pulumi up` converge: no
 * pending operation, nothing left to change, and the endpoint serves the new image.
 */
const KEY = "rollout-kill-key";
const handlers = fs.mkdtempSync(path.join(os.tmpdir(), "rollout-kill-handlers-"));
fs.writeFileSync(path.join(handlers, "newer.mjs"), `export default async ({ input }) => ({ newer: true, input });\n`);

let emulator: RunningEmulator;
let e: EngineStack;

beforeAll(async () => {
  // Workers take 3 s to boot, so the wait is long enough to be killed in.
  emulator = await startEmulator({
    port: 0,
    apiKeys: [KEY],
    rateLimits: false,
    managementQuota: false,
    handlersDir: handlers,
    workerBootMs: 3000,
  });
  e = await createEngineStack(
    "rollout",
    { apiUrl: emulator.apiUrlV2, queueUrl: emulator.queueUrl, apiKey: KEY },
    { label: "rollout-kill", env: { RUNPOD_ROLLOUT_POLL_SECONDS: "0.2" } },
  );
}, 300_000);
afterAll(async () => {
  e?.dispose();
  await emulator?.close();
  fs.rmSync(handlers, { recursive: true, force: true });
});

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe("pulumi killed while it waits for a rollout", { timeout: 600_000 }, () => {
  it("is recovered: recover and the next up converge, and the endpoint serves the new image", async () => {
    const first = await e.cli(["up", "--yes", "--skip-preview"]);
    expect(first.code, first.stderr).toBe(0);
    expect((await e.cli(["config", "set", "e2e:image", "ghcr.io/acme/newer:2"])).code).toBe(0);

    const account = emulator.store.accountForKey(KEY)!;
    const polls = () =>
      [...account.stats.byRoute].filter(([r]) => r.endsWith("/workers")).reduce((n, [, c]) => n + c, 0);
    const before = polls();
    const child = e.spawnCli(["up", "--yes", "--skip-preview"]);
    let output = "";
    child.stdout?.on("data", (d) => (output += d));
    child.stderr?.on("data", (d) => (output += d));
    const deadline = Date.now() + 240_000;
    // Killed once the provider is polling: the change is on the platform, the step not ended.
    while (polls() - before < 2 && child.exitCode === null && Date.now() < deadline) await sleep(20);
    expect(child.exitCode, output).toBeNull();
    await killTree(child);

    const [template] = [...account.templates.values()];
    expect(template!.image).toBe("ghcr.io/acme/newer:2");
    const recovered = await runRecover(e, "up");
    expect(recovered.code, recovered.stdout + recovered.stderr).toBe(0);
    const again = await e.cli(["up", "--yes", "--skip-preview"]);
    expect(again.code, again.stderr).toBe(0);
    const quiet = await e.cli(["preview", "--expect-no-changes"]);
    expect(quiet.code, quiet.stdout + quiet.stderr).toBe(0);
    const state = await e.exportState();
    expect(state.deployment.pending_operations ?? []).toEqual([]);

    const [endpoint] = [...account.endpoints.values()];
    const client = new RunpodClient({ apiKey: KEY, apiUrl: emulator.apiUrlV2, queueUrl: emulator.queueUrl });
    try {
      const job = await client.jobs(endpoint!.id).runSync({ input: { n: 1 } }, { wait: 30_000 });
      expect(job.output).toEqual({ newer: true, input: { n: 1 } });
    } finally {
      await client.close();
    }
    expect((await e.cli(["destroy", "--yes", "--skip-preview"])).code).toBe(0);
  });
});
