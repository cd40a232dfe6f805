import { z } from "zod";
import { majorMinor, nonEmpty, wrappedList } from "./common";
import { containerAnswerFields, containerRequestFields } from "./container-config";
import { workersInOrder, workersOrderRule } from "../endpoint-defaults";
import { LIMITS } from "../limits";
import { ENDPOINT_TYPES, type EndpointType, FLASHBOOT_MODES } from "../platform-enums";

/*
 * Serverless endpoints of management API v2 (`/v2/serverless`, OpenAPI v2 `Endpoint`,
 * `CreateEndpointRequest`, `UpdateEndpointRequest`). Requests are strict (the OpenAPI's
 * `unevaluatedProperties: false`) and carry the OpenAPI's cross-field rules, so the client refuses
 * before sending what the platform would refuse; answers are read tolerantly. GPU pools and GPU
 * types are open strings (the platform adds pools); the endpoint type, the flash-boot modes and
 * the scaler types are closed: the API defines exactly those.
 */

// Declared with the other enumerations (no zod there: the resource classes read them).
export { ENDPOINT_TYPES, type EndpointType, FLASHBOOT_MODES, type FlashBootMode } from "../platform-enums";

const oneOf = <T extends readonly [string, ...string[]]>(values: T) =>
  z.enum(values, { error: `must be one of ${values.join(", ")}` });

/** A flash-boot mode in a request. */
export const FlashBootSchema = oneOf(FLASHBOOT_MODES);

/** Scale on queue wait time, in seconds (OpenAPI `QueueDelayScaling`; queue-based endpoints only). */
export const QueueDelayScalingSchema = z.strictObject({
  type: z.literal("QUEUE_DELAY"),
  queueDelay: z
    .number("must be a number of seconds")
    .min(LIMITS.queueDelaySecondsMinV2, `must be at least ${LIMITS.queueDelaySecondsMinV2} seconds`),
});

/** Scale on in-flight requests per worker (OpenAPI `RequestCountScaling`; required for load balancing). */
export const RequestCountScalingSchema = z.strictObject({
  type: z.literal("REQUEST_COUNT"),
  requestCount: z.number().int("must be a whole number").min(1, "must be at least 1"),
});

/** The autoscaling signal of a request (OpenAPI `EndpointScaling`, discriminated on `type`). */
export const EndpointScalingSchema = z.discriminatedUnion(
  "type",
  [QueueDelayScalingSchema, RequestCountScalingSchema],
  {
    error: "must be {type: QUEUE_DELAY, queueDelay} or {type: REQUEST_COUNT, requestCount}",
  },
);
/** An autoscaling signal. */
export type EndpointScaling = z.infer<typeof EndpointScalingSchema>;

/** Worker bounds of a request (OpenAPI `EndpointWorkers`). */
export const EndpointWorkersRequestSchema = z.strictObject({
  min: z.number().int("must be a whole number").min(0, "must be at least 0").optional(),
  max: z.number().int("must be a whole number").min(0, "must be at least 0").optional(),
  idleTimeout: z
    .number()
    .int("must be a whole number of seconds")
    .min(1, "must be at least 1 second")
    .max(3600, "must be at most 3600 seconds")
    .optional(),
});

const uniqueList = <T extends z.ZodType<string>>(item: T, what: string) =>
  z.array(item).refine((list) => new Set(list).size === list.length, `must not repeat a ${what}`);

const gpuBaseFields = {
  pools: z.array(nonEmpty).min(1, "must name at least one pool"),
  // OpenAPI: `pattern: ^\s*[^-\s]` (no leading dash), `uniqueItems: true`.
  excludedTypes: uniqueList(z.string().regex(/^\s*[^-\s]/, "must be a GPU type id"), "GPU type"),
  count: z.number().int("must be a whole number").min(1, "must be at least 1"),
};

/** OpenAPI: "A non-empty set is mutually exclusive with minCudaVersion (400 if both are sent)". */
function cudaRulesHold(gpu: { allowedCudaVersions?: string[] | undefined; minCudaVersion?: string | undefined }) {
  return !(gpu.allowedCudaVersions?.length && gpu.minCudaVersion);
}
const cudaRule = {
  message: "give allowedCudaVersions (an exact set) or minCudaVersion (a floor), not both",
  path: ["minCudaVersion"],
};

