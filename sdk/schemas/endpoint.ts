import { z } from "zod";
import { workersInOrder, workersOrderRule } from "./endpoint-defaults";
import { LIMITS } from "./limits";
import { COMPUTE_TYPES, SCALER_TYPES } from "./platform-enums";
import { cudaVersion, distinctList, platformId } from "./platform-values";
import { ENDPOINT_TYPES, FLASHBOOT_MODES } from "./v2/serverless";

const nonNegativeInt = (what: string) =>
  z.number().int(`${what} must be a whole number`).min(0, `${what} must be at least 0`);

/** Fields shared by the create and update inputs (OpenAPI `EndpointCreateInput` / `EndpointUpdateInput`). */
const endpointMutableFields = {
  name: z.string().max(LIMITS.endpointNameMaxLength, `must be at most ${LIMITS.endpointNameMaxLength} characters`),
  templateId: z.string().min(1, "must not be empty"),
  // GPU types: any well-formed id (the platform judges membership). A repeat is allowed
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
  return workersInOrder(v.workersMin, v.workersMax);
}
const workersOrderedRule = {
  message: `workersMin ${workersOrderRule("workersMax")}`,
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

/**
 * Body of `POST /v1/endpoints` as v1 takes it (v1 OpenAPI `EndpointCreateInput`; only
 * `templateId` is required): what the emulator's v1 route parses, and what the resources take
 * until they gain v2's inputs.
 */
export const EndpointCreateInputV1Schema = EndpointCreateInputShape.refine(workersOrdered, workersOrderedRule);

/** Object shape of v1's update input (every field optional; `computeType` cannot change). */
export const EndpointUpdateInputShape = EndpointCreateInputShape.omit({ computeType: true }).partial();

/** Body of `PATCH /v1/endpoints/{id}` and `POST /v1/endpoints/{id}/update` as v1 takes it (v1 OpenAPI `EndpointUpdateInput`). */
export const EndpointUpdateInputV1Schema = EndpointUpdateInputShape.refine(workersOrdered, workersOrderedRule);

/** A flash-boot setting: `true` (= `FLASHBOOT`), `false` (= `OFF`), or one of v2's three modes. */
export const FlashbootSettingSchema = z.union([z.boolean(), z.enum(FLASHBOOT_MODES)], {
  error: `must be true, false or one of ${FLASHBOOT_MODES.join(", ")}`,
});
/** A flash-boot setting. */
export type FlashbootSetting = z.infer<typeof FlashbootSettingSchema>;

/**
 * Inputs only management API v2 has (`VERSION_ONLY_FIELDS.endpoint`; refused on v1 before
 * sending): GPU pools named directly, and the types subtracted from them. Pools are open values:
 * one the platform added after this release is sent as it is.
 */
const endpointV2Fields = {
  gpuPools: distinctList(
    z.string().refine((s) => s.trim() !== "", "must not be empty"),
    "GPU pool",
  ),
  excludedGpuTypes: distinctList(platformId("gpuType"), "GPU type"),
  flashboot: FlashbootSettingSchema,
};

/** One GPU selection: GPU types (`gpuTypeIds`) or pools (`gpuPools`, narrowed by `excludedGpuTypes`). */
function gpuSelectionProblems(
  v: { gpuTypeIds?: unknown; gpuPools?: unknown; excludedGpuTypes?: unknown },
  ctx: z.RefinementCtx,
): void {
  if (v.gpuTypeIds !== undefined && v.gpuPools !== undefined) {
    ctx.addIssue({
      code: "custom",
      path: ["gpuPools"],
      message: "name GPU types (gpuTypeIds) or GPU pools (gpuPools), not both: they are one selection",
    });
  }
  if (v.excludedGpuTypes !== undefined && v.gpuPools === undefined) {
    ctx.addIssue({
      code: "custom",
      path: ["excludedGpuTypes"],
      message: "narrows gpuPools: give the pools too (with gpuTypeIds, name only the types wanted)",
    });
  }
}

/**
 * The version-neutral create input (`client.endpoints.create`): v1's fields, plus `type`
 * (`QUEUE`, the default, or `LOAD_BALANCER`, v2 only), `gpuPools`, `excludedGpuTypes` and the
 * flash-boot modes. On v1, the v2-only values are refused before sending.
 */
export const EndpointCreateInputSchema = EndpointCreateInputShape.extend({
  gpuPools: endpointV2Fields.gpuPools.optional(),
  excludedGpuTypes: endpointV2Fields.excludedGpuTypes.optional(),
  flashboot: endpointV2Fields.flashboot.optional(),
  type: z.enum(ENDPOINT_TYPES, { error: `must be one of ${ENDPOINT_TYPES.join(", ")}` }).optional(),
})
  .refine(workersOrdered, workersOrderedRule)
  .superRefine(gpuSelectionProblems);
/** Input for creating an endpoint (either version). */
export type EndpointCreateInput = z.infer<typeof EndpointCreateInputSchema>;

/**
 * The version-neutral update input (`client.endpoints.update`): every field optional; `type` and
 * `computeType` cannot change.
 */
export const EndpointUpdateInputSchema = EndpointUpdateInputShape.extend(endpointV2Fields)
  .partial()
  .refine(workersOrdered, workersOrderedRule)
  .superRefine(gpuSelectionProblems);
/** Input for updating an endpoint (either version). */
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
  // A number: v2's queue delay may be fractional (OpenAPI v2 `QueueDelayScaling.queueDelay`, float).
  scalerValue: z.number().optional(),
  executionTimeoutMs: z.number().int().optional(),
  /** `true`/`false`, or `PRIORITY_FLASHBOOT` (v2). */
  flashboot: z.union([z.boolean(), z.string()]).optional(),
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
  /** `QUEUE` or `LOAD_BALANCER` (v2 answers; a v1 answer has none: every v1 endpoint is a queue). */
  type: z.string().optional(),
  /** GPU pools (v2 answers), with the types subtracted from them. */
  gpuPools: z.array(z.string()).optional(),
  excludedGpuTypes: z.array(z.string()).optional(),
  /**
   * Where requests go (v2 answers): a queue endpoint's job URLs (`run`, `runSync`, `status`, ...,
   * `health`), or a load-balancing endpoint's `base` and `health` addresses.
   */
  requestUrls: z.record(z.string(), z.string()).optional(),
  /**
   * The container settings the endpoint holds (v2 answers, in the template's field names): v2
   * copies a template's settings at create and keeps no link, so this is what its workers run.
   */
  container: z
    .object({
      imageName: z.string().optional(),
      /** The container's arguments as v2's one string. */
      args: z.string().optional(),
      containerDiskInGb: z.number().int().optional(),
      ports: z.array(z.string()).optional(),
      env: z.record(z.string(), z.string()).optional(),
      containerRegistryAuthId: z.string().optional(),
    })
    .optional(),
});
/** An endpoint. */
export type Endpoint = z.infer<typeof EndpointSchema>;

/** `GET /endpoints`. */
export const EndpointListSchema = z.array(EndpointSchema);
