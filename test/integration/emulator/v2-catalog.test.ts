import { describe, expect, it } from "vitest";
import { RunpodClient } from "../../../sdk";
import { KEY, useTestEmulator } from "./helpers";
import { v2ResponseProblems } from "./openapi-v2";

const ctx = useTestEmulator(
  {
    additionalGpuTypeIds: ["NVIDIA B300"],
    gpuPools: { "NVIDIA B300": "BLACKWELL_288" },
    capacity: { stock: { "EU-RO-1": { "NVIDIA L4": 0 } } },
  },
  "file",
);
const { api } = ctx;

describe("management v2 catalog (/v2/catalog)", () => {
  it("lists GPU types with their serverless pool, memory, prices and max count, as the v2 OpenAPI describes", async () => {
    const res = await api.get("/v2/catalog/gpus");
    expect(res.status).toBe(200);
    expect(v2ResponseProblems("GET", "/v2/catalog/gpus", 200, res.body)).toEqual([]);
    const l4 = res.body.gpus.find((g: { id: string }) => g.id === "NVIDIA L4");
    expect(l4).toMatchObject({ pool: "AMPERE_24", memory: 24, manufacturer: "NVIDIA", price: { serverless: 0.68 } });
    expect(l4.availability).toBeUndefined();
    // A type added by --add-gpu-type, in the pool --gpu-pool gave it: usable the same day.
    expect(res.body.gpus.find((g: { id: string }) => g.id === "NVIDIA B300")).toMatchObject({ pool: "BLACKWELL_288" });
    expect(res.body.gpus.find((g: { id: string }) => g.id === "NVIDIA GeForce RTX 3070").pool).toBeNull();
  });

  it("adds availability per data center from the stock, for the product asked", async () => {
    const res = await api.get("/v2/catalog/gpus/NVIDIA%20L4?include=AVAILABILITY&product=POD&countryCodes=RO,SE");
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(v2ResponseProblems("GET", "/v2/catalog/gpus/{id}", 200, res.body)).toEqual([]);
    expect(res.body.dataCenters).toEqual([
      { id: "EU-RO-1", name: "Europe Romania 1", availability: "NONE" },
      { id: "EU-SE-1", name: "Europe Sweden 1", availability: "HIGH" },
    ]);
    expect(res.body.availability).toBe("HIGH");
    const serverless = await api.get(
      "/v2/catalog/gpus/NVIDIA%20GeForce%20RTX%203070?include=AVAILABILITY&product=SERVERLESS",
    );
    expect(serverless.body.availability).toBe("NONE");
  });

  it("refuses availability filters without include=AVAILABILITY (400) and malformed ones (422), as problems", async () => {
    const noInclude = await api.get("/v2/catalog/gpus?product=POD");
    expect(noInclude.status).toBe(400);
    expect(noInclude.body.errors).toEqual(['$.product: is valid only with include=AVAILABILITY (got "POD")']);
    const noProduct = await api.get("/v2/catalog/gpus?include=AVAILABILITY");
    expect(noProduct.status).toBe(400);
    const badCountry = await api.get("/v2/catalog/gpus?include=AVAILABILITY&product=POD&countryCodes=fr");
    expect(badCountry.status).toBe(422);
    expect(v2ResponseProblems("GET", "/v2/catalog/gpus", 422, badCountry.body)).toEqual([]);
    const both = await api.get("/v2/catalog/gpus?include=AVAILABILITY&product=POD&cudaVersions=12.8&minCudaVersion=12");
    expect(both.status).toBe(400);
  });

  it("lists CPU flavors and data centers, with their filters", async () => {
    const cpus = await api.get("/v2/catalog/cpus?include=AVAILABILITY&product=POD&vcpuCount=4");
    expect(v2ResponseProblems("GET", "/v2/catalog/cpus", 200, cpus.body)).toEqual([]);
    expect(cpus.body.cpus.map((c: { id: string }) => c.id)).toEqual([
      "cpu3c",
      "cpu3g",
      "cpu3m",
      "cpu5c",
      "cpu5g",
      "cpu5m",
    ]);
    const fast = await api.get(
      "/v2/catalog/datacenters?networkVolumeTypes=HIGH_PERFORMANCE&regions=EUROPE&include=GPU_AVAILABILITY",
    );
    expect(v2ResponseProblems("GET", "/v2/catalog/datacenters", 200, fast.body)).toEqual([]);
    expect(fast.body.dataCenters.map((d: { id: string }) => d.id)).toEqual(["EU-RO-1"]);
    const l4 = fast.body.dataCenters[0].gpuAvailability.find((g: { id: string }) => g.id === "NVIDIA L4");
    expect(l4.availability).toBe("NONE");
    expect((await api.get("/v2/catalog/datacenters/XX-NOPE-1")).status).toBe(404);
  });

  it("is read by the typed client (client.v2.catalog), lists unwrapped", async () => {
    const client = new RunpodClient({ apiKey: KEY, apiUrl: ctx.emu.apiUrlV2 });
    try {
      const gpus = await client.v2.catalog.gpus({
        include: ["AVAILABILITY"],
        product: ["SERVERLESS"],
        countryCodes: ["US"],
      });
      expect(gpus.find((g) => g.id === "NVIDIA GeForce RTX 4090")).toMatchObject({
        pool: "ADA_24",
        availability: "HIGH",
      });
      expect((await client.v2.catalog.dataCenter("US-TX-3")).networkVolumeTypes).toEqual([
        "STANDARD",
        "HIGH_PERFORMANCE",
      ]);
      expect((await client.v2.catalog.cpu("cpu5g")).ramGbPerVcpu).toBe(4);
      expect((await client.v2.catalog.dataCenters({ globalNetwork: true })).every((d) => d.globalNetwork)).toBe(true);
    } finally {
      await client.close();
    }
  });
});