/** The GPU request of a create (OpenAPI `CreateEndpointGpuConfig`): `pools` required. */
export const CreateEndpointGpuConfigSchema = z
  .strictObject({
    pools: gpuBaseFields.pools,
    excludedTypes: gpuBaseFields.excludedTypes.optional(),
    count: gpuBaseFields.count.optional(),
    allowedCudaVersions: z.array(majorMinor).optional(),
    minCudaVersion: majorMinor.optional(),
  })
  .refine(cudaRulesHold, cudaRule);

/**
 * The GPU part of an update (OpenAPI `UpdateEndpointGpuConfig`): every field optional;
 * `excludedTypes` only with `pools` (the two are one selection; `pools` without `excludedTypes`
 * clears the exclusions); `minCudaVersion: ""` clears the floor.
 */
export const UpdateEndpointGpuConfigSchema = z
  .strictObject({
    pools: gpuBaseFields.pools.optional(),
    excludedTypes: gpuBaseFields.excludedTypes.optional(),
    count: gpuBaseFields.count.optional(),
    allowedCudaVersions: z.array(majorMinor).optional(),
    minCudaVersion: z
      .string()
      .regex(/^$|^\d+\.\d+$/, 'must be written major.minor, such as "12.4" ("" clears it)')
      .optional(),
  })
  .refine((gpu) => gpu.excludedTypes === undefined || gpu.pools !== undefined, {
    message: "requires pools: the pools and their exclusions are one selection, restate the pools",
    path: ["excludedTypes"],
  })
  .refine(cudaRulesHold, cudaRule);

/** One eligible CPU configuration of a request (OpenAPI `CreateCpuConfig`). */
export const CreateCpuConfigSchema = z.strictObject({
  id: nonEmpty,
  vcpuCount: z
    .number()
    .int("must be a whole number")
    .min(LIMITS.vcpuCountMinV2, `must be at least ${LIMITS.vcpuCountMinV2}`)
    .refine((n) => (n & (n - 1)) === 0, "must be a power of two"),
});

const cpuList = z
  .array(CreateCpuConfigSchema)
  .min(1, "must list at least one CPU configuration")
  .refine(
    (list) => new Set(list.map((c) => `${c.id}\u0000${c.vcpuCount}`)).size === list.length,
    "must not repeat a configuration (the same flavor may appear at different vCPU counts)",
  );

const commonRequestFields = {
  ...containerRequestFields,
  cpu: cpuList.optional(),
  dataCenterIds: z.array(nonEmpty).optional(),
  flashboot: FlashBootSchema.optional(),
  name: nonEmpty.optional(),
  networkVolumes: z.array(nonEmpty).optional(),
  scaling: EndpointScalingSchema.optional(),
  timeout: z.number().int("must be a whole number of milliseconds").min(1, "must be positive").optional(),
  workers: EndpointWorkersRequestSchema.optional(),
};

type RuleInput = {
  type?: EndpointType | undefined;
  scaling?: EndpointScaling | undefined;
  workers?: { min?: number | undefined; max?: number | undefined; idleTimeout?: number | undefined } | undefined;
  gpu?: unknown;
  cpu?: unknown;
};

/** The OpenAPI's rules across fields, shared by create and update (`type` is known on create only). */
function crossFieldIssues(body: RuleInput, ctx: z.RefinementCtx, create: boolean): void {
  const issue = (path: (string | number)[], message: string) => ctx.addIssue({ code: "custom", path, message });
  if (
    create ? (body.gpu === undefined) === (body.cpu === undefined) : body.gpu !== undefined && body.cpu !== undefined
  ) {
    issue(["gpu"], create ? "give exactly one of gpu or cpu" : "give gpu or cpu, not both");
  }
  // OpenAPI CreateEndpointRequest: `if type = LOAD_BALANCER then scaling is RequestCountScaling`.
  if (body.type === "LOAD_BALANCER" && body.scaling?.type === "QUEUE_DELAY") {
    issue(["scaling", "type"], "a LOAD_BALANCER endpoint scales on REQUEST_COUNT (queue delay needs a queue)");
  }
  // OpenAPI EndpointWorkers.idleTimeout: "Not applicable to queue-based endpoints scaling on requestCount".
  if (body.type === "QUEUE" && body.scaling?.type === "REQUEST_COUNT" && body.workers?.idleTimeout !== undefined) {
    issue(["workers", "idleTimeout"], "does not apply to a QUEUE endpoint scaling on REQUEST_COUNT");
  }
  const { min, max } = body.workers ?? {};
  if (!workersInOrder(min, max)) issue(["workers", "min"], workersOrderRule("workers.max"));
}

