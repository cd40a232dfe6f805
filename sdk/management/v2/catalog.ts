import type { ZodType } from "zod";
import * as V2 from "../../schemas/v2";
import type { CallOptions, Transport } from "../../transport";
import { queryList, type ReadQuery, sendOnVersion } from "../management-resource";
import type { PageOptions, PageSchema } from "../paged-list";
import { readEveryPage } from "./paged-resource";

/** One page of each catalog list. */
const PAGES = {
  gpus: V2.pagedList("gpus", V2.GpuTypeSchema),
  cpus: V2.pagedList("cpus", V2.CpuTypeSchema),
  dataCenters: V2.pagedList("dataCenters", V2.DataCenterSchema),
  templates: V2.pagedList("templates", V2.TemplateSchema),
};

/** Options of the GPU type reads: availability, and the context it is computed for. */
export interface GpuCatalogOptions extends PageOptions {
  /** Add `availability` (per type and per data center) and CUDA versions: `["AVAILABILITY"]`. */
  include?: readonly "AVAILABILITY"[] | undefined;
  /** Availability for which products (required with `include`): `POD`, `CLUSTER`, `SERVERLESS`. */
  product?: readonly V2.CatalogProduct[] | undefined;
  /** GPUs per pod or worker the availability is for. Default 1. */
  count?: number | undefined;
  /** Cloud the availability is for: `SECURE` (default) or `COMMUNITY`. */
  cloud?: "SECURE" | "COMMUNITY" | undefined;
  /** Only data centers in these countries (ISO 3166-1 alpha-2, uppercase). */
  countryCodes?: readonly string[] | undefined;
  /** Only machines with exactly these CUDA versions (`major.minor`). */
  cudaVersions?: readonly string[] | undefined;
  /** Only machines with at least this CUDA version (`12` or `12.4`). */
  minCudaVersion?: string | undefined;
}

/** Options of the CPU flavor reads. */
export interface CpuCatalogOptions extends PageOptions {
  /** Add `availability`: `["AVAILABILITY"]`. */
  include?: readonly "AVAILABILITY"[] | undefined;
  /** Availability for which products (required with `include`): `POD`, `SERVERLESS`. */
  product?: readonly V2.CatalogProduct[] | undefined;
  /** vCPUs the availability is for (a power of two, at least 2). */
  vcpuCount?: number | undefined;
}

/** Options of the public template catalog read. */
export interface TemplateCatalogOptions extends PageOptions {
  /** Which slice: `official` (the default: the platform's own), `verified` or `community`. */
  source?: V2.TemplateSource | undefined;
}

/** Options of the data center reads. */
export interface DataCenterCatalogOptions extends PageOptions {
  /** Add per-resource availability: `GPU_AVAILABILITY`, `CPU_AVAILABILITY`. */
  include?: readonly ("GPU_AVAILABILITY" | "CPU_AVAILABILITY")[] | undefined;
  /** Only these regions (e.g. `EUROPE`). */
  regions?: readonly string[] | undefined;
  /** Only data centers offering all these storage tiers. */
  networkVolumeTypes?: readonly string[] | undefined;
  /** Only data centers holding all these certifications. */
  compliance?: readonly string[] | undefined;
  /** Only data centers that do (true) or do not (false) support global networking. */
  globalNetwork?: boolean | undefined;
}

/**
 * The platform catalog of management API v2 (`client.v2.catalog`): GPU types (with their
 * serverless pool and prices), CPU flavors and data centers, each optionally with availability,
 * and the public templates.
 * Reads only, idempotent, retried like every read.
 */
export class CatalogV2 {
  constructor(private readonly transport: Transport) {}

  /** `GET /v2/catalog/gpus`. */
  gpus(options?: GpuCatalogOptions): Promise<V2.GpuType[]> {
    return this.readAll("gpus", "/catalog/gpus", PAGES.gpus, gpuQuery(options), options);
  }

  /** `GET /v2/catalog/gpus/{id}`. */
  gpu(id: string, options?: Omit<GpuCatalogOptions, "limit">): Promise<V2.GpuType> {
    return this.read("gpu", `/catalog/gpus/${encodeURIComponent(id)}`, V2.GpuTypeSchema, gpuQuery(options), options);
  }

  /** `GET /v2/catalog/cpus`. */
  cpus(options?: CpuCatalogOptions): Promise<V2.CpuType[]> {
    return this.readAll("cpus", "/catalog/cpus", PAGES.cpus, cpuQuery(options), options);
  }

  /** `GET /v2/catalog/cpus/{id}`. */
  cpu(id: string, options?: Omit<CpuCatalogOptions, "limit">): Promise<V2.CpuType> {
    return this.read("cpu", `/catalog/cpus/${encodeURIComponent(id)}`, V2.CpuTypeSchema, cpuQuery(options), options);
  }

  /** `GET /v2/catalog/datacenters`. */
  dataCenters(options?: DataCenterCatalogOptions): Promise<V2.DataCenter[]> {
    const query = {
      include: queryList(options?.include),
      regions: queryList(options?.regions),
      networkVolumeTypes: queryList(options?.networkVolumeTypes),
      compliance: queryList(options?.compliance),
      globalNetwork: options?.globalNetwork,
    };
    return this.readAll("dataCenters", "/catalog/datacenters", PAGES.dataCenters, query, options);
  }

  /** `GET /v2/catalog/datacenters/{id}`. */
  dataCenter(
    id: string,
    options?: Pick<DataCenterCatalogOptions, "include" | "signal" | "timeoutMs">,
  ): Promise<V2.DataCenter> {
    const path = `/catalog/datacenters/${encodeURIComponent(id)}`;
    return this.read("dataCenter", path, V2.DataCenterSchema, { include: queryList(options?.include) }, options);
  }

  /**
   * `GET /v2/catalog/templates`: public templates (at most 100), pod and serverless ones alike
   * (tell them apart by `serverless`). Read one, or one of the account's, with
   * `client.v2.templates.get(id)`.
   */
  templates(options?: TemplateCatalogOptions): Promise<V2.Template[]> {
    return this.readAll("templates", "/catalog/templates", PAGES.templates, { source: options?.source }, options);
  }

  /** Every page of a catalog list (`limit`: items per page), the same query on each. */
  private readAll<T>(
    operation: string,
    path: string,
    schema: PageSchema<T>,
    query: ReadQuery,
    options: PageOptions | undefined,
  ): Promise<T[]> {
    return readEveryPage(this.transport, `v2.catalog.${operation}`, path, schema, query, options);
  }

  private read<T>(
    operation: string,
    path: string,
    schema: ZodType<T>,
    query: Record<string, string | number | boolean | undefined>,
    options: CallOptions | undefined,
  ): Promise<T> {
    return sendOnVersion(this.transport, "v2", `v2.catalog.${operation}`, {
      method: "GET",
      path,
      query,
      idempotent: true,
      schema,
      options,
    });
  }
}

function gpuQuery(o: GpuCatalogOptions | undefined): Record<string, string | number | undefined> {
  return {
    include: queryList(o?.include),
    product: queryList(o?.product),
    count: o?.count,
    cloud: o?.cloud,
    countryCodes: queryList(o?.countryCodes),
    cudaVersions: queryList(o?.cudaVersions),
    minCudaVersion: o?.minCudaVersion,
  };
}

function cpuQuery(o: CpuCatalogOptions | undefined): Record<string, string | number | undefined> {
  return { include: queryList(o?.include), product: queryList(o?.product), vcpuCount: o?.vcpuCount };
}
