import { describe, expect, it } from "vitest";
import { NetworkVolumeListSchema, NetworkVolumeSchema } from "../../../sdk/schemas";
import { useTestEmulator } from "./helpers";
import { openApiProblems } from "./openapi-shape";

const ctx = useTestEmulator({}, "file");
const { api } = ctx;

async function createVolume(size = 10, name = "data") {
  const res = await api.post("/v1/networkvolumes", { name, size, dataCenterId: "EU-RO-1" });
  expect(res.status).toBe(200);
  return res.body as { id: string; name: string; size: number; dataCenterId: string };
}

describe("network volumes (docs/platform.md 'Management API v1', OpenAPI 'network volumes')", () => {
  it("creates a volume and answers 200 with it, with a 10-character lowercase alphanumeric id", async () => {
    const v = await createVolume(25, "models");
    expect(v).toEqual({
      id: expect.stringMatching(/^[a-z0-9]{10}$/),
      name: "models",
      size: 25,
      dataCenterId: "EU-RO-1",
    });
    expect(openApiProblems("NetworkVolume", v)).toEqual([]);
    NetworkVolumeSchema.parse(v);
  });

  it("lists and gets the account's volumes", async () => {
    const v = await createVolume();
    const list = await api.get("/v1/networkvolumes");
    expect(list.status).toBe(200);
    expect(NetworkVolumeListSchema.parse(list.body)).toContainEqual(v);
    expect(openApiProblems("NetworkVolumes", list.body)).toEqual([]);
    expect((await api.get(`/v1/networkvolumes/${v.id}`)).body).toEqual(v);
  });

  it.each([["PATCH"], ["POST .../update"]])(
    "grows a volume with %s and answers the volume with its new size (rules 1-2)",
    async (how) => {
      const v = await createVolume(10);
      const res =
        how === "PATCH"
          ? await api.patch(`/v1/networkvolumes/${v.id}`, { size: 20, name: "bigger" })
          : await api.post(`/v1/networkvolumes/${v.id}/update`, { size: 20, name: "bigger" });
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ ...v, size: 20, name: "bigger" });
      expect((await api.get(`/v1/networkvolumes/${v.id}`)).body.size).toBe(20);
    },
  );

  it("renames a volume without touching its size", async () => {
    const v = await createVolume(10);
    expect((await api.patch(`/v1/networkvolumes/${v.id}`, { name: "renamed" })).body).toEqual({
      ...v,
      name: "renamed",
    });
  });

  it.each([
    [9, "size can only grow"],
    [10, "size must be greater than the current size"],
  ])("refuses to set size %s on a 10 GB volume with 400 naming size (rule 2)", async (size, rule) => {
    const v = await createVolume(10);
    for (const res of [
      await api.patch(`/v1/networkvolumes/${v.id}`, { size }),
      await api.post(`/v1/networkvolumes/${v.id}/update`, { size }),
    ]) {
      expect(res.status).toBe(400);
      expect(res.body.error).toBe("bad_request");
      expect(res.body.problems).toEqual([{ field: "size", value: String(size), rule: expect.stringContaining(rule) }]);
      expect(res.body.message).toContain(`size = ${size}: `);
    }
    expect((await api.get(`/v1/networkvolumes/${v.id}`)).body.size).toBe(10);
  });

  it.each([
    [{ name: "v", size: 4001, dataCenterId: "EU-RO-1" }, "size", "must be at most 4000 GB"],
    [{ name: "v", size: -1, dataCenterId: "EU-RO-1" }, "size", "must be at least 0 GB"],
    [{ name: "v", size: 1.5, dataCenterId: "EU-RO-1" }, "size", "must be a whole number of GB"],
    [{ size: 1, dataCenterId: "EU-RO-1" }, "name", "is required"],
    [{ name: "v", size: 1 }, "dataCenterId", "is required"],
  ])("refuses creation input %j with 400 naming %s", async (body, field, rule) => {
    const res = await api.post("/v1/networkvolumes", body);
    expect(res.status).toBe(400);
    expect(res.body.problems).toContainEqual({ field, value: expect.any(String), rule });
  });

  it("accepts the bounds 0 and 4000 GB", async () => {
    expect((await createVolume(0)).size).toBe(0);
    expect((await createVolume(4000)).size).toBe(4000);
    const grown = await createVolume(3999);
    expect((await api.patch(`/v1/networkvolumes/${grown.id}`, { size: 4000 })).status).toBe(200);
    expect((await api.patch(`/v1/networkvolumes/${grown.id}`, { size: 4001 })).status).toBe(400);
  });

  it("deletes a volume with 204 and then answers 404 for it", async () => {
    const v = await createVolume();
    const del = await api.del(`/v1/networkvolumes/${v.id}`);
    expect(del.status).toBe(204);
    expect(del.body).toBe("");
    expect((await api.get(`/v1/networkvolumes/${v.id}`)).status).toBe(404);
    expect((await api.del(`/v1/networkvolumes/${v.id}`)).status).toBe(404);
    expect((await api.patch(`/v1/networkvolumes/${v.id}`, { size: 99 })).body).toEqual({
      error: "not_found",
      message: `network volume ${v.id} not found`,
    });
  });
});
