import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type RunningEmulator, startEmulator } from "../../../emulator";
import { RequestValidationError, ResponseValidationError, RunpodClient, type V2 } from "../../../sdk";
import { scriptedClients } from "./scripted-server";

/**
 * The client reads management API v2's lists to their end: against an emulator whose default page
 * holds 2 items, every list it reads (the v2 classes, the version-neutral API over them, the
 * catalog) follows the cursors, and the v2 classes hand out pages and items as iterators.
 */
const KEY = "paging-key";
let emulator: RunningEmulator;
let client: RunpodClient;
let clusterId: string;

async function routeCounts(): Promise<Record<string, number>> {
  const res = await fetch(`${emulator.url}/_emulator/stats`, { headers: { authorization: `Bearer ${KEY}` } });
  return ((await res.json()) as { requests: { byRoute: Record<string, number> } }).requests.byRoute;
}

async function resetCounts(): Promise<void> {
  await fetch(`${emulator.url}/_emulator/stats/reset`, { method: "POST", headers: { authorization: `Bearer ${KEY}` } });
}

beforeAll(async () => {
  emulator = await startEmulator({ port: 0, apiKeys: [KEY], rateLimits: false, managementQuota: false, pageSize: 2 });
  client = new RunpodClient({ apiKey: KEY, apiUrl: emulator.apiUrlV2, queueUrl: emulator.queueUrl });
  for (let i = 0; i < 5; i++) {
    await client.v2.templates.create({ name: `tpl-${i}`, image: "ghcr.io/acme/echo:1.0" });
    await client.v2.networkVolumes.create({ name: `vol-${i}`, size: 10, dataCenter: "EU-RO-1" });
    await client.v2.account.secrets.create({ name: `secret_${i}`, value: "not-real" });
    await client.v2.registries.delegations.create({
      resource: `arn:aws:ecr:us-east-2:418399314813:repository/acme/r${i}`,
    });
  }
  const cluster = await client.v2.clusters.create({
    name: "c",
    type: "TRAINING",
    image: "img:1",
    compute: { gpuTypeId: "NVIDIA A40", gpuCountPerPod: 1, podCount: 3 },
  } as V2.CreateClusterRequest);
  clusterId = cluster.id;
});

afterAll(async () => {
  await client.close();
  await emulator.close();
});

