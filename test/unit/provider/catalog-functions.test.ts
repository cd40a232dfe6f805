import { afterAll, describe, expect, it } from "vitest";
import { CATALOG_FUNCTIONS, invokeCatalogFunction, isCatalogFunctionName } from "../../../provider/catalog-functions";
import { RunpodClient } from "../../../sdk/client";
import { RequestValidationError, UnsupportedOperationError } from "../../../sdk/errors";

/*
 * The catalog functions' own rules, before any request: a port nobody listens on stands for the
 * platform, so a request sent would fail with a connection error, not the errors asserted here.
 */
const v2 = new RunpodClient({ apiKey: "rpa_unit", apiUrl: "http://127.0.0.1:1/v2", maxAttempts: 1 });
const v1 = new RunpodClient({ apiKey: "rpa_unit", apiUrl: "http://127.0.0.1:1/v1", maxAttempts: 1 });
afterAll(async () => Promise.all([v1.close(), v2.close()]));

/** The message of the error `call` rejects with, after checking its class. */
async function refusal(call: Promise<unknown>, kind: new (...args: never[]) => Error): Promise<string> {
  const err = await call.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(kind);
  return (err as Error).message;
}

describe("catalog functions", () => {
  it("are served by name: the three the program exports and the provider plugin invokes", () => {
    expect(Object.keys(CATALOG_FUNCTIONS)).toEqual(["getGpuTypes", "getCpuFlavors", "getDataCenters"]);
    expect(isCatalogFunctionName("getGpuTypes")).toBe(true);
    expect(isCatalogFunctionName("toString")).toBe(false);
  });

  it("refuse arguments the platform would refuse, naming the function, the field, the value and the rule", async () => {
    expect(await refusal(invokeCatalogFunction("getGpuTypes", v2, { count: 2 }), RequestValidationError)).toBe(
      'getGpuTypes: count = 2: applies to availability: add include: ["AVAILABILITY"]',
    );
    expect(
      await refusal(invokeCatalogFunction("getGpuTypes", v2, { include: ["AVAILABILITY"] }), RequestValidationError),
    ).toBe(
      'getGpuTypes: product = undefined: is required with include: ["AVAILABILITY"] (availability differs by product)',
    );
    const both = { include: ["AVAILABILITY"], product: ["CLUSTER"], cudaVersions: ["12.8"], minCudaVersion: "12" };
    expect(await refusal(invokeCatalogFunction("getGpuTypes", v2, both), RequestValidationError)).toBe(
      'getGpuTypes: minCudaVersion = "12": cannot be combined with cudaVersions: give one of the two',
    );
    expect(
      await refusal(
        invokeCatalogFunction("getGpuTypes", v2, {
          include: ["AVAILABILITY"],
          product: ["PODS"],
          countryCodes: ["fr"],
        }),
        RequestValidationError,
      ),
    ).toBe(
      'getGpuTypes: product.0 = "PODS": must be one of POD, CLUSTER, SERVERLESS; countryCodes.0 = "fr": must be an ISO 3166-1 alpha-2 country code in upper case',
    );
    expect(
      await refusal(
        invokeCatalogFunction("getCpuFlavors", v2, { include: ["AVAILABILITY"], product: ["POD"], vcpuCount: 6 }),
        RequestValidationError,
      ),
    ).toBe("getCpuFlavors: vcpuCount = 6: must be a power of two");
    expect(
      await refusal(invokeCatalogFunction("getDataCenters", v2, { region: ["EUROPE"] }), RequestValidationError),
    ).toBe(
      'getDataCenters: region = ["EUROPE"]: is not an argument of getDataCenters (it takes include, regions, networkVolumeTypes, compliance, globalNetwork)',
    );
  });

  it("send nothing on management API v1, which has no catalog, and say so naming the version and the setting", async () => {
    expect(await refusal(invokeCatalogFunction("getDataCenters", v1, {}), UnsupportedOperationError)).toBe(
      "getDataCenters is not available on management API v1 (only on v2); this client talks v1 because its apiUrl ends in /v1: management API v1 has no catalog (GET /v2/catalog/datacenters); point runpod:apiUrl (or RUNPOD_API_URL) at a .../v2 URL",
    );
  });
});
