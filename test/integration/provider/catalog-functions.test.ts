import * as pulumi from "@pulumi/pulumi";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type RunningEmulator, startEmulator } from "../../../emulator";
import { getDataCenters, getGpuTypesOutput } from "../../../provider/catalog";
import { invokeCatalogFunction } from "../../../provider/catalog-functions";
import { RunpodClient } from "../../../sdk/client";

/*
 * The catalog functions against the emulator over HTTP: the filters reach the platform as v2
 * takes them, and the answer is the client's reading of it. The program form (`getDataCenters`,
 * `getGpuTypesOutput`) reads the configuration as the provider does: here no stack config is
 * set, so the environment (`RUNPOD_API_KEY`, `RUNPOD_API_URL`) names the emulator.
 */

const API_KEY = "catalog-functions-it-key";
/** L4s in EU-RO-1 (3) and US-TX-3 (8) only: availability is read from this stock. */
const CAPACITY = {
  gpusPerType: 0,
  vcpusPerFlavor: 0,
  stock: { "EU-RO-1": { "NVIDIA L4": 3 }, "US-TX-3": { "NVIDIA L4": 8 } },
};
let emulator: RunningEmulator;
let v1: RunpodClient;
let v2: RunpodClient;
const saved = { key: process.env.RUNPOD_API_KEY, url: process.env.RUNPOD_API_URL };

beforeAll(async () => {
  emulator = await startEmulator({ port: 0, apiKeys: [API_KEY], rateLimits: false, capacity: CAPACITY });
  v1 = new RunpodClient({ apiKey: API_KEY, apiUrl: emulator.apiUrlV1 });
  v2 = new RunpodClient({ apiKey: API_KEY, apiUrl: emulator.apiUrlV2 });
});
afterAll(async () => {
  for (const [name, value] of [
    ["RUNPOD_API_KEY", saved.key],
    ["RUNPOD_API_URL", saved.url],
  ] as const) {
    if (value === undefined) delete process.env[name];
    else process.env[name] = value;
  }
  await Promise.all([v1?.close(), v2?.close()]);
  await emulator?.close();
});

/** Requests the emulator answered for this account, by route, since the last call. */
async function requestCounts(): Promise<Record<string, number>> {
  const headers = { authorization: `Bearer ${API_KEY}` };
  const stats = (await (await fetch(`${emulator.url}/_emulator/stats`, { headers })).json()) as {
    requests: { byRoute: Record<string, number> };
  };
  await fetch(`${emulator.url}/_emulator/stats/reset`, { method: "POST", headers });
  return stats.requests.byRoute;
}

describe("catalog functions over management API v2", () => {
  it("getGpuTypes: the availability of a whole cluster per data center, for the count asked", async () => {
    const { gpuTypes } = await invokeCatalogFunction("getGpuTypes", v2, {
      include: ["AVAILABILITY"],
      product: ["CLUSTER"],
      count: 4,
    });
    const l4 = gpuTypes.find((g) => g.id === "NVIDIA L4");
    // Four L4s fit in US-TX-3 only; the other data centers have none in stock.
    const where = (l4?.dataCenters ?? []).filter((d) => d.availability !== "NONE").map((d) => d.id);
    expect(where).toEqual(["US-TX-3"]);
    expect(gpuTypes.find((g) => g.id === "NVIDIA A40")?.availability).toBe("NONE");
    const plain = await invokeCatalogFunction("getGpuTypes", v2, undefined);
    // Without include, no availability is asked for, and none is read.
    const plainL4 = plain.gpuTypes.find((g) => g.id === "NVIDIA L4");
    expect(plainL4).toMatchObject({ memory: 24 });
    expect(plainL4?.availability).toBeUndefined();
    expect(plainL4?.dataCenters).toBeUndefined();
  });

  it("getCpuFlavors and getDataCenters: their filters reach the platform", async () => {
    const { cpuFlavors } = await invokeCatalogFunction("getCpuFlavors", v2, {});
    expect(cpuFlavors.map((c) => c.id)).toContain("cpu3c");
    const { dataCenters } = await invokeCatalogFunction("getDataCenters", v2, { regions: ["EUROPE"] });
    expect(dataCenters.length).toBeGreaterThan(0);
    expect(dataCenters.map((d) => d.id)).toContain("EU-RO-1");
    expect(dataCenters.map((d) => d.id)).not.toContain("US-TX-3");
    expect(new Set(dataCenters.map((d) => d.region))).toEqual(new Set(["EUROPE"]));
  });

  it("in the program's form, read the configuration as the provider does: a Promise and an Output", async () => {
    process.env.RUNPOD_API_KEY = API_KEY;
    process.env.RUNPOD_API_URL = emulator.apiUrlV2;
    const { dataCenters } = await getDataCenters({ regions: ["NORTH_AMERICA"] });
    expect(dataCenters.map((d) => d.id)).toContain("US-TX-3");
    const count = pulumi.output(Promise.resolve(8));
    const output = getGpuTypesOutput({ include: ["AVAILABILITY"], product: ["POD"], count });
    const l4 = await new Promise<unknown>((resolve) =>
      output.apply((r) => resolve(r.gpuTypes.find((g) => g.id === "NVIDIA L4"))),
    );
    const where = ((l4 as { dataCenters: { id: string; availability: string }[] }).dataCenters ?? [])
      .filter((d) => d.availability !== "NONE")
      .map((d) => d.id);
    expect(where).toEqual(["US-TX-3"]);
  });
});

describe("catalog functions over management API v1", () => {
  it("send nothing and say v1 has no catalog", async () => {
    await requestCounts();
    await expect(invokeCatalogFunction("getGpuTypes", v1, {})).rejects.toThrow(
      "getGpuTypes is not available on management API v1 (only on v2)",
    );
    expect(await requestCounts()).toEqual({});
  });
});
