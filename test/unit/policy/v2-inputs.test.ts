import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type RunningEmulator, startEmulator } from "../../../emulator";
import { checkContradictoryInputs } from "../../../policy/contradictory-inputs";
import { checkGpuPriorityList } from "../../../policy/gpu-priority-list";
import {
  catalogApiUrl,
  catalogUnavailableReason,
  checkEndpointAgainstCatalog,
  checkVolumeAgainstCatalog,
  type LiveCatalog,
  loadLiveCatalog,
} from "../../../policy/live-catalog";
import { checkStackCostCeiling } from "../../../policy/stack-cost-ceiling";
import { checkWorkerBounds } from "../../../policy/worker-bounds";

/** The pack judges v2's inputs (pools, load balancers, storage tiers) and can read the live catalog. */
const ep = (props: Record<string, unknown>) => ({ templateId: "echo", ...props });

describe("the GPU list policy on GPU pools", () => {
  it("accepts known pools, and judges the types they rent (pools minus excluded) against denied and allowed", () => {
    expect(checkGpuPriorityList("api", ep({ gpuPools: ["ADA_24", "AMPERE_48"] }))).toEqual([]);
    const denied = checkGpuPriorityList("api", ep({ gpuPools: ["AMPERE_24"] }), {
      denied: ["NVIDIA GeForce RTX 3090"],
    });
    expect(denied).toEqual([
      'ServerlessEndpoint "api": gpuPools = ["AMPERE_24"]: pool "AMPERE_24" rents "NVIDIA GeForce RTX 3090", a denied GPU type; take it out with excludedGpuTypes, or drop the pool',
    ]);
    expect(
      checkGpuPriorityList("api", ep({ gpuPools: ["AMPERE_24"], excludedGpuTypes: ["NVIDIA GeForce RTX 3090"] }), {
        denied: ["NVIDIA GeForce RTX 3090"],
      }),
    ).toEqual([]);
    const allowed = checkGpuPriorityList("api", ep({ gpuPools: ["ADA_24"] }), { allowed: ["NVIDIA L4"] });
    expect(allowed[0]).toContain(
      'pool "ADA_24" rents "NVIDIA GeForce RTX 4090", which is not one of the allowed GPU types',
    );
  });

  it("names an unknown pool unless listed in additionalGpuPools, and counts fallbacks over the rented types", () => {
    expect(checkGpuPriorityList("api", ep({ gpuPools: ["RUBIN_288"] }))).toEqual([
      'ServerlessEndpoint "api": gpuPools[0] = "RUBIN_288": is not a GPU pool this release knows (if the platform added it, list it in additionalGpuPools)',
    ]);
    expect(checkGpuPriorityList("api", ep({ gpuPools: ["RUBIN_288"] }), { additionalGpuPools: ["RUBIN_288"] })).toEqual(
      [],
    );
    const one = checkGpuPriorityList("api", ep({ gpuPools: ["ADA_24"] }), { minFallbacks: 1 });
    expect(one[0]).toContain("rents 1 GPU type (pools minus excludedGpuTypes), at least 2 required");
    expect(checkGpuPriorityList("api", ep({ gpuPools: [] }))[0]).toContain("must name at least one GPU pool");
  });
});

describe("contradictions among v2's inputs", () => {
  it("refuses types and pools together, exclusions without pools, and queue-delay scaling on a load balancer", () => {
    expect(checkContradictoryInputs("api", ep({ gpuTypeIds: ["NVIDIA L4"], gpuPools: ["ADA_24"] }))[0]).toContain(
      "they are one GPU selection",
    );
    expect(checkContradictoryInputs("api", ep({ excludedGpuTypes: ["NVIDIA L4"] }))[0]).toContain(
      "narrows gpuPools, which is not set",
    );
    expect(checkContradictoryInputs("api", ep({ type: "LOAD_BALANCER", scalerType: "QUEUE_DELAY" }))).toEqual([
      'ServerlessEndpoint "api": scalerType = "QUEUE_DELAY": a LOAD_BALANCER endpoint has no queue: it scales on REQUEST_COUNT (its default); remove scalerType or set "REQUEST_COUNT"',
    ]);
    expect(checkContradictoryInputs("api", ep({ computeType: "CPU", gpuPools: ["ADA_24"] }))[0]).toContain(
      "is a GPU setting on a CPU endpoint",
    );
  });
});

