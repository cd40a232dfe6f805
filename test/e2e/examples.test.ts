import { writeFile } from "node:fs/promises";
import * as path from "node:path";
import type { EngineEvent } from "@pulumi/pulumi/automation";
import { describe, expect, it } from "vitest";
import { DEFAULT_S3_ACCESS_KEY_ID, DEFAULT_S3_SECRET_ACCESS_KEY } from "../../emulator/s3/s3-options";
import { VolumeS3Client } from "../../sdk/s3/volume-s3-client";
import { REPO_ROOT } from "../../scripts/pulumi-cli";
import { POLICY_DIR, previewWithPack, useExampleStacks } from "./example-stacks";
import { trainingPodJourney } from "./training-pod-journey";

/**
 * The examples users copy (examples/), each run as a user would run it, through the real engine
 * against the emulator: the README of each example describes exactly what is checked here. The
 * quickstart goes through a whole lifecycle of its own in deployment.test.ts, the GitHub Actions
 * workflow in github-actions-example.test.ts.
 */
const { exampleStack } = useExampleStacks();

describe("examples/multi-stack-policy: dev and prod held to their own limits", { timeout: 300_000 }, () => {
  it("deploys each stack with its own config, and refuses prod-sized settings in dev at preview", async () => {
    const dev = await exampleStack("multi-stack-policy", "dev");
    expect(await previewWithPack(dev)).toMatchObject({ failed: false });
    const devUp = await dev.stack.up({
      policyPacks: [POLICY_DIR],
      policyPackConfigs: [path.join(dev.workDir, "policy-config.json")],
    });
    expect(devUp.summary.result).toBe("succeeded");
    const [devEndpoint] = await dev.client.endpoints.list();
    expect(devEndpoint).toMatchObject({ gpuTypeIds: ["NVIDIA L4", "NVIDIA RTX A5000"], workersMax: 2 });

    await dev.stack.setConfig("workersMax", { value: "8" });
    await dev.stack.setConfig("gpuTypeIds", { value: JSON.stringify(["NVIDIA H100 80GB HBM3", "NVIDIA L40S"]) });
    const refused = await previewWithPack(dev);
    expect(refused.failed).toBe(true);
    expect(refused.output).toContain('ServerlessEndpoint "api": workersMax = 8: exceeds the cap of 2 (workersMaxCap)');
    expect(refused.output).toContain(
      'ServerlessEndpoint "api": gpuTypeIds[0] = "NVIDIA H100 80GB HBM3": is not one of the allowed GPU types ["NVIDIA L4","NVIDIA RTX A5000","NVIDIA GeForce RTX 4090"]',
    );

    const prod = await exampleStack("multi-stack-policy", "prod");
    const prodPreview = await previewWithPack(prod);
    expect(prodPreview, prodPreview.output).toMatchObject({ failed: false });
    const prodUp = await prod.stack.up({
      policyPacks: [POLICY_DIR],
      policyPackConfigs: [path.join(prod.workDir, "policy-config.json")],
    });
    expect(prodUp.summary.result).toBe("succeeded");
    const [prodEndpoint] = await prod.client.endpoints.list();
    expect(prodEndpoint).toMatchObject({ workersMin: 1, workersMax: 8 });
    // On v2 (the default) the platform keeps no order among the types: the set is what counts.
    expect(prodEndpoint?.gpuTypeIds).toContain("NVIDIA H100 80GB HBM3");
  });
});

