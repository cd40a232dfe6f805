import { describe, expect, it } from "vitest";
import { useTestEmulator } from "./helpers";

const ctx = useTestEmulator({}, "file");
const { api } = ctx;

const POD = { name: "p", imageName: "runpod/pytorch:2.1.0", gpuCount: 1, dataCenterIds: ["EU-RO-1"] };

// v1's array parameters are sent the OpenAPI 3.0 default way (style form, explode true): the
// parameter repeated. schemathesis sent `dataCenterId` twice and the emulator failed with a 500.
describe("repeated query parameters", () => {
  it("reads a v1 array parameter given more than once as the list of its values", async () => {
    const l4 = (await api.post("/v1/pods", { ...POD, gpuTypeIds: ["NVIDIA L4"] })).body.id;
    const a40 = (await api.post("/v1/pods", { ...POD, gpuTypeIds: ["NVIDIA A40"] })).body.id;
    await api.post("/v1/pods", { ...POD, gpuTypeIds: ["NVIDIA RTX A5000"] });
    const both = await api.get("/v1/pods?gpuTypeId=NVIDIA%20L4&gpuTypeId=NVIDIA%20A40");
    expect(both.status).toBe(200);
    expect(both.body.map((p: { id: string }) => p.id).sort()).toEqual([l4, a40].sort());
    // The comma-separated form still reads as a list.
    const comma = await api.get("/v1/pods?gpuTypeId=NVIDIA%20L4,NVIDIA%20A40");
    expect(comma.body).toHaveLength(2);
    const billing = await api.get("/v1/billing/endpoints?dataCenterId=EU-RO-1&dataCenterId=CA-MTL-1");
    expect(billing.status).toBe(200);
    expect(billing.body).toEqual([]);
  });

  it("refuses a single-valued parameter given twice with a 400 naming it, on either version", async () => {
    const v1 = await api.get("/v1/billing/pods?bucketSize=day&bucketSize=hour");
    expect(v1.status).toBe(400);
    expect(v1.body.problems).toEqual([
      { field: "bucketSize", value: '"day, hour"', rule: "takes one value; it was given 2 times" },
    ]);
    const v2 = await api.get("/v2/billing/pods?startTime=2026-01-01T00:00:00Z&startTime=2026-01-02T00:00:00Z");
    expect(v2.status).toBe(400);
    expect(v2.body.errors[0]).toContain("startTime");
    expect((await api.get("/v1/pods?name=a&name=b")).status).toBe(400);
  });
});
