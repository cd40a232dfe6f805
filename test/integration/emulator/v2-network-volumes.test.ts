import { describe, expect, it } from "vitest";
import { useTestEmulator } from "./helpers";
import { v2ResponseProblems } from "./openapi-v2";

const ctx = useTestEmulator({}, "file");
const { api, other } = ctx;

const COLLECTION = "/v2/network-volumes";
const ITEM = "/v2/network-volumes/{id}";

async function createV2(body: Record<string, unknown> = {}) {
  const res = await api.post(COLLECTION, { name: "data", size: 20, dataCenter: "EU-RO-1", ...body });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  expect(v2ResponseProblems("POST", COLLECTION, 201, res.body)).toEqual([]);
  return res.body as { id: string; name: string; size: number; dataCenter: string; type: string };
}

describe("management v2 network volumes (/v2/network-volumes)", () => {
  it("creates a volume (201) with its data center and tier, each answer as the v2 OpenAPI describes it", async () => {
    const v = await createV2({ type: "HIGH_PERFORMANCE" });
    expect(v).toEqual({
      id: expect.stringMatching(/^[a-z0-9]{10}$/),
      name: "data",
      size: 20,
      dataCenter: "EU-RO-1",
      type: "HIGH_PERFORMANCE",
    });
    const got = await api.get(`${COLLECTION}/${v.id}`);
    expect(got.body).toEqual(v);
    expect(v2ResponseProblems("GET", ITEM, 200, got.body)).toEqual([]);
    const list = await api.get(COLLECTION);
    expect(list.body.networkVolumes).toContainEqual(v);
    expect(v2ResponseProblems("GET", COLLECTION, 200, list.body)).toEqual([]);
  });

  it("gives a volume created without a tier the standard tier", async () => {
    expect((await createV2()).type).toBe("STANDARD");
  });

  it("renames and grows in place, accepts an unchanged size, and refuses a shrink naming the field", async () => {
    const v = await createV2({ size: 30 });
    const grown = await api.patch(`${COLLECTION}/${v.id}`, { name: "renamed", size: 40 });
    expect(grown.body).toEqual({ ...v, name: "renamed", size: 40 });
    expect(v2ResponseProblems("PATCH", ITEM, 200, grown.body)).toEqual([]);
    expect((await api.patch(`${COLLECTION}/${v.id}`, { size: 40 })).status).toBe(200);
    const shrink = await api.patch(`${COLLECTION}/${v.id}`, { size: 35 });
    expect(shrink.status).toBe(400);
    expect(shrink.headers["content-type"]).toMatch(/^application\/problem\+json/);
    expect(shrink.body).toEqual({
      title: "Bad Request",
      status: 400,
      detail: expect.stringContaining("size = 35"),
      errors: ["$.size: must be at least the current size of 40 GB; storage cannot be reduced (got 35)"],
    });
    expect(v2ResponseProblems("PATCH", ITEM, 400, shrink.body)).toEqual([]);
  });

  it("answers bad input with a problem object naming each field (unknown fields, bounds, an empty update)", async () => {
    const bad = await api.post(COLLECTION, { name: "", size: 5000, dataCenter: "EU-RO-1", bogus: 1 });
    expect(bad.status).toBe(400);
    expect(bad.body.errors).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/^\$\.name: must not be empty/),
        expect.stringMatching(/^\$\.size: must be at most 4096 GB/),
        expect.stringMatching(/bogus/),
      ]),
    );
    expect(v2ResponseProblems("POST", COLLECTION, 400, bad.body)).toEqual([]);
    const v = await createV2();
    const empty = await api.patch(`${COLLECTION}/${v.id}`, {});
    expect(empty.status).toBe(400);
    expect(empty.body.errors[0]).toMatch(/must change something/);
  });

  it("answers 404 and 401 as problem objects", async () => {
    const missing = await api.get(`${COLLECTION}/nope`);
    expect(missing.status).toBe(404);
    expect(missing.body).toEqual({ title: "Not Found", status: 404, detail: "network volume nope not found" });
    expect(v2ResponseProblems("GET", ITEM, 404, missing.body)).toEqual([]);
    const anonymous = await api.send("GET", COLLECTION, undefined, { authorization: "Bearer wrong" });
    expect(anonymous.status).toBe(401);
    expect(anonymous.body).toMatchObject({ title: "Unauthorized", status: 401 });
    expect((await api.get(`${COLLECTION}/x/unknown`)).body).toMatchObject({ status: 404, title: "Not Found" });
  });

  it("serves v1 and v2 over the same records: a v1 volume is grown and deleted through v2, and back", async () => {
    const v1 = (await api.post("/v1/networkvolumes", { name: "old", size: 10, dataCenterId: "US-TX-3" })).body;
    const seen = await api.get(`${COLLECTION}/${v1.id}`);
    expect(seen.body).toEqual({ id: v1.id, name: "old", size: 10, dataCenter: "US-TX-3", type: "STANDARD" });
    expect((await api.patch(`${COLLECTION}/${v1.id}`, { size: 20 })).body.size).toBe(20);
    expect((await api.get(`/v1/networkvolumes/${v1.id}`)).body).toEqual({ ...v1, size: 20 });

    const v2 = await createV2({ type: "HIGH_PERFORMANCE" });
    // v1 knows no tiers: its answer holds exactly v1's fields.
    expect((await api.get(`/v1/networkvolumes/${v2.id}`)).body).toEqual({
      id: v2.id,
      name: "data",
      size: 20,
      dataCenterId: "EU-RO-1",
    });
    expect((await api.del(`/v1/networkvolumes/${v2.id}`)).status).toBe(204);
    expect((await api.get(`${COLLECTION}/${v2.id}`)).status).toBe(404);
    expect((await api.del(`${COLLECTION}/${v1.id}`)).status).toBe(204);
    expect((await api.get(`/v1/networkvolumes/${v1.id}`)).status).toBe(404);
  });

  it("keeps accounts apart on v2 too", async () => {
    const v = await createV2();
    expect((await other.get(`${COLLECTION}/${v.id}`)).status).toBe(404);
    expect((await other.get(COLLECTION)).body.networkVolumes.map((x: { id: string }) => x.id)).not.toContain(v.id);
  });
});