describe("examples/load-balanced-endpoint: HTTP straight to the workers", { timeout: 300_000 }, () => {
  it("deploys a load-balancing endpoint that answers a plain HTTP request, rolls a template change onto it, and destroys it", async () => {
    const handlersDir = path.join(REPO_ROOT, "examples", "load-balanced-endpoint", "handlers");
    const e = await exampleStack("load-balanced-endpoint", "dev", undefined, { handlersDir });
    const up = await e.stack.up();
    expect(up.summary.resourceChanges).toEqual({ create: 3 });
    const url = String(up.outputs.url?.value);
    const endpointId = String(up.outputs.endpointId?.value);
    expect(url).toBe(`${e.emulator.url}/lb/${endpointId}`);
    expect(up.outputs.healthUrl?.value).toBe(`${url}/ping`);
    expect(await e.client.v2.serverless.get(endpointId)).toMatchObject({
      type: "LOAD_BALANCER",
      scaling: { type: "REQUEST_COUNT", requestCount: 4 },
      gpu: { pools: ["AMPERE_24", "ADA_24"], excludedTypes: ["NVIDIA GeForce RTX 3090"] },
      flashboot: "FLASHBOOT",
      image: "ghcr.io/acme/greeter:1.0",
    });

    // A plain HTTP request, with the account's key as the platform requires.
    const headers = { authorization: `Bearer ${e.apiKey}` };
    const hello = await fetch(`${url}/hello?name=ada`, { headers });
    expect(hello.status).toBe(200);
    expect(await hello.json()).toEqual({ greeting: "hello, ada" });
    expect((await fetch(`${url}/nowhere`, { headers })).status).toBe(404);
    expect((await fetch(String(up.outputs.healthUrl?.value), { headers })).status).toBe(200);

    // A template change: one update (the template's); the provider re-applies it to the endpoint.
    await e.stack.setConfig("greeting", { value: "hi" });
    const changed = await e.stack.up();
    expect(changed.summary.resourceChanges).toEqual({ update: 1, same: 2 });
    expect(await (await fetch(`${url}/hello?name=ada`, { headers })).json()).toEqual({ greeting: "hi, ada" });
    expect((await e.stack.preview()).changeSummary).toEqual({ same: 3 });

    const destroyed = await e.stack.destroy();
    expect(destroyed.summary.resourceChanges).toEqual({ delete: 3 });
    expect((await fetch(`${url}/hello`, { headers })).status).toBe(404);
  });

  it("fails at preview on v1, naming the v2-only fields and the version, and sends nothing", async () => {
    const e = await exampleStack("load-balanced-endpoint", "v1");
    await e.stack.setConfig("runpod:apiUrl", { value: e.emulator.apiUrlV1 });
    let output = "";
    const refused = await e.stack.preview({ onOutput: (s) => (output += s) }).then(
      () => undefined,
      (err: Error) => err,
    );
    expect(refused).toBeInstanceOf(Error);
    output += refused?.message ?? "";
    // The template fails first (the endpoint waits for its id): its v2-only switches, by name.
    expect(output).toContain(
      "property startSsh value {false} has a problem: false: template SSH switches (startSsh) exist only on management API v2, and the API URL names v1",
    );
    expect(output).toContain("property startJupyter value {false} has a problem");
    expect(await e.requestCount()).toBe(0);
  });
});

describe(
  "examples/volume-weights: weights on a volume, written by up and read by the workers",
  { timeout: 300_000 },
  () => {
    it("uploads the folder, sends only what changed, previews an unchanged stack with no request, repairs drift, and destroys", async () => {
      const handlersDir = path.join(REPO_ROOT, "examples", "volume-weights", "handlers");
      const e = await exampleStack("volume-weights", "dev", undefined, { handlersDir });
      await e.stack.setAllConfig({
        "runpod:s3AccessKeyId": { value: DEFAULT_S3_ACCESS_KEY_ID },
        "runpod:s3SecretAccessKey": { value: DEFAULT_S3_SECRET_ACCESS_KEY, secret: true },
        "runpod:s3Url": { value: e.emulator.s3Url },
      });
      const said: { message: string; ephemeral: boolean }[] = [];
      const onEvent = (event: EngineEvent) => {
        const d = event.diagnosticEvent;
        if (d?.urn?.endsWith("VolumeFiles::weights"))
          said.push({ message: d.message.trim(), ephemeral: d.ephemeral ?? false });
      };
      const up = await e.stack.up({ onEvent });
      expect(up.summary.resourceChanges).toEqual({ create: 5 });
      // Progress while uploading (the engine's status of the resource), then what was done.
      expect(said).toContainEqual({ message: expect.stringMatching(/^uploading: \d of 3 files, /), ephemeral: true });
      expect(said).toContainEqual({ message: "uploaded 3 files (4.2 kB)", ephemeral: false });
      const endpointId = String(up.outputs.endpointId?.value);
      const job = () => e.client.jobs(endpointId).runSync({ input: {} });
      expect((await job()).output).toEqual({
        model: "tiny-demo",
        layers: 2,
        weightBytes: 4096,
        weightsHash: up.outputs.weightsHash?.value,
      });

      // New weights: only the changed and added files are sent, and the hash rolls the workers.
      await writeFile(path.join(e.workDir, "weights", "config.json"), '{ "name": "tiny-demo", "layers": 3 }');
      await writeFile(path.join(e.workDir, "weights", "merges.txt"), "h e");
      said.length = 0;
      await e.takeRequestCounts();
      const changed = await e.stack.up({ onEvent });
      expect(changed.summary.resourceChanges).toEqual({ update: 2, same: 3 });
      expect(said.map((x) => x.message)).toContain("uploads 2 files (39 B): config.json, merges.txt; 2 unchanged");
      expect((await e.takeRequestCounts())["PUT /s3api-:dc/:bucket/*"]).toBe(2);
      expect((await job()).output).toMatchObject({ layers: 3, weightsHash: changed.outputs.weightsHash?.value });
      expect(changed.outputs.weightsHash?.value).not.toBe(up.outputs.weightsHash?.value);

      // Unchanged: no request to the platform, its S3 API included.
      const before = await e.requestCount();
      expect((await e.stack.preview()).changeSummary).toEqual({ same: 5 });
      expect(await e.requestCount()).toBe(before);

      // A file changed and one removed by hand: refresh finds them, the next up writes them again.
      const s3 = new VolumeS3Client({
        s3Url: e.emulator.s3Url,
        s3AccessKeyId: DEFAULT_S3_ACCESS_KEY_ID,
        s3SecretAccessKey: DEFAULT_S3_SECRET_ACCESS_KEY,
      });
      const volume = { dataCenterId: "EU-RO-1", volumeId: String((await e.client.networkVolumes.list())[0]!.id) };
      await s3.putBytes(volume, "models/tiny/model.bin", "corrupted");
      await s3.delete(volume, "models/tiny/vocab.txt");
      await e.stack.refresh();
      said.length = 0;
      const repaired = await e.stack.up({ onEvent });
      expect(repaired.summary.resourceChanges).toEqual({ update: 1, same: 4 });
      expect(said.map((x) => x.message)).toContain(
        "uploads 2 files (4.1 kB): model.bin, vocab.txt: changed or removed on the volume since written (seen by refresh)",
      );
      expect((await s3.getBytes(volume, "models/tiny/model.bin")).length).toBe(4096);
      expect(repaired.outputs.weightsHash?.value).toBe(changed.outputs.weightsHash?.value);

      expect((await e.stack.destroy()).summary.resourceChanges).toEqual({ delete: 5 });
      s3.close();
    });
  },
);

