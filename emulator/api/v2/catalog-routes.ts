import type { FastifyInstance, FastifyRequest } from "fastify";
import type * as V2 from "../../../sdk/schemas/v2";
import { type AvailabilityLevel, bestLevel } from "../../capacity/capacity";
import { atLeast } from "../../platform/cuda-version";
import type { CatalogGpuType } from "../../platform/platform-catalog";
import { badField, notFound } from "../../errors/http-errors";
import {
  booleanParam,
  enumList,
  list,
  type RawQuery,
  single,
  wellFormed,
  wholeNumber,
} from "../../server/query-params";
import type { ServerContext } from "../../server/server-context";
import { tablePosition } from "../../server/list-pages";

/** Refuses each present parameter of `names` when availability was not asked for. */
function onlyWithAvailability(query: RawQuery, names: readonly string[], withAvailability: boolean): void {
  if (withAvailability) return;
  for (const name of names) {
    if (query[name] !== undefined) throw badField(name, query[name], "is valid only with include=AVAILABILITY");
  }
}

type IdParams = { Params: { id: string } };
const query = (req: FastifyRequest) => req.query as RawQuery;

const GPU_PRODUCTS = ["POD", "CLUSTER", "SERVERLESS"];
const CPU_PRODUCTS = ["POD", "SERVERLESS"];
const CLOUDS = ["SECURE", "COMMUNITY"];
const COUNTRY = /^[A-Z]{2}$/;
const CUDA = /^\d+\.\d+$/;
const CUDA_FLOOR = /^\d+(?:\.\d+)?$/;

/** What a GPU availability read asks for (OpenAPI v2 parameters of `listGpuTypes`). */
interface GpuAvailabilityQuery {
  products: string[];
  count: number;
  cloud: string;
  countryCodes: string[] | undefined;
  cudaVersions: string[] | undefined;
  minCudaVersion: string | undefined;
}

/** The GPU query, or undefined without `include=AVAILABILITY`; 400 or 422 as the platform answers. */
function gpuAvailabilityQuery(q: RawQuery): GpuAvailabilityQuery | undefined {
  const withAvailability = includesAvailability(q);
  onlyWithAvailability(
    q,
    ["product", "count", "cloud", "countryCodes", "cudaVersions", "minCudaVersion"],
    withAvailability,
  );
  if (!withAvailability) return undefined;
  const products = enumList(q, "product", GPU_PRODUCTS);
  if (!products?.length)
    throw badField("product", q.product, "is required with include=AVAILABILITY (POD, CLUSTER or SERVERLESS)");
  const cloud = single(q, "cloud") ?? "SECURE";
  if (!CLOUDS.includes(cloud)) throw badField("cloud", cloud, `must be one of ${CLOUDS.join(", ")}`);
  const countryCodes = list(q, "countryCodes");
  wellFormed(
    "countryCodes",
    countryCodes,
    COUNTRY,
    "must be an ISO 3166-1 alpha-2 country code in upper case, such as FR",
  );
  const cudaVersions = list(q, "cudaVersions");
  wellFormed("cudaVersions", cudaVersions, CUDA, "must be a CUDA version written major.minor, such as 12.8");
  const minCudaVersion = single(q, "minCudaVersion");
  if (minCudaVersion !== undefined)
    wellFormed("minCudaVersion", [minCudaVersion], CUDA_FLOOR, "must be a major or major.minor version");
  if (cudaVersions && minCudaVersion !== undefined) {
    throw badField("minCudaVersion", minCudaVersion, "cannot be combined with cudaVersions: give one of the two");
  }
  return { products, count: wholeNumber(q, "count", 1) ?? 1, cloud, countryCodes, cudaVersions, minCudaVersion };
}

function includesAvailability(q: RawQuery): boolean {
  const include = enumList(q, "include", ["AVAILABILITY"]);
  if (include && include.length > 1) throw badField("include", q.include, "takes one value: AVAILABILITY");
  return include?.includes("AVAILABILITY") ?? false;
}

/**
 * Management v2's catalog (`/v2/catalog/gpus`, `/cpus`, `/datacenters`): the emulator's tables
 * (sdk/schemas/platform-catalog.ts plus the `--add-*` values), with availability read from the
 * capacity that pods and workers take.
 */