describe("the client reads v2 lists to their end", () => {
  it("lists every page, one request per page, the same parameters on each", async () => {
    await resetCounts();
    const templates = await client.v2.templates.list();
    expect(templates.map((t) => t.name)).toEqual(["tpl-0", "tpl-1", "tpl-2", "tpl-3", "tpl-4"]);
    expect((await routeCounts())["GET /v2/templates"]).toBe(3);
    expect((await client.v2.templates.list({ limit: 1000 })).map((t) => t.id)).toEqual(templates.map((t) => t.id));
    expect(await client.v2.networkVolumes.list()).toHaveLength(5);
    expect(await client.v2.account.secrets.list()).toHaveLength(5);
    expect(await client.v2.registries.delegations.list()).toHaveLength(5);
    expect((await client.v2.clusters.pods(clusterId)).map((p) => p.cluster?.id ?? clusterId)).toHaveLength(3);
    // Cluster members only with the parameter, sent again with every cursor (the emulator would 422 otherwise).
    expect(await client.v2.pods.list()).toHaveLength(0);
    expect(await client.v2.pods.list({ includeClusterPods: true })).toHaveLength(3);
  });

  it("reads to the end through the version-neutral API and the catalog", async () => {
    expect((await client.templates.list()).map((t) => t.name)).toEqual(["tpl-0", "tpl-1", "tpl-2", "tpl-3", "tpl-4"]);
    expect(await client.networkVolumes.list()).toHaveLength(5);
    const gpus = await client.v2.catalog.gpus();
    const onePage = await client.v2.catalog.gpus({ limit: 1000 });
    expect(gpus.length).toBeGreaterThan(2);
    expect(gpus.map((g) => g.id)).toEqual(onePage.map((g) => g.id));
    const inEurope = await client.v2.catalog.dataCenters({ regions: ["EUROPE"] });
    expect(inEurope.map((d) => d.id)).toEqual(
      (await client.v2.catalog.dataCenters({ regions: ["EUROPE"], limit: 1000 })).map((d) => d.id),
    );
    expect((await client.v2.catalog.cpus()).length).toBe((await client.v2.catalog.cpus({ limit: 1000 })).length);
  });

  it("hands out items and pages as async iterators, reading a page only when it is reached", async () => {
    await resetCounts();
    const names: string[] = [];
    for await (const template of client.v2.templates.items()) {
      names.push(template.name);
      if (names.length === 3) break;
    }
    expect(names).toEqual(["tpl-0", "tpl-1", "tpl-2"]);
    expect((await routeCounts())["GET /v2/templates"]).toBe(2);

    const pages: { names: string[]; hasNextPage: boolean }[] = [];
    let resumeAt: string | undefined;
    for await (const page of client.v2.templates.pages({ limit: 3 })) {
      pages.push({ names: page.items.map((t) => t.name), hasNextPage: page.hasNextPage });
      resumeAt ??= page.nextCursor;
    }
    expect(pages).toEqual([
      { names: ["tpl-0", "tpl-1", "tpl-2"], hasNextPage: true },
      { names: ["tpl-3", "tpl-4"], hasNextPage: false },
    ]);
    const resumed = [];
    for await (const page of client.v2.templates.pages({ limit: 3, cursor: resumeAt })) resumed.push(...page.items);
    expect(resumed.map((t) => t.name)).toEqual(["tpl-3", "tpl-4"]);
  });

  it("refuses a limit out of range before sending, and surfaces the platform's 422 for a foreign cursor", async () => {
    await resetCounts();
    await expect(client.v2.templates.list({ limit: 0 })).rejects.toBeInstanceOf(RequestValidationError);
    await expect(client.v2.catalog.gpus({ limit: 1001 })).rejects.toThrow(/limit = 1001: must be at most 1000/);
    expect(await routeCounts()).toEqual({});
    const first = await client.v2.templates.pages({ limit: 1 }).next();
    const foreign = client.v2.networkVolumes.pages({ cursor: first.value!.nextCursor });
    await expect(foreign.next()).rejects.toMatchObject({
      status: 422,
      message: expect.stringContaining("another list"),
    });
  });
});

describe("the client against answers that end oddly", () => {
  const setup = scriptedClients("k", { maxAttempts: 1 });
  const page = (names: string[], pagination?: unknown) => ({
    status: 200,
    body: { templates: names.map((name) => ({ id: name, name, image: "img:1" })), pagination },
  });

  it("ends on hasNextPage false whether nextCursor is null or absent, and reads an unpaged answer as one page", async () => {
    const { server } = await setup([
      page(["a"], { hasNextPage: true, nextCursor: "c1" }),
      page(["b"], { hasNextPage: false, nextCursor: null }),
      page(["c"], { hasNextPage: false }),
      page(["d"]),
    ]);
    const v2 = new RunpodClient({ apiKey: "k", apiUrl: `${server.url}/v2`, maxAttempts: 1 });
    try {
      expect((await v2.v2.templates.list()).map((t) => t.id)).toEqual(["a", "b"]);
      expect((await v2.v2.templates.list()).map((t) => t.id)).toEqual(["c"]);
      expect((await v2.v2.templates.list()).map((t) => t.id)).toEqual(["d"]);
      expect(server.seen.map((s) => s.url)).toEqual([
        "/v2/templates",
        "/v2/templates?cursor=c1",
        "/v2/templates",
        "/v2/templates",
      ]);
    } finally {
      await v2.close();
    }
  });

  it("refuses a page that says hasNextPage without a cursor, after one request", async () => {
    const { server } = await setup([page(["a"], { hasNextPage: true, nextCursor: null })]);
    const v2 = new RunpodClient({ apiKey: "k", apiUrl: `${server.url}/v2`, maxAttempts: 1 });
    try {
      const failure = v2.v2.templates.list();
      await expect(failure).rejects.toBeInstanceOf(ResponseValidationError);
      await expect(failure).rejects.toThrow(
        "pagination.nextCursor = undefined: must be given while hasNextPage is true",
      );
      expect(server.seen).toHaveLength(1);
    } finally {
      await v2.close();
    }
  });
});