describe("examples/adopt-existing: hand-made resources taken under management", { timeout: 300_000 }, () => {
  it("adopts a volume and an endpoint without creating anything, converges them, and destroy keeps the volume", async () => {
    const e = await exampleStack("adopt-existing", "prod");
    const volume = await e.client.networkVolumes.create({ name: "by-hand", size: 30, dataCenterId: "EU-RO-1" });
    const endpoint = await e.client.endpoints.create({ name: "by-hand", templateId: "echo", workersMax: 1 });
    await e.stack.setAllConfig({
      volumeId: { value: volume.id },
      volumeSize: { value: "40" },
      dataCenterId: { value: "EU-RO-1" },
      endpointId: { value: endpoint.id },
      templateId: { value: "echo" },
    });
    const up = await e.stack.up();
    // The stack and the two adopted resources count as creates in Pulumi's summary.
    expect(up.summary.resourceChanges).toMatchObject({ create: 3 });
    expect(up.outputs.volumeId?.value).toBe(volume.id);
    expect(up.outputs.endpointId?.value).toBe(endpoint.id);
    const volumes = await e.client.networkVolumes.list();
    expect(volumes).toHaveLength(1);
    expect(volumes[0]).toMatchObject({ id: volume.id, name: "weights", size: 40, dataCenterId: "EU-RO-1" });
    const endpoints = await e.client.endpoints.list();
    expect(endpoints.map((x) => x.id)).toEqual([endpoint.id]);
    expect(endpoints[0]).toMatchObject({ name: "api", workersMax: 2, networkVolumeId: volume.id });

    expect((await e.stack.preview()).changeSummary).toEqual({ same: 3 });
    await e.stack.destroy();
    expect(await e.client.endpoints.list()).toEqual([]);
    expect((await e.client.networkVolumes.list()).map((v) => v.id)).toEqual([volume.id]);
  });
});

describe(
  "examples/training-pod: a GPU pod on a volume and a CPU pod, stopped and started by one line",
  { timeout: 300_000 },
  () => {
    it("passes the pack, deploys, stops and starts, shows what it cost as a table, JSON and SVG, and destroys", async () => {
      // A manual clock: the test moves platform time, so the spend is known to the cent.
      const e = await exampleStack("training-pod", "dev", undefined, { timeScale: 0, managementQuota: false });
      await trainingPodJourney(e, previewWithPack);
    });
  },
);
