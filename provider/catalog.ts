import * as pulumi from "@pulumi/pulumi";
import type {
  CatalogFunctionName,
  CatalogFunctions,
  GetCpuFlavorsArgs,
  GetCpuFlavorsResult,
  GetDataCentersArgs,
  GetDataCentersResult,
  GetGpuTypesArgs,
  GetGpuTypesResult,
} from "./catalog-types";

/*
 * The platform catalog as functions of a Pulumi program, in Pulumi's two forms: `getX(args)`
 * returns a Promise, `getXOutput(args)` takes inputs and returns an Output. They read the
 * catalog with the provider's own configuration, the stack config `runpod:apiKey` and
 * `runpod:apiUrl` (then `RUNPOD_API_KEY`, `RUNPOD_API_URL`, then the defaults), in the program's
 * own process, at preview and at update alike. The client and zod load on the first call only.
 */

/** The arguments of a `getXOutput` function: each may be an input (an output of another resource, a promise). */
export type CatalogInputs<Args> = { [K in keyof Args]?: pulumi.Input<Args[K]> };

/** Runs catalog function `name` with the stack's configuration (catalog-functions.ts has the rules). */
async function invoke<N extends CatalogFunctionName>(
  name: N,
  args: CatalogFunctions[N]["args"] | undefined,
): Promise<CatalogFunctions[N]["result"]> {
  const [{ invokeCatalogFunction }, { optionsFromStack, providerClient }] = await Promise.all([
    import("./catalog-functions.js"),
    import("./provider-config.js"),
  ]);
  const client = await providerClient(optionsFromStack({ get: (key) => pulumi.runtime.getConfig(key) }));
  return invokeCatalogFunction(name, client, args);
}

/** `getX` in its Output form: waits for the inputs, then calls `getX`. */
function asOutput<N extends CatalogFunctionName>(
  name: N,
  args: CatalogInputs<CatalogFunctions[N]["args"]> | undefined,
): pulumi.Output<CatalogFunctions[N]["result"]> {
  return pulumi
    .output(args ?? {})
    .apply((resolved) => invoke(name, resolved as CatalogFunctions[N]["args"])) as pulumi.Output<
    CatalogFunctions[N]["result"]
  >;
}

/**
 * The GPU types of the platform's catalog (`GET /v2/catalog/gpus`, management API v2): ids,
 * memory, prices, the most per pod, and with `include: ["AVAILABILITY"]` and a `product` their
 * availability per data center. On management API v1 (no catalog) it fails, naming the version.
 *
 * @example
 * const { gpuTypes } = await getGpuTypes({ include: ["AVAILABILITY"], product: ["CLUSTER"], count: 8 });
 */
export function getGpuTypes(args?: GetGpuTypesArgs): Promise<GetGpuTypesResult> {
  return invoke("getGpuTypes", args);
}

/** {@link getGpuTypes} taking inputs and returning an Output. */
export function getGpuTypesOutput(args?: CatalogInputs<GetGpuTypesArgs>): pulumi.Output<GetGpuTypesResult> {
  return asOutput("getGpuTypes", args);
}

/**
 * The CPU flavors of the platform's catalog (`GET /v2/catalog/cpus`, management API v2): vCPU
 * range, RAM per vCPU, prices, and with `include: ["AVAILABILITY"]` their availability. On
 * management API v1 it fails, naming the version.
 */
export function getCpuFlavors(args?: GetCpuFlavorsArgs): Promise<GetCpuFlavorsResult> {
  return invoke("getCpuFlavors", args);
}

/** {@link getCpuFlavors} taking inputs and returning an Output. */
export function getCpuFlavorsOutput(args?: CatalogInputs<GetCpuFlavorsArgs>): pulumi.Output<GetCpuFlavorsResult> {
  return asOutput("getCpuFlavors", args);
}

/**
 * The data centers of the platform's catalog (`GET /v2/catalog/datacenters`, management API v2):
 * region, storage tiers, certifications, global networking, filtered by any of them. On
 * management API v1 it fails, naming the version.
 */
export function getDataCenters(args?: GetDataCentersArgs): Promise<GetDataCentersResult> {
  return invoke("getDataCenters", args);
}

/** {@link getDataCenters} taking inputs and returning an Output. */
export function getDataCentersOutput(args?: CatalogInputs<GetDataCentersArgs>): pulumi.Output<GetDataCentersResult> {
  return asOutput("getDataCenters", args);
}
