import { z } from "zod";
import { LIMITS } from "../limits";
import { CreateCpuConfigSchema } from "./serverless";
import { PersistentMountSchema } from "./template";
import { majorMinor, nonEmpty, wrappedList } from "./common";

/*
 * Pods of management API v2 (`/v2/pods`): OpenAPI v2 `Pod`, `CreatePodRequest`,
 * `UpdatePodRequest`, `PodActionRequest`, and the log events of `/v2/pods/{id}/logs`. GPU types,
 * CPU flavors and data centers are open strings; status, actions and clouds are the OpenAPI's enums.
 */

/** Lifecycle statuses (OpenAPI v2 `PodStatus`). */
export const POD_STATUSES = ["PROVISIONING", "STARTING", "RUNNING", "EXITED", "ERROR", "TERMINATED"] as const;
/** A pod's lifecycle status. */
export type PodStatus = (typeof POD_STATUSES)[number];

/** State transitions (OpenAPI v2 `PodAction`). */
export const POD_ACTIONS = ["start", "stop", "restart", "terminate"] as const;
/** A state transition of `POST /v2/pods/{id}/action`. */
export type PodAction = (typeof POD_ACTIONS)[number];

const cloud = z.enum(["SECURE", "COMMUNITY"], { error: "must be one of SECURE, COMMUNITY" });

/** Container settings of a create or update (OpenAPI v2 `BaseContainerConfig` plus `registry`). */
export const containerConfigFields = {
  args: z.string(),
  disk: z
    .number()
    .int("must be a whole number of GB")
    .min(LIMITS.containerDiskGbMinV2, `must be at least ${LIMITS.containerDiskGbMinV2} GB`),
  env: z.record(z.string(), z.string("must be a string")),
  image: nonEmpty,
  ports: z.array(z.string().regex(/^\d{1,5}\/(?:http|tcp)$/, 'must be "<port>/<http|tcp>", e.g. "8888/http"')),
};

/** A network volume mount (OpenAPI v2 `NetworkMount`). */
export const NetworkMountSchema = z.strictObject({ volumeId: nonEmpty, path: nonEmpty });

/**
 * Storage mounts (OpenAPI v2 `Mounts`): at most one of `persistent` and `network` (a cross-field
 * rule, 400 on the platform), `network` at most one entry.
 */
export const MountsSchema = z
  .strictObject({
    persistent: PersistentMountSchema.optional(),
    network: z.array(NetworkMountSchema).max(1, "must hold at most one network volume"),
  })
  .partial()
  .refine((m) => m.persistent === undefined || m.network === undefined, {
    message: "persistent and network mounts exclude each other: give one of the two",
    path: ["network"],
  });
/** A pod's mounts. */
export type Mounts = z.infer<typeof MountsSchema>;

/**
 * A placement filter of a pod create: the least a machine must give per GPU (a filter, not a
 * request: the pod gets its machine's share, which may be more).
 */
export const placementFilter = z
  .number()
  .int("must be a whole number")
  .min(LIMITS.placementFilterMinV2, `must be at least ${LIMITS.placementFilterMinV2}: leave it out for no filter`);

/**
 * GPUs of a pod create (OpenAPI v2 `CreateGpuConfig`), with the create-only placement filters
 * `minRamPerGpu` (GB) and `minVcpuCountPerGpu`.
 */
export const CreateGpuConfigSchema = z.strictObject({
  id: nonEmpty,
  count: z.number().int("must be a whole number").min(1, "must be at least 1").optional(),
  allowedCudaVersions: z.array(majorMinor).optional(),
  minCudaVersion: majorMinor.optional(),
  minRamPerGpu: placementFilter.optional(),
  minVcpuCountPerGpu: placementFilter.optional(),
});

/**
 * Body of `POST /v2/pods` (OpenAPI v2 `CreatePodRequest`): `name` required; exactly one of `gpu`
 * and `cpu`; `image` unless `templateId`; a CPU pod takes no persistent mount. The shape rules
 * are 422s on the platform, the cross-field rules (zod `custom` issues here) 400s.
 */
export const CreatePodRequestSchema = z
  .strictObject({
    ...containerConfigFields,
    registry: z.string().nullable(),
    name: nonEmpty,
    cloud,
    cpu: CreateCpuConfigSchema,
    dataCenterIds: z.array(nonEmpty),
    globalNetworking: z.boolean(),
    gpu: CreateGpuConfigSchema,
    mounts: MountsSchema,
    startJupyter: z.boolean(),
    startSsh: z.boolean(),
    templateId: nonEmpty,
  })
  .partial()
  .required({ name: true })
  .superRefine((body, ctx) => {
    if ((body.gpu === undefined) === (body.cpu === undefined)) {
      ctx.addIssue({ code: "custom", path: ["gpu"], message: "give exactly one of gpu and cpu" });
    }
    if (body.image === undefined && body.templateId === undefined) {
      ctx.addIssue({ code: "custom", path: ["image"], message: "is required unless templateId is given" });
    }
    if (body.cpu !== undefined && body.mounts?.persistent !== undefined) {
      ctx.addIssue({
        code: "custom",
        path: ["mounts", "persistent"],
        message: "is not available on CPU pods: mount a network volume instead",
      });
    }
  });
