import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import type { EngineEvent } from "@pulumi/pulumi/automation";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { readRollout } from "../../sdk/rollout/rollout-snapshot";
import { createE2EStack, type E2EStack } from "./harness";

/*
 * `pulumi up` ends when the endpoint serves (docs/resources.md "When an endpoint is deployed"),
 * through the real engine and the dynamic resources, on each management API version: an image
 * bump returns with every worker on the new image, a crashing image fails the step with the
 * reason and is rolled back, the next up tries again, and `waitForRollout: false` opts out. The
 * emulator's workers boot in 200 ms; an image `crash` is a handler file that throws when loaded.
 */
const handlers = fs.mkdtempSync(path.join(os.tmpdir(), "e2e-rollout-handlers-"));
fs.writeFileSync(path.join(handlers, "crash.mjs"), `throw new Error("CUDA error: out of memory");\n`);
fs.writeFileSync(path.join(handlers, "newer.mjs"), `export default async ({ input }) => ({ newer: true, input });\n`);
afterAll(() => fs.rmSync(handlers, { recursive: true, force: true }));

const out = (outputs: Record<string, { value: unknown }>, key: string) => String(outputs[key]?.value);

describe.each(["v2", "v1"] as const)("rollouts through the real engine, on %s", (apiVersion) => {
  let e: E2EStack;
  let endpointId: string;
  let templateId: string;
  const events: EngineEvent[] = [];

  beforeAll(async () => {
    e = await createE2EStack(
      "rollout",
      {},
      { label: `rollout-${apiVersion}`, apiVersion, emulator: { handlersDir: handlers } },
    );
  }, 300_000);
  afterAll(() => e?.dispose());

  const images = async () =>
    apiVersion === "v2"
      ? (await e.client.v2.serverless.workers(endpointId)).workers.map((w) => `${w.status} ${w.image}`)
      : ((await e.client.v1.endpoints.get(endpointId, { includeWorkers: true })).workers ?? []).map((w) =>
          String(w.image),
        );
  const job = async (n: number) => (await e.client.jobs(endpointId).runSync({ input: { n } }, { wait: 30_000 })).output;
  const idle = (image: string) => (apiVersion === "v2" ? `IDLE ${image}` : image);

  it(
    "creates the endpoint and returns once its worker serves; an image bump returns with every worker on the new image",
    { timeout: 240_000 },
    async () => {
      const up = await e.stack.up({ onEvent: (ev) => events.push(ev) });
      endpointId = out(up.outputs, "endpointId");
      templateId = out(up.outputs, "templateId");
      expect(await images()).toEqual([idle("ghcr.io/acme/echo:1")]);

      await e.stack.setConfig("e2e:image", { value: "ghcr.io/acme/newer:2" });
      const bump = await e.stack.up({ onEvent: (ev) => events.push(ev) });
      expect(bump.summary.resourceChanges).toMatchObject({ update: 1 });
      expect(await images()).toEqual([idle("ghcr.io/acme/newer:2")]);
      expect(await job(1)).toEqual({ newer: true, input: { n: 1 } });
      // The progress went to the engine under the template while it waited.
      const progress = events.flatMap((ev) =>
        ev.diagnosticEvent?.message.includes("rolling out") ? [ev.diagnosticEvent] : [],
      );
      expect(progress.length).toBeGreaterThan(0);
      expect(progress.some((d) => d.urn?.endsWith("::worker"))).toBe(true);
    },
  );

  it(
    "fails a crashing image's step with the reason, rolls it back, keeps the state, and the next up tries again",
    { timeout: 240_000 },
    async () => {
      await e.stack.setConfig("e2e:image", { value: "ghcr.io/acme/crash:3" });
      const failed = await e.stack.up().then(
        () => "",
        (err: Error) => err.message,
      );
      expect(failed).toMatch(new RegExp(`endpoint ${endpointId} did not roll out .*cannot start`));
      if (apiVersion === "v2") expect(failed).toContain("CUDA error: out of memory");
      expect(failed).toContain(`Rolled back: template ${templateId}`);
      expect((await e.client.templates.get(templateId)).imageName).toBe("ghcr.io/acme/newer:2");
      expect(await job(2)).toEqual({ newer: true, input: { n: 2 } });
      // The state kept the served image: the next preview still has the change to make.
      const preview = await e.stack.preview();
      expect(preview.changeSummary).toMatchObject({ update: 1 });
    },
  );

  it("with waitForRollout false, returns as soon as the platform took the change", { timeout: 240_000 }, async () => {
    await e.stack.setConfig("e2e:wait", { value: "false" });
    const up = await e.stack.up();
    expect(up.summary.result).toBe("succeeded");
    expect((await e.client.templates.get(templateId)).imageName).toBe("ghcr.io/acme/crash:3");
    // Not served, on either version: no worker of the new image has started.
    expect(await readRollout(e.client, endpointId)).toMatchObject({ ready: 0, stale: 0 });
    await e.stack.destroy();
  });
});
