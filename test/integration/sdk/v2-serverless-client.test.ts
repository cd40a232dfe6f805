import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type RunningEmulator, startEmulator } from "../../../emulator";
import {
  AbortError,
  NotFoundError,
  RequestValidationError,
  RunpodClient,
  UnsupportedOperationError,
} from "../../../sdk";

/**
 * The raw v2 operations of serverless endpoints, templates, registries and the template catalog
 * (`client.v2.*`) against the emulator over HTTP: v2's shapes in and out, lists unwrapped, the
 * worker log stream read as it comes.
 */
let emulator: RunningEmulator;
let client: RunpodClient;

beforeAll(async () => {
  emulator = await startEmulator({ port: 0, apiKeys: ["raw-v2"], rateLimits: false });
  client = new RunpodClient({ apiKey: "raw-v2", apiUrl: emulator.apiUrlV2, queueUrl: emulator.queueUrl });
});
afterAll(async () => {
  await client.close();
  await emulator.close();
});

describe("client.v2.serverless", () => {
  it("creates, reads, lists, updates and deletes an endpoint in v2's shapes", async () => {
    const e = await client.v2.serverless.create({
      name: "raw",
      type: "QUEUE",
      image: "ghcr.io/acme/echo:1",
      gpu: { pools: ["AMPERE_24"], excludedTypes: ["NVIDIA L4"] },
      scaling: { type: "QUEUE_DELAY", queueDelay: 2 },
    });
    expect(e).toMatchObject({
      name: "raw",
      type: "QUEUE",
      gpu: { pools: ["AMPERE_24"], excludedTypes: ["NVIDIA L4"] },
    });
    expect(e.requestUrls).toMatchObject({ run: `${emulator.queueUrl}/${e.id}/run` });
    expect(await client.v2.serverless.get(e.id)).toEqual(e);
    expect((await client.v2.serverless.list()).map((x) => x.id)).toContain(e.id);
    const updated = await client.v2.serverless.update(e.id, { workers: { max: 5 }, flashboot: "PRIORITY_FLASHBOOT" });
    expect(updated).toMatchObject({ workers: { max: 5 }, flashboot: "PRIORITY_FLASHBOOT" });
    await client.v2.serverless.delete(e.id);
    await expect(client.v2.serverless.get(e.id)).rejects.toBeInstanceOf(NotFoundError);
  });

  it("refuses before sending what v2 refuses (LOAD_BALANCER on queue delay, exclusions without pools)", async () => {
    const before = client.transport.attempts;
    const lb = await client.v2.serverless
      .create({
        name: "x",
        type: "LOAD_BALANCER",
        image: "i",
        gpu: { pools: ["ADA_24"] },
        scaling: { type: "QUEUE_DELAY", queueDelay: 1 },
      })
      .catch((err: unknown) => err);
    expect(lb).toBeInstanceOf(RequestValidationError);
    expect((lb as Error).message).toMatch(
      /scaling\.type = "QUEUE_DELAY": a LOAD_BALANCER endpoint scales on REQUEST_COUNT/,
    );
    const excl = await client.v2.serverless
      .update("any", { gpu: { excludedTypes: ["NVIDIA L4"] } })
      .catch((err: unknown) => err);
    expect((excl as Error).message).toMatch(/gpu\.excludedTypes = .*: requires pools/);
    expect(client.transport.attempts).toBe(before);
  });

  it("lists workers and releases, and streams a worker's log lines until the caller stops", async () => {
    const e = await client.v2.serverless.create({
      name: "observed",
      type: "QUEUE",
      image: "ghcr.io/acme/echo:1",
      gpu: { pools: ["ADA_24"] },
      scaling: { type: "QUEUE_DELAY", queueDelay: 4 },
      workers: { min: 1, max: 1 },
    });
    await client.jobs(e.id).runSync({ input: { ping: 1 } });
    const { workers, summary, endpointVersion } = await client.v2.serverless.workers(e.id);
    expect(summary.total).toBe(1);
    expect(workers[0]).toMatchObject({ status: "IDLE", version: endpointVersion, isStale: false });
    const releases = await client.v2.serverless.releases(e.id);
    expect(releases.releases).toHaveLength(1);
    expect(releases.rollout).toMatchObject({ workersOnLatest: 1, workersTotal: 1, percentOnLatest: 100 });

    const lines: string[] = [];
    for await (const event of client.v2.serverless.workerLogs(e.id, workers[0]!.id, { source: "container" })) {
      expect(event.source).toBe("container");
      lines.push(event.line);
      if (lines.length === 2) break;
    }
    expect(lines).toEqual([expect.stringMatching(/^job \S+ started$/), expect.stringMatching(/^job \S+ completed/)]);

    // A live line reaches a reader that is still following.
    const follower = client.v2.serverless.workerLogs(e.id, workers[0]!.id, { tail: 0 })[Symbol.asyncIterator]();
    const next = follower.next();
    await client.jobs(e.id).runSync({ input: { ping: 2 } });
    expect((await next).value).toMatchObject({ source: "container", line: expect.stringMatching(/^job \S+ started$/) });
    await follower.return?.(undefined);

    const gone = client.v2.serverless.workerLogs(e.id, "no-such-worker")[Symbol.asyncIterator]();
    await expect(gone.next()).rejects.toBeInstanceOf(NotFoundError);
    const badTail = client.v2.serverless.workerLogs(e.id, workers[0]!.id, { tail: 9000 })[Symbol.asyncIterator]();
    await expect(badTail.next()).rejects.toBeInstanceOf(RequestValidationError);

    const aborted = new AbortController();
    const stopped = client.v2.serverless.workerLogs(e.id, workers[0]!.id, { tail: 0, signal: aborted.signal });
    const waiting = stopped[Symbol.asyncIterator]().next();
    aborted.abort();
    await expect(waiting).rejects.toBeInstanceOf(AbortError);
  });
});