/** Input for creating a pod (v2). */
export type CreatePodRequest = z.infer<typeof CreatePodRequestSchema>;

/**
 * Body of `PATCH /v2/pods/{id}` (OpenAPI v2 `UpdatePodRequest`): only the fields given change.
 * Changing the container (image, args, disk, env, ports, registry, mounts) restarts it, its disk
 * wiped; `name` and `locked` change in place; `globalNetworking` applies at the next start.
 */
export const UpdatePodRequestSchema = z
  .strictObject({
    ...containerConfigFields,
    registry: z.string().nullable(),
    globalNetworking: z.boolean(),
    locked: z.boolean(),
    mounts: MountsSchema,
    name: nonEmpty,
    templateId: nonEmpty,
  })
  .partial();
/** Input for updating a pod (v2). */
export type UpdatePodRequest = z.infer<typeof UpdatePodRequestSchema>;

/** Body of `POST /v2/pods/{id}/action` (OpenAPI v2 `PodActionRequest`). */
export const PodActionRequestSchema = z.strictObject({
  action: z.enum(POD_ACTIONS, { error: `must be one of ${POD_ACTIONS.join(", ")}` }),
});

const sshEndpoint = z.object({ host: z.string(), port: z.number().int(), username: z.string(), command: z.string() });

/** A pod as v2 answers it (OpenAPI v2 `Pod`). Enumerations are read as strings; extra fields are tolerated. */
export const PodSchema = z.object({
  id: z.string(),
  name: z.string(),
  status: z.string(),
  actions: z.array(z.string()),
  image: z.string(),
  args: z.string(),
  disk: z.number().int(),
  env: z.record(z.string(), z.string()),
  ports: z.array(z.string()),
  registry: z.string().nullable(),
  mounts: z.object({
    persistent: z.object({ size: z.number().int(), path: z.string() }).optional(),
    network: z.array(z.object({ volumeId: z.string(), path: z.string() })).optional(),
  }),
  /** `vcpuCount` and `memory` (GB): what the pod was given in all, which may be more than its filters asked. */
  gpu: z
    .object({
      id: z.string(),
      count: z.number().int().optional(),
      vcpuCount: z.number().optional(),
      memory: z.number().optional(),
    })
    .optional(),
  cpu: z.object({ id: z.string(), vcpuCount: z.number().int(), memory: z.number().int() }).optional(),
  cloud: z.string(),
  dataCenterId: z.string().nullable(),
  cudaVersion: z.string().nullable(),
  ssh: z.object({ proxy: sshEndpoint.nullable(), direct: sshEndpoint.nullable() }),
  cluster: z
    .object({
      id: z.string(),
      rank: z.number().int().nullable(),
      role: z.string().optional(),
      ip: z.string().optional(),
    })
    .optional(),
  template: z.string().nullable(),
  cost: z.number(),
  locked: z.boolean(),
  globalNetworking: z.object({ enabled: z.boolean(), ip: z.string().optional(), internalDns: z.string().optional() }),
  runtime: z
    .object({
      uptime: z.number().int().optional(),
      gpus: z.array(z.object({ util: z.number().optional(), memoryUtil: z.number().optional() })).optional(),
      cpu: z.object({ util: z.number().optional() }).optional(),
      memory: z.object({ util: z.number().optional() }).optional(),
      ports: z
        .array(
          z.object({
            private: z.number().int().optional(),
            public: z.number().int().nullable().optional(),
            type: z.string().optional(),
            ip: z.string().nullable().optional(),
          }),
        )
        .optional(),
    })
    .nullable(),
  createdAt: z.string(),
  startedAt: z.string().nullable(),
});
/** A pod (v2). */
export type Pod = z.infer<typeof PodSchema>;

/** `GET /v2/pods` (`{"pods": [...]}`), unwrapped. */
export const PodListSchema = wrappedList("pods", PodSchema);

/** One event of `GET /v2/pods/{id}/logs` (the SSE `data` payload, with the event's `id`). */
export const PodLogEventSchema = z.object({
  id: z.string(),
  ts: z.string(),
  source: z.string(),
  line: z.string(),
});
/** A pod log line. */
export type PodLogEvent = z.infer<typeof PodLogEventSchema>;

/**
 * The events of a Server-Sent Events text (`id:` and `data:` lines, blank line between events),
 * as `/v2/pods/{id}/logs` sends them; comments and events without JSON data are skipped.
 */
export function parsePodLogEvents(text: string): PodLogEvent[] {
  const events: PodLogEvent[] = [];
  for (const block of text.split(/\r?\n\r?\n/)) {
    let id = "";
    const data: string[] = [];
    for (const line of block.split(/\r?\n/)) {
      if (line.startsWith("id:")) id = line.slice(3).trim();
      else if (line.startsWith("data:")) data.push(line.slice(5).replace(/^ /, ""));
    }
    if (data.length === 0) continue;
    try {
      const payload = JSON.parse(data.join("\n")) as Record<string, unknown>;
      const parsed = PodLogEventSchema.safeParse({ id: id || String(payload.ts ?? ""), ...payload });
      if (parsed.success) events.push(parsed.data);
    } catch {
      // Not JSON: not a log event of this API.
    }
  }
  return events;
}