describe("worker bounds of a load-balancing endpoint", () => {
  it("refuses a load balancer with no worker, and caps the requests per worker of request-count scaling", () => {
    expect(checkWorkerBounds("lb", ep({ type: "LOAD_BALANCER", workersMax: 0 }))).toEqual([
      'ServerlessEndpoint "lb": workersMax = 0: leaves a LOAD_BALANCER endpoint no worker: it has no queue, so every request is answered 503',
    ]);
    // REQUEST_COUNT is a load balancer's default scaler: the cap applies without scalerType.
    expect(
      checkWorkerBounds("lb", ep({ type: "LOAD_BALANCER", scalerValue: 20 }), { requestsPerWorkerMax: 8 }),
    ).toEqual([
      'ServerlessEndpoint "lb": scalerValue = 20: exceeds the cap of 8 requests per worker (requestsPerWorkerMax)',
    ]);
    expect(checkWorkerBounds("q", ep({ scalerValue: 20 }), { requestsPerWorkerMax: 8 })).toEqual([]);
  });
});

describe("the cost ceiling with pools and storage tiers", () => {
  const prices = { "NVIDIA L4": 0.5, "NVIDIA RTX A5000": 0.4, "NVIDIA GeForce RTX 3090": 0.9 };

  it("prices an endpoint on pools at the dearest type they rent, excluded types aside", () => {
    const endpoints = [{ name: "api", props: ep({ gpuPools: ["AMPERE_24"], workersMax: 1 }) }];
    const over = checkStackCostCeiling(endpoints, { gpuPricesPerHour: prices, maxWorstCasePerHour: 0.6 });
    expect(over[0]).toContain('"api" 1 worker × 1 GPU × $0.90 (NVIDIA GeForce RTX 3090)');
    const excluded = [
      {
        name: "api",
        props: ep({ gpuPools: ["AMPERE_24"], excludedGpuTypes: ["NVIDIA GeForce RTX 3090"], workersMax: 1 }),
      },
    ];
    expect(checkStackCostCeiling(excluded, { gpuPricesPerHour: prices, maxWorstCasePerHour: 0.6 })).toEqual([]);
    const unknown = [{ name: "api", props: ep({ gpuPools: ["RUBIN_288"] }) }];
    expect(checkStackCostCeiling(unknown, { gpuPricesPerHour: prices, maxWorstCasePerHour: 1 })[0]).toContain(
      '"RUBIN_288" is not a pool of this release\'s catalog',
    );
  });

  it("adds storage per GB-month by tier (no type: STANDARD) to both sums, and names a tier without a price", () => {
    const volumes = [
      { name: "fast", props: { size: 1000, dataCenterId: "EU-RO-1", type: "HIGH_PERFORMANCE" } },
      { name: "slow", props: { size: 730, dataCenterId: "EU-RO-1" } },
    ];
    const config = { volumePricesPerGbMonth: { STANDARD: 0.07, HIGH_PERFORMANCE: 0.14 }, maxAlwaysOnPerHour: 0.2 };
    const [message] = checkStackCostCeiling([], config, undefined, { volumes });
    expect(message).toContain("$0.2618/hour");
    expect(message).toContain('"fast" volume 1000 GB × $0.14/GB-month (HIGH_PERFORMANCE) / 730 h = $0.1918');
    expect(message).toContain('"slow" volume 730 GB × $0.07/GB-month (STANDARD) / 730 h = $0.07');
    const newTier = [{ name: "next", props: { size: 10, dataCenterId: "EU-RO-1", type: "ULTRA_NVME" } }];
    const unpriced = checkStackCostCeiling([], { maxAlwaysOnPerHour: 1 }, undefined, { volumes: newTier });
    expect(unpriced[0]).toContain(
      'storage tier "ULTRA_NVME" has no price in this release\'s catalog or in volumePricesPerGbMonth',
    );
    const priced = { volumePricesPerGbMonth: { ULTRA_NVME: 0.3 }, maxAlwaysOnPerHour: 1 };
    expect(checkStackCostCeiling([], priced, undefined, { volumes: newTier })).toEqual([]);
  });
});

