import { z } from "zod";
import { LIMITS } from "./limits";
import { COMPUTE_TYPES, SCALER_TYPES } from "./platform-enums";
import { cudaVersion, distinctList, platformId } from "./platform-values";

const nonNegativeInt = (what: string) =>
  z.number().int(`${what} must be a whole number`).min(0, `${what} must be at least 0`);

/** Fields shared by the create and update inputs (OpenAPI `EndpointCreateInput` / `EndpointUpdateInput`). */
const endpointMutableFields = {
  name: z.string().max(LIMITS.endpointNameMaxLength, `must be at most ${LIMITS.endpointNameMaxLength} characters`),
  templateId: z.string().min(1, "must not be empty"),
  // GPU types: any well-formed id (issue 13: the platform judges membership). A repeat is allowed
  // here, unlike in the other lists: the platform takes the first occurrence, and the engine runs
  // a provider's check before a policy pack's remediations (pkg/resource/deploy/step_generator.go),
  // so a refusal here would leave the pack's `remediate` level, which removes repeats, nothing to do.
  gpuTypeIds: z.array(platformId("gpuType")),
  gpuCount: z.number().int("must be a whole number").min(LIMITS.gpuCountMin, `must be at least ${LIMITS.gpuCountMin}`),
  workersMin: nonNegativeInt("workersMin"),
  workersMax: nonNegativeInt("workersMax"),
  idleTimeout: z
    .number()
    .int("must be a whole number of seconds")
    .min(LIMITS.idleTimeoutSeconds.min, `must be at least ${LIMITS.idleTimeoutSeconds.min} second`)
    .max(LIMITS.idleTimeoutSeconds.max, `must be at most ${LIMITS.idleTimeoutSeconds.max} seconds`),
  scalerType: z.enum(SCALER_TYPES, { error: `must be one of ${SCALER_TYPES.join(", ")}` }),
  scalerValue: z
    .number()
    .int("must be a whole number")
    .min(LIMITS.scalerValueMin, `must be at least ${LIMITS.scalerValueMin}`),
  executionTimeoutMs: z.number().int("must be a whole number of milliseconds").min(1, "must be positive"),
  flashboot: z.boolean(),
  networkVolumeId: z.string().min(1, "must not be empty"),
  networkVolumeIds: z.array(z.string().min(1, "must not be empty")),
  dataCenterIds: distinctList(platformId("dataCenter"), "data center"),
  allowedCudaVersions: distinctList(cudaVersion, "CUDA version"),
  minCudaVersion: cudaVersion,
  cpuFlavorIds: distinctList(platformId("cpuFlavor"), "CPU flavor"),
  vcpuCount: z
    .number()
    .int("must be a whole number")
    .min(LIMITS.vcpuCountMin, `must be at least ${LIMITS.vcpuCountMin}`),
};

/** `workersMin <= workersMax` when both are given. */
function workersOrdered(v: { workersMin?: number | undefined; workersMax?: number | undefined }): boolean {
  return v.workersMin === undefined || v.workersMax === undefined || v.workersMin <= v.workersMax;
}
const workersOrderedRule = {
  message: "workersMin must not exceed workersMax",
  path: ["workersMin"],
};

/** Object shape (without the cross-field rule) of the create input; reused by the provider's `check`. */
export const EndpointCreateInputShape = z
  .object(endpointMutableFields)
  .partial()
  .extend({
    templateId: endpointMutableFields.templateId,
    computeType: z.enum(COMPUTE_TYPES, { error: `must be one of ${COMPUTE_TYPES.join(", ")}` }).optional(),
  });

/** Body of `POST /endpoints` (OpenAPI `EndpointCreateInput`; only `templateId` is required). */
export const EndpointCreateInputSchema = EndpointCreateInputShape.refine(workersOrdered, workersOrderedRule);
/** Input for creating an endpoint. */
export type EndpointCreateInput = z.infer<typeof EndpointCreateInputSchema>;

/** Object shape of the update input (every field optional; `computeType` cannot change). */
export const EndpointUpdateInputShape = EndpointCreateInputShape.omit({ computeType: true }).partial();

/** Body of `PATCH /endpoints/{id}` and `POST /endpoints/{id}/update` (OpenAPI `EndpointUpdateInput`). */
export const EndpointUpdateInputSchema = EndpointUpdateInputShape.refine(workersOrdered, workersOrderedRule);
/** Input for updating an endpoint. */
export type EndpointUpdateInput = z.infer<typeof EndpointUpdateInputSchema>;

/**
 * An endpoint as the management API returns it (OpenAPI `Endpoint`). Enumerated fields are read
 * as plain strings and most fields are optional, so a partial or newer response never fails.
 */
export const EndpointSchema = z.object({
  id: z.string(),
  name: z.string().optional(),
  templateId: z.string().optional(),
  computeType: z.string().optional(),
  gpuTypeIds: z.array(z.string()).optional(),
  gpuCount: z.number().int().optional(),
  workersMin: z.number().int().optional(),
  workersMax: z.number().int().optional(),
  idleTimeout: z.number().int().optional(),
  scalerType: z.string().optional(),
  scalerValue: z.number().int().optional(),
  executionTimeoutMs: z.number().int().optional(),
  flashboot: z.boolean().optional(),
  networkVolumeId: z.string().optional(),
  networkVolumeIds: z.array(z.string()).optional(),
  dataCenterIds: z.array(z.string()).optional(),
  allowedCudaVersions: z.array(z.string()).optional(),
  minCudaVersion: z.string().optional(),
  cpuFlavorIds: z.array(z.string()).optional(),
  instanceIds: z.array(z.string()).optional(),
  vcpuCount: z.number().int().optional(),
  env: z.record(z.string(), z.string()).optional(),
  createdAt: z.string().optional(),
  userId: z.string().optional(),
  version: z.number().int().optional(),
  template: z.record(z.string(), z.unknown()).optional(),
  workers: z.array(z.record(z.string(), z.unknown())).optional(),
});
/** An endpoint. */
export type Endpoint = z.infer<typeof EndpointSchema>;

/** `GET /endpoints`. */
export const EndpointListSchema = z.array(EndpointSchema);
