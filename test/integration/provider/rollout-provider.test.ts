import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { PartialCreateError } from "../../../provider/errors";
import { serverlessEndpointProvider as endpoints } from "../../../provider/serverless-endpoint-provider";
import { templateProvider as templates } from "../../../provider/template-provider";
import { API_VERSIONS, useProviderAgainstEmulator } from "./emulator-fixture";

/*
 * `pulumi up` ends when the endpoint serves (docs/resources.md "When an endpoint is deployed"):
 * the providers' create and update against an emulator whose workers take 400 ms to boot, with an
 * image whose container crashes at start. Polls every 100 ms (RUNPOD_ROLLOUT_POLL_SECONDS).
 */
const dir = mkdtempSync(path.join(tmpdir(), "provider-rollout-"));
writeFileSync(path.join(dir, "crash.mjs"), `throw new Error("CUDA error: out of memory");\n`);
writeFileSync(path.join(dir, "newer.mjs"), `export default async ({ input }) => ({ newer: true, input });\n`);
const poll = process.env.RUNPOD_ROLLOUT_POLL_SECONDS;
beforeAll(() => {
  process.env.RUNPOD_ROLLOUT_POLL_SECONDS = "0.1";
});
afterAll(() => {
  if (poll === undefined) delete process.env.RUNPOD_ROLLOUT_POLL_SECONDS;
  else process.env.RUNPOD_ROLLOUT_POLL_SECONDS = poll;
  rmSync(dir, { recursive: true, force: true });
});

describe.each(API_VERSIONS)("rollouts waited on by the providers, on %s", (version) => {
  // Without v2's quota: the polls are paced by it (the benchmark measures that), which would slow this file.
  const fixture = useProviderAgainstEmulator(version, { handlersDir: dir, workerBootMs: 400, managementQuota: false });
  const client = () => fixture.current.client;
  const workerImages = async (id: string) =>
    version === "v2"
      ? (await client().v2.serverless.workers(id)).workers.map((w) => `${w.status} ${w.image}`)
      : ((await client().v1.endpoints.get(id, { includeWorkers: true })).workers ?? []).map((w) => String(w.image));
  const run = async (id: string, n: number) => (await client().jobs(id).runSync({ input: { n } })).output;

  async function deployed(suffix: string, rollout: Record<string, unknown> = {}) {
    const t = await templates.create({
      name: `tpl-${version}-${suffix}`,
      imageName: "ghcr.io/acme/echo:1",
      isServerless: true,
      ...rollout,
    });
    const inputs = {
      name: `ep-${version}-${suffix}`,
      templateId: t.id,
      gpuTypeIds: ["NVIDIA L4"],
      workersMin: 1,
      workersMax: 2,
      ...rollout,
    };
    const e = await endpoints.create(inputs);
    return { t, e, inputs };
  }

  it("returns from a create and a template's image bump only once the workers serve the new image", async () => {
    const { t, e } = await deployed("bump");
    expect(await workerImages(e.id)).toEqual([version === "v2" ? "IDLE ghcr.io/acme/echo:1" : "ghcr.io/acme/echo:1"]);
    const news = { ...t.outs, imageName: "ghcr.io/acme/newer:2" };
    await templates.update!(t.id, t.outs!, news);
    expect(await workerImages(e.id)).toEqual([version === "v2" ? "IDLE ghcr.io/acme/newer:2" : "ghcr.io/acme/newer:2"]);
    expect(await run(e.id, 1)).toEqual({ newer: true, input: { n: 1 } });
  });

  it("fails a template update whose image crashes at start with the reason, rolls it back, and jobs are served by the old image", async () => {
    const { t, e } = await deployed("crash");
    const news = { ...t.outs, imageName: "ghcr.io/acme/crash:2" };
    const started = Date.now();
    const failed = templates.update!(t.id, t.outs!, news);
    const release = version === "v2" ? "release \\w+" : "its new configuration";
    const logged = version === "v2" ? ".*logged: Error: CUDA error: out of memory" : "";
    await expect(failed).rejects.toThrow(
      new RegExp(
        `endpoint ${e.id} did not roll out ${release}: its one worker of the new configuration cannot start${logged}.*Rolled back: template ${t.id}`,
      ),
    );
    expect(Date.now() - started).toBeLessThan(20_000); // well under the 1800 s timeout
    expect((await client().templates.get(t.id)).imageName).toBe("ghcr.io/acme/echo:1");
    expect(await run(e.id, 2)).toEqual({ n: 2 });
  });

  it("fails an endpoint's own update to a crashing template and puts the endpoint back", async () => {
    const { e, inputs } = await deployed("own");
    const crash = await templates.create({
      name: `crash-${version}`,
      imageName: "ghcr.io/acme/crash:1",
      isServerless: true,
    });
    const news = { ...inputs, templateId: crash.id };
    await expect(endpoints.update!(e.id, e.outs!, news)).rejects.toThrow(
      new RegExp(
        `endpoint ${e.id} did not roll out .*cannot start.*Rolled back: endpoint ${e.id} was put back .*\\(templateId\\)`,
      ),
    );
    expect(await run(e.id, 3)).toEqual({ n: 3 });
  });

  it("keeps a created endpoint whose workers cannot start, failing the step as a partial create", async () => {
    const crash = await templates.create({
      name: `crash-new-${version}`,
      imageName: "ghcr.io/acme/crash:1",
      isServerless: true,
    });
    const inputs = { name: `ep-new-${version}`, templateId: crash.id, gpuTypeIds: ["NVIDIA L4"], workersMin: 1 };
    const failure = await endpoints.create(inputs).then(
      () => undefined,
      (err: unknown) => err,
    );
    expect(failure).toBeInstanceOf(PartialCreateError);
    const id = (failure as PartialCreateError).id;
    expect((failure as Error).message).toMatch(/cannot start.*kept in the stack/);
    expect((await client().endpoints.get(id)).id).toBe(id);
  });

  it("with waitForRollout false, returns as soon as the platform took the change", async () => {
    const { t, e } = await deployed("nowait", { waitForRollout: false });
    await templates.update!(t.id, t.outs!, { ...t.outs, imageName: "ghcr.io/acme/newer:3", waitForRollout: false });
    const images = await workerImages(e.id);
    expect(images.join()).not.toMatch(/IDLE ghcr.io\/acme\/newer:3/);
  });

  it("refuses rollout settings that make no sense at preview, naming the field, the value and the rule", async () => {
    const check = async (news: Record<string, unknown>) =>
      (await endpoints.check(undefined, { name: "x", templateId: "t", ...news })).failures?.map((f) => f.reason);
    expect(await check({ rolloutTimeoutSeconds: -5 })).toEqual([
      "rolloutTimeoutSeconds = -5: must be a whole number of seconds from 1 to 86400",
    ]);
    expect(await check({ waitForRollout: false, rollbackOnFailure: true })).toEqual([
      "rollbackOnFailure = true: needs waitForRollout (a rollout not waited for cannot be seen to fail)",
    ]);
    const pod = await templates.check({}, { name: "p", imageName: "a/b:1", isServerless: false, waitForRollout: true });
    expect(pod.failures?.map((f) => f.reason)).toEqual([
      "waitForRollout = true: a template with isServerless false runs no endpoint, so nothing rolls out or back",
    ]);
  });
});
