import { describe, expect, it } from "vitest";
import { type Client, useTestEmulator } from "./helpers";
import { v2ResponseProblems } from "./openapi-v2";

/**
 * Every management API v2 list pages (`limit`, `cursor`, `pagination`), here with a default page of
 * 2 (`pageSize`) so a few items make several pages; and the 422s of a bad `limit` or cursor.
 */
const ctx = useTestEmulator({ pageSize: 2 }, "file");
const { api, other } = ctx;

const POD = { image: "runpod/pytorch:2.1.0", gpu: { id: "NVIDIA L4", count: 1 }, dataCenterIds: ["EU-RO-1"] };
const CLUSTER = {
  type: "TRAINING",
  image: "img:1",
  compute: { gpuTypeId: "NVIDIA A40", gpuCountPerPod: 1, podCount: 3 },
};
const ENDPOINT = {
  type: "QUEUE",
  image: "ghcr.io/acme/echo:1.0",
  gpu: { pools: ["ADA_24"] },
  scaling: { type: "QUEUE_DELAY", queueDelay: 4 },
};

async function made(path: string, body: Record<string, unknown>): Promise<string> {
  const res = await api.post(path, body);
  if (res.status !== 201) throw new Error(`${path}: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body.id as string;
}

/** Walks a list page by page as a client must: the same path and query on each, plus the cursor. */
async function walk(client: Client, path: string, key: string) {
  const pages: { ids: string[]; body: Record<string, unknown> }[] = [];
  let cursor: string | undefined;
  for (let n = 0; n < 50; n++) {
    const sep = path.includes("?") ? "&" : "?";
    const res = await client.get(cursor === undefined ? path : `${path}${sep}cursor=${encodeURIComponent(cursor)}`);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const items = res.body[key] as { id: string }[];
    pages.push({ ids: items.map((i) => i.id), body: res.body });
    const { hasNextPage, nextCursor } = res.body.pagination;
    if (!hasNextPage) {
      expect(nextCursor).toBeUndefined();
      return pages;
    }
    expect(typeof nextCursor).toBe("string");
    cursor = nextCursor;
  }
  throw new Error(`${path} did not end`);
}

async function problem(path: string, client: Client = api) {
  const res = await client.get(path);
  expect(res.status, JSON.stringify(res.body)).toBe(422);
  expect(res.headers["content-type"]).toMatch(/^application\/problem\+json/);
  expect(v2ResponseProblems("GET", "/v2/pods", 422, res.body)).toEqual([]);
  return res.body as { title: string; status: number; detail: string; errors: string[] };
}

describe("management v2 lists page by cursor", () => {
  it("pages every list, in creation order, each item once, each page valid against the held document", async () => {
    for (let i = 0; i < 5; i++) {
      await made("/v2/network-volumes", { name: `vol-${i}`, size: 10, dataCenter: "EU-RO-1" });
      await made("/v2/pods", { ...POD, name: `pod-${i}` });
      await made("/v2/serverless", { ...ENDPOINT, name: `ep-${i}` });
      await made("/v2/templates", { name: `tpl-${i}`, image: "ghcr.io/acme/echo:1.0" });
      await made("/v2/registries", { name: `reg-${i}`, username: "bot", password: "not-real" });
      await made("/v2/account/secrets", { name: `secret-${i}`, value: "not-real" });
      await made("/v2/registries/delegations", {
        resource: `arn:aws:ecr:us-east-2:418399314813:repository/runpod/r${i}`,
      });
    }
    const clusters = [];
    for (let i = 0; i < 3; i++) clusters.push(await made("/v2/clusters", { ...CLUSTER, name: `c${i}` }));

    const lists: [path: string, template: string | undefined, key: string, count: number][] = [
      ["/v2/network-volumes", "/v2/network-volumes", "networkVolumes", 5],
      ["/v2/pods", "/v2/pods", "pods", 5],
      ["/v2/pods?includeClusterPods=true", "/v2/pods", "pods", 14],
      ["/v2/serverless", "/v2/serverless", "endpoints", 5],
      ["/v2/templates", "/v2/templates", "templates", 5],
      ["/v2/registries", "/v2/registries", "registries", 5],
      ["/v2/registries/delegations", "/v2/registries/delegations", "delegations", 5],
      ["/v2/account/secrets", undefined, "secrets", 5],
      ["/v2/clusters", "/v2/clusters", "clusters", 3],
      [`/v2/clusters/${clusters[0]}/pods`, "/v2/clusters/{id}/pods", "pods", 3],
    ];
    for (const [path, template, key, count] of lists) {
      const pages = await walk(api, path, key);
      const ids = pages.flatMap((p) => p.ids);
      expect(
        pages.map((p) => p.ids.length),
        path,
      ).toEqual([...Array<number>(Math.ceil(count / 2) - 1).fill(2), count % 2 || 2]);
      // One page of everything (the largest limit) holds the same items in the same order.
      const all = await api.get(`${path}${path.includes("?") ? "&" : "?"}limit=1000`);
      expect(all.body.pagination).toEqual({ hasNextPage: false });
      expect(
        (all.body[key] as { id: string }[]).map((i) => i.id),
        path,
      ).toEqual(ids);
      if (template) for (const p of pages) expect(v2ResponseProblems("GET", template, 200, p.body), path).toEqual([]);
    }

    // The catalog pages too: the same GPU types, page by page, as in one page.
    for (const [path, key] of [
      ["/v2/catalog/gpus", "gpus"],
      ["/v2/catalog/cpus", "cpus"],
      ["/v2/catalog/datacenters?regions=EUROPE", "dataCenters"],
      ["/v2/catalog/templates", "templates"],
    ] as const) {
      const pages = await walk(api, path, key);
      const all = await api.get(`${path}${path.includes("?") ? "&" : "?"}limit=1000`);
      expect(
        pages.flatMap((p) => p.ids),
        path,
      ).toEqual((all.body[key] as { id: string }[]).map((i) => i.id));
      expect(pages.length, path).toBe(Math.max(1, Math.ceil((all.body[key] as unknown[]).length / 2)));
    }
    expect((await walk(api, "/v2/catalog/gpus", "gpus")).length).toBeGreaterThan(2);
  });

  it("keeps a walk whole while items come and go between its pages: each one there at its start once, new ones after", async () => {
    const ids: string[] = [];
    for (let i = 0; i < 3; i++)
      ids.push((await other.post("/v2/templates", { name: `o-${i}`, image: "img:1" })).body.id);
    const first = await other.get("/v2/templates");
    expect(first.body.templates.map((t: { id: string }) => t.id)).toEqual(ids.slice(0, 2));
    // Between the pages: one is made, and one already read is deleted.
    const made = (await other.post("/v2/templates", { name: "between", image: "img:1" })).body.id as string;
    expect((await other.del(`/v2/templates/${ids[0]}`)).status).toBe(204);
    const second = await other.get(`/v2/templates?cursor=${encodeURIComponent(first.body.pagination.nextCursor)}`);
    expect(second.body.templates.map((t: { id: string }) => t.id)).toEqual([ids[2], made]);
    expect(second.body.pagination).toEqual({ hasNextPage: false });
  });

  it("answers 422 for a limit out of range, and for a malformed, foreign or reused-with-other-parameters cursor", async () => {
    await api.post("/v2/templates", { name: "one-more", image: "img:1" });
    for (const limit of ["0", "1001", "x"]) {
      const body = await problem(`/v2/templates?limit=${limit}`);
      expect(body).toMatchObject({ title: "Unprocessable Content", status: 422 });
      expect(body.errors[0]).toContain("$.limit: must be a whole number from 1 to 1000");
    }
    expect((await problem("/v2/pods?cursor=bogus")).detail).toContain('cursor = "bogus": is malformed');

    const pods = await api.get("/v2/pods");
    const cursor = encodeURIComponent(pods.body.pagination.nextCursor as string);
    // Another list's cursor, another account's use of it, and other parameters with it.
    expect((await problem(`/v2/templates?cursor=${cursor}`)).detail).toContain(
      "belongs to another list (GET /v2/pods)",
    );
    expect((await problem(`/v2/pods?cursor=${cursor}`, other)).detail).toContain("was not issued to this account");
    expect((await problem(`/v2/pods?includeClusterPods=true&cursor=${cursor}`)).detail).toContain(
      "was issued for other parameters",
    );
    // A cursor of one cluster's members is foreign to another's.
    const clusters = (await api.get("/v2/clusters?limit=2")).body.clusters as { id: string }[];
    const members = await api.get(`/v2/clusters/${clusters[0]!.id}/pods`);
    const memberCursor = encodeURIComponent(members.body.pagination.nextCursor as string);
    expect((await problem(`/v2/clusters/${clusters[1]!.id}/pods?cursor=${memberCursor}`)).detail).toContain(
      "belongs to another list",
    );
    // The same cursor with the same parameters reads the same page again (a retried read).
    const again = [await api.get(`/v2/pods?cursor=${cursor}`), await api.get(`/v2/pods?cursor=${cursor}&limit=2`)];
    expect(again.map((r) => r.status)).toEqual([200, 200]);
    expect(again[0]!.body).toEqual(again[1]!.body);
  });
});
