import { z } from "zod";
import { wrappedList } from "./common";

/*
 * The platform catalog of management API v2 (`/v2/catalog/...`): GPU types with their serverless
 * pool and prices, CPU flavors, data centers, each optionally with availability. Enumerated
 * values (manufacturer, region, availability level) are read as open strings: the platform adds
 * values faster than this package is released.
 */

/** How much of something is free now (OpenAPI `AvailabilityLevel`: NONE, LOW, MEDIUM, HIGH). */
export const AVAILABILITY_LEVELS = ["NONE", "LOW", "MEDIUM", "HIGH"] as const;

/** Availability of a GPU type or CPU flavor in one data center (OpenAPI `DataCenterAvailability`). */
export const DataCenterAvailabilitySchema = z.object({ id: z.string(), name: z.string(), availability: z.string() });

/** Availability of a resource in a data center (OpenAPI `CatalogResourceAvailability`). */
export const CatalogResourceAvailabilitySchema = DataCenterAvailabilitySchema;

/** A GPU type (OpenAPI `GpuType`); `pool` is null for a type serverless cannot rent. */
export const GpuTypeSchema = z.object({
  id: z.string(),
  name: z.string(),
  pool: z.string().nullable(),
  manufacturer: z.string(),
  memory: z.number().int(),
  secure: z.boolean(),
  community: z.boolean(),
  price: z.object({ secure: z.number(), community: z.number(), serverless: z.number().optional() }),
  maxCount: z.object({ secure: z.number().int(), community: z.number().int() }),
  availability: z.string().optional(),
  dataCenters: z.array(DataCenterAvailabilitySchema).optional(),
  cudaVersions: z.array(z.object({ version: z.string(), available: z.boolean() })).optional(),
});
/** A GPU type. */
export type GpuType = z.infer<typeof GpuTypeSchema>;
/** `GET /v2/catalog/gpus`, unwrapped from `{"gpus": [...]}`. */
export const GpuTypeListSchema = wrappedList("gpus", GpuTypeSchema);

/** A CPU flavor (OpenAPI `CpuType`). */
export const CpuTypeSchema = z.object({
  id: z.string(),
  name: z.string(),
  group: z.string(),
  vcpu: z.object({ min: z.number().int(), max: z.number().int() }),
  ramGbPerVcpu: z.number(),
  price: z.object({ securePerVcpu: z.number(), serverlessPerVcpu: z.number() }),
  availability: z.string().optional(),
  dataCenters: z.array(DataCenterAvailabilitySchema).optional(),
});
/** A CPU flavor. */
export type CpuType = z.infer<typeof CpuTypeSchema>;
/** `GET /v2/catalog/cpus`, unwrapped from `{"cpus": [...]}`. */
export const CpuTypeListSchema = wrappedList("cpus", CpuTypeSchema);

/** A data center (OpenAPI `DataCenter`). */
export const DataCenterSchema = z.object({
  id: z.string(),
  name: z.string(),
  region: z.string(),
  globalNetwork: z.boolean(),
  networkVolumeTypes: z.array(z.string()),
  compliance: z.array(z.string()),
  gpuAvailability: z.array(CatalogResourceAvailabilitySchema).optional(),
  cpuAvailability: z.array(CatalogResourceAvailabilitySchema).optional(),
});
/** A data center. */
export type DataCenter = z.infer<typeof DataCenterSchema>;
/** `GET /v2/catalog/datacenters`, unwrapped from `{"dataCenters": [...]}`. */
export const DataCenterListSchema = wrappedList("dataCenters", DataCenterSchema);

/** Product contexts of availability (OpenAPI `Product`; CPUs know POD and SERVERLESS only). */
export type CatalogProduct = "POD" | "CLUSTER" | "SERVERLESS" | (string & {});
