import { describe, expect, it } from "vitest";
import { DATA_CENTER_IDS, ENDPOINT_DEFAULTS, EndpointListSchema, EndpointSchema } from "../../../sdk/schemas";
import { createEndpoint, useTestEmulator } from "./helpers";
import { openApiProblems } from "./openapi-shape";

/**
 * Create-input fields the emulator echoes in the endpoint record although the OpenAPI `Endpoint`
 * does not list them (so a provider can read back what it set).
 */
const ECHOED_INPUT_FIELDS = ["flashboot", "cpuFlavorIds", "vcpuCount"];

const ctx = useTestEmulator({}, "file");
const { api } = ctx;

describe("endpoints (docs/platform.md 'Management API v1', OpenAPI 'endpoints')", () => {
  it("creates an endpoint with the OpenAPI defaults, createdAt, userId and version", async () => {
    const res = await api.post("/v1/endpoints", { templateId: "echo", name: "my-endpoint", gpuTypeIds: ["NVIDIA L4"] });
    expect(res.status).toBe(200);
    const e = res.body;
    expect(e).toEqual({
      id: expect.stringMatching(/^[a-z0-9]{14}$/),
      name: "my-endpoint",
      templateId: "echo",
      computeType: ENDPOINT_DEFAULTS.computeType,
      gpuTypeIds: ["NVIDIA L4"],
      gpuCount: ENDPOINT_DEFAULTS.gpuCount,
      workersMin: ENDPOINT_DEFAULTS.workersMin,
      workersMax: ENDPOINT_DEFAULTS.workersMax,
      idleTimeout: ENDPOINT_DEFAULTS.idleTimeout,
      scalerType: ENDPOINT_DEFAULTS.scalerType,
      scalerValue: ENDPOINT_DEFAULTS.scalerValue,
      executionTimeoutMs: ENDPOINT_DEFAULTS.executionTimeoutMs,
      flashboot: ENDPOINT_DEFAULTS.flashboot,
      dataCenterIds: [...DATA_CENTER_IDS],
      env: {},
      createdAt: expect.any(String),
      userId: expect.stringMatching(/^user_/),
      version: 0,
    });
    expect(new Date(e.createdAt).toISOString()).toBe(e.createdAt);
    expect(openApiProblems("Endpoint", e, ECHOED_INPUT_FIELDS)).toEqual([]);
    EndpointSchema.parse(e);
  });

  it("gives CPU endpoints a vcpuCount default instead of gpuCount", async () => {
    const e = (await api.post("/v1/endpoints", { templateId: "echo", computeType: "CPU", cpuFlavorIds: ["cpu3c"] }))
      .body;
    expect(e).toMatchObject({ computeType: "CPU", vcpuCount: ENDPOINT_DEFAULTS.vcpuCount, cpuFlavorIds: ["cpu3c"] });
    expect(e.gpuCount).toBeUndefined();
  });

  it("refuses an unknown templateId with 400 naming the field", async () => {
    const res = await api.post("/v1/endpoints", { templateId: "no-such-template" });
    expect(res.status).toBe(400);
    expect(res.body.problems).toEqual([
      { field: "templateId", value: '"no-such-template"', rule: expect.stringContaining("is not a known template") },
    ]);
  });

  it.each([
    [{ templateId: "echo", workersMin: 3, workersMax: 2 }, "workersMin"],
    [{ templateId: "echo", workersMin: 4 }, "workersMin"],
    [{ templateId: "echo", idleTimeout: 0 }, "idleTimeout"],
    [{ templateId: "echo", gpuTypeIds: ["NVIDIA GTX 1"] }, "gpuTypeIds.0"],
    [{ templateId: "echo", networkVolumeId: "nosuchvol1" }, "networkVolumeId"],
    [{ name: "no template" }, "templateId"],
  ])("refuses %j with 400 naming %s", async (body, field) => {
    const res = await api.post("/v1/endpoints", body);
    expect(res.status).toBe(400);
    expect(res.body.error).toBe("bad_request");
    expect(res.body.problems.map((p: { field: string }) => p.field)).toContain(field);
  });

  it("accepts an attached network volume of the same account", async () => {
    const v = (await api.post("/v1/networkvolumes", { name: "v", size: 5, dataCenterId: "EU-RO-1" })).body;
    const e = (await api.post("/v1/endpoints", { templateId: "echo", networkVolumeId: v.id })).body;
    expect(e.networkVolumeId).toBe(v.id);
  });

  it("lists and gets endpoints, with includeTemplate and includeWorkers", async () => {
    const id = await createEndpoint(api, { workersMin: 2, workersMax: 3 });
    const list = await api.get("/v1/endpoints");
    expect(EndpointListSchema.parse(list.body).map((e) => e.id)).toContain(id);
    expect(openApiProblems("Endpoints", list.body, ECHOED_INPUT_FIELDS)).toEqual([]);
    const plain = (await api.get(`/v1/endpoints/${id}`)).body;
    expect(plain.template).toBeUndefined();
    expect(plain.workers).toBeUndefined();
    const full = (await api.get(`/v1/endpoints/${id}?includeTemplate=true&includeWorkers=true`)).body;
    expect(full.template).toMatchObject({ id: "echo", isServerless: true });
    expect(full.workers).toHaveLength(2);
    expect(full.workers[0]).toMatchObject({ desiredStatus: "RUNNING", endpointId: id });
    expect(openApiProblems("Endpoint", full, ECHOED_INPUT_FIELDS)).toEqual([]);
    const listed = (await api.get("/v1/endpoints?includeWorkers=true")).body.find((e: { id: string }) => e.id === id);
    expect(listed.workers).toHaveLength(2);
  });

  it.each([["PATCH"], ["POST .../update"]])("updates an endpoint with %s and increments its version", async (how) => {
    const id = await createEndpoint(api);
    const body = { workersMax: 5, name: "renamed" };
    const res =
      how === "PATCH"
        ? await api.patch(`/v1/endpoints/${id}`, body)
        : await api.post(`/v1/endpoints/${id}/update`, body);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ id, workersMax: 5, name: "renamed", version: 1, templateId: "echo" });
    expect((await api.get(`/v1/endpoints/${id}`)).body.version).toBe(1);
    expect((await api.patch(`/v1/endpoints/${id}`, { templateId: "sleep" })).body.version).toBe(2);
    expect((await api.patch(`/v1/endpoints/${id}`, { templateId: "sleep" })).body.version).toBe(2);
  });

  it("refuses an update that would leave workersMin above workersMax", async () => {
    const id = await createEndpoint(api, { workersMin: 1, workersMax: 2 });
    const res = await api.patch(`/v1/endpoints/${id}`, { workersMax: 0 });
    expect(res.status).toBe(400);
    expect(res.body.problems[0]).toMatchObject({
      field: "workersMin",
      rule: "workersMin must not exceed workersMax (0)",
    });
    expect((await api.patch(`/v1/endpoints/${id}`, { templateId: "nope" })).status).toBe(400);
    expect((await api.get(`/v1/endpoints/${id}`)).body).toMatchObject({
      workersMax: 2,
      templateId: "echo",
      version: 0,
    });
  });

  it("deletes an endpoint with 204; its jobs are gone with it", async () => {
    const id = await createEndpoint(api, { workersMax: 0 });
    const job = (await api.post(`/v2/${id}/run`, { input: {} })).body.id;
    const del = await api.del(`/v1/endpoints/${id}`);
    expect(del.status).toBe(204);
    expect((await api.get(`/v1/endpoints/${id}`)).status).toBe(404);
    expect((await api.get(`/v2/${id}/status/${job}`)).status).toBe(404);
    expect((await api.del(`/v1/endpoints/${id}`)).status).toBe(404);
  });
});