/**
 * Body of `POST /v2/serverless` (OpenAPI `CreateEndpointRequest`): `name`, `type` and `scaling`
 * required; exactly one of `gpu` or `cpu`; `image` unless `templateId` names a serverless template
 * (whose container settings are copied once: no link is kept).
 */
export const CreateEndpointRequestSchema = z
  .strictObject({
    ...commonRequestFields,
    name: nonEmpty,
    type: oneOf(ENDPOINT_TYPES),
    scaling: EndpointScalingSchema,
    gpu: CreateEndpointGpuConfigSchema.optional(),
    templateId: nonEmpty.optional(),
  })
  .superRefine((body, ctx) => {
    if (body.templateId === undefined && body.image === undefined) {
      ctx.addIssue({ code: "custom", path: ["image"], message: "is required unless templateId is given" });
    }
    crossFieldIssues(body, ctx, true);
  });
/** Input for creating an endpoint (v2). */
export type CreateEndpointRequest = z.infer<typeof CreateEndpointRequestSchema>;

/**
 * Body of `PATCH /v2/serverless/{id}` (OpenAPI `UpdateEndpointRequest`): only the given fields
 * change. `type` cannot change; `templateId` applies a template's container settings once.
 */
export const UpdateEndpointRequestSchema = z
  .strictObject({
    ...commonRequestFields,
    gpu: UpdateEndpointGpuConfigSchema.optional(),
    templateId: nonEmpty.optional(),
  })
  .superRefine((body, ctx) => crossFieldIssues(body, ctx, false));
/** Input for updating an endpoint (v2). */
export type UpdateEndpointRequest = z.infer<typeof UpdateEndpointRequestSchema>;

/** The job URLs of a queue-based endpoint (OpenAPI `QueueBasedRequestUrls`). */
export const QueueBasedRequestUrlsSchema = z.object({
  run: z.string(),
  runSync: z.string(),
  status: z.string(),
  stream: z.string(),
  cancel: z.string(),
  retry: z.string(),
  purgeQueue: z.string(),
  health: z.string(),
});
/** The base and health addresses of a load-balancing endpoint (OpenAPI `LoadBalancingRequestUrls`). */
export const LoadBalancingRequestUrlsSchema = z.object({ base: z.string(), health: z.string() });
/** An endpoint's request URLs (OpenAPI `EndpointRequestUrls`): job URLs, or base and health. */
export const EndpointRequestUrlsSchema = z.union([QueueBasedRequestUrlsSchema, LoadBalancingRequestUrlsSchema]);
/** An endpoint's request URLs. */
export type EndpointRequestUrls = z.infer<typeof EndpointRequestUrlsSchema>;

/** An endpoint's GPU selection as answered (OpenAPI `EndpointGpuConfig`). */
export const EndpointGpuConfigSchema = z.object({
  pools: z.array(z.string()),
  excludedTypes: z.array(z.string()).optional(),
  count: z.number().int().optional(),
  allowedCudaVersions: z.array(z.string()).optional(),
  minCudaVersion: z.string().nullable().optional(),
});

/** One CPU configuration as answered (OpenAPI `CpuConfig`: memory follows from the flavor). */
export const CpuConfigSchema = z.object({ id: z.string(), vcpuCount: z.number().int(), memory: z.number().optional() });

/** An endpoint as v2 returns it (OpenAPI `Endpoint`). Enumerations are read as strings; extra fields are tolerated. */
export const EndpointSchema = z.object({
  ...containerAnswerFields,
  id: z.string(),
  name: z.string(),
  type: z.string().optional(),
  requestUrls: EndpointRequestUrlsSchema.optional(),
  gpu: EndpointGpuConfigSchema.nullable().optional(),
  cpu: z.array(CpuConfigSchema).optional(),
  workers: z.object({ min: z.number().int(), max: z.number().int(), idleTimeout: z.number().int().optional() }),
  scaling: z.object({ type: z.string(), queueDelay: z.number().optional(), requestCount: z.number().optional() }),
  dataCenterIds: z.array(z.string()),
  networkVolumes: z.array(z.string()),
  timeout: z.number().int(),
  flashboot: z.string(),
  createdAt: z.string(),
});
/** An endpoint (v2). */
export type Endpoint = z.infer<typeof EndpointSchema>;

/** `GET /v2/serverless` (`{"endpoints": [...]}`), unwrapped. */
export const EndpointListSchema = wrappedList("endpoints", EndpointSchema);