export function registerCatalogRoutesV2(app: FastifyInstance, ctx: ServerContext): void {
  const { catalog, capacity } = ctx;
  const dataCentersIn = (countryCodes: string[] | undefined) =>
    catalog.dataCenters().filter((dc) => !countryCodes || countryCodes.includes(dc.countryCode));

  /** The availability of a GPU type in one data center for the query's products, cloud and count. */
  const gpuLevel = (gpu: CatalogGpuType, dataCenterId: string, q: GpuAvailabilityQuery): AvailabilityLevel => {
    if (q.cloud === "COMMUNITY" && gpu.maxCount.community === 0) return "NONE";
    const perProduct = q.products.map((product) =>
      product === "SERVERLESS" && gpu.pool === null ? "NONE" : capacity.level(dataCenterId, gpu.id, "gpu", q.count),
    );
    return bestLevel(perProduct);
  };

  const renderGpu = (gpu: CatalogGpuType, q: GpuAvailabilityQuery | undefined): V2.GpuType | undefined => {
    const base: V2.GpuType = {
      id: gpu.id,
      name: gpu.name,
      pool: gpu.pool,
      manufacturer: gpu.manufacturer,
      memory: gpu.memory,
      secure: gpu.maxCount.secure > 0,
      community: gpu.maxCount.community > 0,
      price: { ...gpu.price },
      maxCount: { ...gpu.maxCount },
    };
    if (!q) return base;
    const places = dataCentersIn(q.countryCodes);
    if (places.length === 0) return undefined;
    const dataCenters = places.map((dc) => ({ id: dc.id, name: dc.name, availability: gpuLevel(gpu, dc.id, q) }));
    const availability = bestLevel(dataCenters.map((d) => d.availability as AvailabilityLevel));
    const versions = catalog
      .values("cudaVersion")
      .filter((v) =>
        q.cudaVersions ? q.cudaVersions.includes(v) : q.minCudaVersion ? atLeast(v, q.minCudaVersion) : true,
      );
    const cudaVersions = versions.map((version) => ({ version, available: availability !== "NONE" }));
    return { ...base, availability, dataCenters, cudaVersions };
  };

  app.get("/catalog/gpus", async (req) => {
    const q = gpuAvailabilityQuery(query(req));
    const gpus = catalog.gpuTypes().flatMap((gpu) => renderGpu(gpu, q) ?? []);
    return ctx.pages.answer(req, "gpus", gpus, tablePosition, (gpu) => gpu);
  });

  app.get<IdParams>("/catalog/gpus/:id", async (req) => {
    const gpu = catalog.gpuType(req.params.id);
    if (!gpu) throw notFound(`GPU type ${req.params.id} not found`);
    const q = gpuAvailabilityQuery(query(req));
    const rendered = renderGpu(gpu, q);
    if (!rendered) throw notFound(`GPU type ${req.params.id} is in no data center of ${q?.countryCodes?.join(", ")}`);
    return rendered;
  });

  const renderCpu = (id: string, q: RawQuery): V2.CpuType => {
    const cpu = catalog.cpuFlavor(id)!;
    const base: V2.CpuType = { ...cpu, vcpu: { ...cpu.vcpu }, price: { ...cpu.price } };
    const withAvailability = includesAvailability(q);
    onlyWithAvailability(q, ["product", "vcpuCount"], withAvailability);
    if (!withAvailability) return base;
    if (!enumList(q, "product", CPU_PRODUCTS)?.length) {
      throw badField("product", q.product, "is required with include=AVAILABILITY (POD or SERVERLESS)");
    }
    const vcpus = wholeNumber(q, "vcpuCount", 2) ?? cpu.vcpu.min;
    if ((vcpus & (vcpus - 1)) !== 0) throw badField("vcpuCount", vcpus, "must be a power of two");
    const dataCenters = catalog
      .dataCenters()
      .map((dc) => ({ id: dc.id, name: dc.name, availability: capacity.level(dc.id, id, "cpu", vcpus) }));
    return { ...base, availability: bestLevel(dataCenters.map((d) => d.availability)), dataCenters };
  };

  app.get("/catalog/cpus", async (req) => {
    const cpus = catalog.cpuFlavors().map((cpu) => renderCpu(cpu.id, query(req)));
    return ctx.pages.answer(req, "cpus", cpus, tablePosition, (cpu) => cpu);
  });

  app.get<IdParams>("/catalog/cpus/:id", async (req) => {
    if (!catalog.cpuFlavor(req.params.id)) throw notFound(`CPU flavor ${req.params.id} not found`);
    return renderCpu(req.params.id, query(req));
  });

  const renderDataCenter = (id: string, include: string[] | undefined): V2.DataCenter => {
    const dc = catalog.dataCenter(id)!;
    const view: V2.DataCenter = {
      id: dc.id,
      name: dc.name,
      region: dc.region,
      globalNetwork: dc.globalNetwork,
      networkVolumeTypes: [...dc.networkVolumeTypes],
      compliance: [...dc.compliance],
    };
    if (include?.includes("GPU_AVAILABILITY")) {
      view.gpuAvailability = catalog
        .gpuTypes()
        .map((g) => ({ id: g.id, name: g.name, availability: capacity.level(dc.id, g.id, "gpu") }));
    }
    if (include?.includes("CPU_AVAILABILITY")) {
      view.cpuAvailability = catalog
        .cpuFlavors()
        .map((c) => ({ id: c.id, name: c.name, availability: capacity.level(dc.id, c.id, "cpu", c.vcpu.min) }));
    }
    return view;
  };
  const DC_INCLUDES = ["GPU_AVAILABILITY", "CPU_AVAILABILITY"];

  app.get("/catalog/datacenters", async (req) => {
    const q = query(req);
    const include = enumList(q, "include", DC_INCLUDES);
    const regions = list(q, "regions");
    const tiers = list(q, "networkVolumeTypes");
    const compliance = list(q, "compliance");
    const globalNetwork = booleanParam(q, "globalNetwork");
    const matches = catalog
      .dataCenters()
      .filter(
        (dc) =>
          (!regions || regions.includes(dc.region)) &&
          (!tiers || tiers.every((t) => dc.networkVolumeTypes.includes(t))) &&
          (!compliance || compliance.every((c) => dc.compliance.includes(c))) &&
          (globalNetwork === undefined || dc.globalNetwork === globalNetwork),
      );
    return ctx.pages.answer(req, "dataCenters", matches, tablePosition, (dc) => renderDataCenter(dc.id, include));
  });

  app.get<IdParams>("/catalog/datacenters/:id", async (req) => {
    if (!catalog.dataCenter(req.params.id)) throw notFound(`data center ${req.params.id} not found`);
    return renderDataCenter(req.params.id, enumList(query(req), "include", DC_INCLUDES));
  });
}