describe("the live catalog policy's rules", () => {
  const catalog: LiveCatalog = {
    gpuPools: new Map<string, string | null>([
      ["NVIDIA L4", "AMPERE_24"],
      ["Tesla T4", null],
    ]),
    dataCenterTiers: new Map([
      ["EU-RO-1", ["STANDARD", "HIGH_PERFORMANCE"]],
      ["EU-SE-1", ["STANDARD"]],
    ]),
  };

  it("names types, pools and data centers the live catalog does not list, and types with no serverless pool", () => {
    expect(
      checkEndpointAgainstCatalog(
        "api",
        ep({ gpuTypeIds: ["NVIDIA L4", "Tesla T4", "NVIDIA B300"], dataCenterIds: ["EU-RO-1", "XX-1"] }),
        catalog,
      ),
    ).toEqual([
      'ServerlessEndpoint "api": gpuTypeIds[1] = "Tesla T4": is in no serverless GPU pool of the live catalog: serverless endpoints cannot rent it',
      'ServerlessEndpoint "api": gpuTypeIds[2] = "NVIDIA B300": is not a GPU type of the platform\'s live catalog (GET /v2/catalog/gpus)',
      'ServerlessEndpoint "api": dataCenterIds[1] = "XX-1": is not a data center of the platform\'s live catalog',
    ]);
    expect(checkEndpointAgainstCatalog("api", ep({ gpuPools: ["AMPERE_24", "ADA_24"] }), catalog)).toEqual([
      'ServerlessEndpoint "api": gpuPools[1] = "ADA_24": is not a serverless GPU pool of the platform\'s live catalog',
    ]);
    expect(
      checkVolumeAgainstCatalog("v", { size: 10, dataCenterId: "EU-SE-1", type: "HIGH_PERFORMANCE" }, catalog),
    ).toEqual([
      'NetworkVolume "v": type = "HIGH_PERFORMANCE": is not a storage tier of EU-SE-1, which offers ["STANDARD"]',
    ]);
  });

  it("names the live catalog's type that differs from an unknown one only in case or spacing, as check does", () => {
    expect(
      checkEndpointAgainstCatalog("api", ep({ excludedGpuTypes: ["nvidia  l4"], gpuPools: ["AMPERE_24"] }), catalog),
    ).toEqual([
      'ServerlessEndpoint "api": excludedGpuTypes[0] = "nvidia  l4": is not a GPU type of the platform\'s live catalog (GET /v2/catalog/gpus) (did you mean "NVIDIA L4"?)',
    ]);
  });

  it("says when it has no credentials, and reads the catalog from v2 whatever the stack talks", () => {
    expect(catalogUnavailableReason({})).toContain("no RUNPOD_API_KEY in the policy pack's environment");
    expect(catalogUnavailableReason({ RUNPOD_API_KEY: "k" })).toBeUndefined();
    expect(catalogApiUrl({ RUNPOD_API_URL: "https://rest.runpod.io/v1" })).toBe("https://api.runpod.io/v2");
    expect(catalogApiUrl({ RUNPOD_API_URL: "http://127.0.0.1:8787/v2/" })).toBe("http://127.0.0.1:8787/v2");
    expect(catalogApiUrl({ RUNPOD_API_URL: "http://127.0.0.1:8787/v1" })).toBe("http://127.0.0.1:8787/v2");
    expect(catalogApiUrl({}, "http://x/v2")).toBe("http://x/v2");
  });
});

describe("the live catalog, read from the emulator over HTTP", () => {
  let emulator: RunningEmulator;
  beforeAll(async () => {
    emulator = await startEmulator({ port: 0, apiKeys: ["policy-live"], rateLimits: false });
  });
  afterAll(() => emulator?.close());

  it("holds every GPU type with its pool and every data center with its tiers", async () => {
    const catalog = await loadLiveCatalog(emulator.apiUrlV2, { RUNPOD_API_KEY: "policy-live" });
    expect(catalog.gpuPools.get("NVIDIA L4")).toBe("AMPERE_24");
    expect(catalog.gpuPools.get("Tesla T4")).toBeNull();
    expect(catalog.dataCenterTiers.get("EU-RO-1")).toEqual(["STANDARD", "HIGH_PERFORMANCE"]);
    expect(checkEndpointAgainstCatalog("api", ep({ gpuTypeIds: ["NVIDIA L4"] }), catalog)).toEqual([]);
  });
});