describe("client.v2.templates, client.v2.catalog.templates, client.v2.registries", () => {
  it("creates, reads, updates and deletes a template; reads the public catalog", async () => {
    const t = await client.v2.templates.create({
      name: "raw-template",
      image: "ghcr.io/acme/echo:1",
      serverless: true,
    });
    expect(t).toMatchObject({ serverless: true, startSsh: true, category: "NVIDIA" });
    expect(await client.v2.templates.update(t.id, { startSsh: false })).toMatchObject({ startSsh: false });
    expect((await client.v2.templates.list()).map((x) => x.id)).toContain(t.id);
    await client.v2.templates.delete(t.id);
    const official = await client.v2.catalog.templates();
    expect(official.map((x) => x.id)).toContain("echo");
    expect(await client.v2.catalog.templates({ source: "verified" })).toEqual([]);
    expect((await client.v2.templates.get("sleep")).image).toBe("runpod-iac-emulator/sleep:latest");
  });

  it("creates, reads, lists and deletes a registry, and ECR delegations", async () => {
    const r = await client.v2.registries.create({ name: "raw-registry", username: "u", password: "pw-raw" });
    expect(r).toEqual({ id: expect.any(String), name: "raw-registry" });
    expect(await client.v2.registries.get(r.id)).toEqual(r);
    expect(await client.v2.registries.list()).toContainEqual(r);
    await client.v2.registries.delete(r.id);
    const d = await client.v2.registries.delegations.create({
      resource: "arn:aws:ecr:eu-west-1:123456789012:repository/team/model:v3",
    });
    expect(d).toMatchObject({ repository: "team/model", tag: "v3", awsRegion: "eu-west-1", name: null });
    expect(await client.v2.registries.delegations.list()).toEqual([d]);
    await client.v2.registries.delegations.revoke(d.id);
    await expect(client.v2.registries.delegations.revoke(d.id)).rejects.toBeInstanceOf(NotFoundError);
  });

  it("refuses every v2 operation on a v1 client before sending, naming it", async () => {
    const v1 = new RunpodClient({ apiKey: "raw-v2", apiUrl: emulator.apiUrlV1 });
    try {
      await expect(v1.v2.serverless.list()).rejects.toMatchObject({ operation: "v2.serverless.list", version: "v1" });
      await expect(v1.v2.templates.get("x")).rejects.toBeInstanceOf(UnsupportedOperationError);
      await expect(v1.v2.registries.delegations.list()).rejects.toMatchObject({
        operation: "v2.registries.delegations.list",
      });
      await expect(v1.v2.catalog.templates()).rejects.toMatchObject({ operation: "v2.catalog.templates" });
      const logs = v1.v2.serverless.workerLogs("e", "w")[Symbol.asyncIterator]();
      await expect(logs.next()).rejects.toMatchObject({ operation: "v2.serverless.workerLogs" });
      expect(v1.transport.attempts).toBe(0);
    } finally {
      await v1.close();
    }
  });
});
