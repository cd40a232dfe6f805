import { z } from "zod";
import { COMPUTE_TYPES } from "./platform-enums";
import { cudaVersion, distinctList, platformId } from "./platform-values";
import { placementFilter } from "./v2/pod";

/*
 * Pods of management API v1 (`management-api-v1.openapi.json`: `Pod`, `PodCreateInput`,
 * `PodUpdateInput`, `PodUpdateInPlaceInput`), which are also the version-neutral shapes
 * (`client.pods` on either version): v1's field names, plus the few inputs only v2 has. Open
 * value sets (GPU types, data centers, CUDA versions, CPU flavors) are judged by shape only, as for
 * endpoints; the platform (or the emulator) judges membership.
 */

/** Pod names (OpenAPI `maxLength: 191`). */
export const POD_NAME_MAX_LENGTH = 191;

/** Defaults the platform applies to a pod created without a field (OpenAPI v1 `PodCreateInput` defaults). */
export const POD_DEFAULTS = {
  name: "my pod",
  computeType: "GPU",
  cloudType: "SECURE",
  gpuCount: 1,
  vcpuCount: 2,
  containerDiskInGb: 50,
  volumeInGb: 20,
  volumeMountPath: "/workspace",
  ports: ["8888/http", "22/tcp"],
  gpuTypePriority: "availability",
  dataCenterPriority: "availability",
  cpuFlavorPriority: "availability",
  interruptible: false,
  locked: false,
  globalNetworking: false,
} as const;

/** How the platform orders candidates (OpenAPI `gpuTypePriority`, `dataCenterPriority`, `cpuFlavorPriority`). */
export const PLACEMENT_PRIORITIES = ["availability", "custom"] as const;
/** `availability` (most available first) or `custom` (the list's order). */
export type PlacementPriority = (typeof PLACEMENT_PRIORITIES)[number];

/** Clouds (OpenAPI v1 `cloudType`, v2 `Cloud`). */
export const CLOUD_TYPES = ["SECURE", "COMMUNITY"] as const;

/** What a pod is asked to be (OpenAPI v1 `desiredStatus`). */
export const POD_DESIRED_STATUSES = ["RUNNING", "EXITED", "TERMINATED"] as const;

/** A port as the OpenAPI describes it: `[port number]/[protocol]`, protocol `http` or `tcp`. */
const PORT = /^(\d{1,5})\/(?:http|tcp)$/;
const port = z
  .string()
  .refine(
    (v) => Number(PORT.exec(v)?.[1] ?? 0) >= 1 && Number(PORT.exec(v)?.[1]) <= 65_535,
    'must be "<port>/<http|tcp>" with a port from 1 to 65535, e.g. "8888/http"',
  );

/** POSIX environment variable names; values are strings (and may be secrets: never echoed in errors). */
const ENV_NAME_RULE = "is not a valid environment variable name (letters, digits and _, not starting with a digit)";
const env = z.record(z.string().regex(/^[A-Za-z_][A-Za-z0-9_]*$/, ENV_NAME_RULE), z.string("must be a string"), {
  // zod reports a bad key as "Invalid key in record" unless told: name the rule.
  error: (issue) => (issue.code === "invalid_key" ? ENV_NAME_RULE : undefined),
});

const gb = (what: string) => z.number().int(`must be a whole number of GB`).min(0, `${what} must be at least 0 GB`);
const positiveNumber = z.number().min(0, "must be at least 0");
const priority = z.enum(PLACEMENT_PRIORITIES, { error: `must be one of ${PLACEMENT_PRIORITIES.join(", ")}` });

/** Fields of the reset update (OpenAPI `PodUpdateInput`), also part of the create input. */
const resetFields = {
  containerDiskInGb: gb("containerDiskInGb").nullable(),
  containerRegistryAuthId: z.string(),
  dockerEntrypoint: z.array(z.string()),
  dockerStartCmd: z.array(z.string()),
  env,
  globalNetworking: z.boolean(),
  imageName: z.string().min(1, "must not be empty").regex(/^\S*$/, "must not contain whitespace"),
  locked: z.boolean(),
  name: z.string().max(POD_NAME_MAX_LENGTH, `must be at most ${POD_NAME_MAX_LENGTH} characters`),
  ports: z.array(port),
  volumeInGb: gb("volumeInGb").nullable(),
  volumeMountPath: z.string().regex(/^\//, "must be an absolute path (starting with /)"),
};

/**
 * Body of `POST /pods` (OpenAPI v1 `PodCreateInput`: every field, none required by the OpenAPI;
 * the platform needs `imageName` or `templateId`). Plus the inputs only v2 has (`startSsh`,
 * `startJupyter`, `minCudaVersion`): `VERSION_ONLY_FIELDS.pod` refuses them on v1, and v1's own
 * (`interruptible`, `countryCodes`, the machine's bandwidth filters, the priority modes) on v2.
 * The placement filters go by v2's names on both versions, `minRamPerGpu` and
 * `minVcpuCountPerGpu` (v1's client sends them as its `minRAMPerGPU` and `minVCPUPerGPU`).
 */
export const PodCreateInputSchema = z
  .object({
    ...resetFields,
    allowedCudaVersions: distinctList(cudaVersion, "CUDA version"),
    cloudType: z.enum(CLOUD_TYPES, { error: `must be one of ${CLOUD_TYPES.join(", ")}` }),
    computeType: z.enum(COMPUTE_TYPES, { error: `must be one of ${COMPUTE_TYPES.join(", ")}` }),
    countryCodes: z.array(z.string().regex(/^[A-Za-z]{2}$/, "must be an ISO 3166-1 alpha-2 country code")),
    cpuFlavorIds: distinctList(platformId("cpuFlavor"), "CPU flavor"),
    cpuFlavorPriority: priority,
    dataCenterIds: distinctList(platformId("dataCenter"), "data center"),
    dataCenterPriority: priority,
    gpuCount: z.number().int("must be a whole number").min(1, "must be at least 1"),
    gpuTypeIds: distinctList(platformId("gpuType"), "GPU type"),
    gpuTypePriority: priority,
    interruptible: z.boolean(),
    minDiskBandwidthMBps: positiveNumber,
    minDownloadMbps: positiveNumber,
    minUploadMbps: positiveNumber,
    networkVolumeId: z.string().min(1, "must not be empty"),
    supportPublicIp: z.boolean(),
    templateId: z.string().min(1, "must not be empty"),
    vcpuCount: z.number().int("must be a whole number").min(1, "must be at least 1"),
    startSsh: z.boolean(),
    startJupyter: z.boolean(),
    minCudaVersion: cudaVersion,
    minRamPerGpu: placementFilter,
    minVcpuCountPerGpu: placementFilter,
  })
  .partial();
/** Input for creating a pod. */
export type PodCreateInput = z.infer<typeof PodCreateInputSchema>;

/**
 * What v1's `POST /pods` takes on the wire (OpenAPI v1 `PodCreateInput`): the create input with
 * the placement filters under v1's names, `minRAMPerGPU` and `minVCPUPerGPU` (0: no filter).
 */
export const PodCreateBodyV1Schema = PodCreateInputSchema.omit({ minRamPerGpu: true, minVcpuCountPerGpu: true }).extend(
  {
    minRAMPerGPU: z.number().int("must be a whole number of GB").min(0, "must be at least 0").optional(),
    minVCPUPerGPU: z.number().int("must be a whole number").min(0, "must be at least 0").optional(),
  },
);
/** v1's create body on the wire. */
export type PodCreateBodyV1 = z.infer<typeof PodCreateBodyV1Schema>;

/**
 * Body of the reset update, `POST /pods/{id}/update` (OpenAPI v1 `PodUpdateInput`, "Input for
 * updating a Pod which will trigger a reset"): the container restarts on the new settings and its
 * disk is wiped; the pod volume and a network volume keep their data. Every field optional.
 */
export const PodUpdateInputSchema = z.object(resetFields).partial();
/** Input of the reset update. */
export type PodUpdateInput = z.infer<typeof PodUpdateInputSchema>;

/** Body of `PATCH /pods/{id}` in place (OpenAPI v1 `PodUpdateInPlaceInput`): no reset. */
export const PodUpdateInPlaceInputSchema = z
  .strictObject({ name: resetFields.name, locked: resetFields.locked })
  .partial()
  .refine((body) => body.name !== undefined || body.locked !== undefined, {
    message: "must change something: give name or locked",
  });
/** Input of the in-place update (name, locked). */
export type PodUpdateInPlaceInput = z.infer<typeof PodUpdateInPlaceInputSchema>;

/** The fields an in-place update may carry; anything else of `PodUpdateInput` resets the pod. */
export const POD_IN_PLACE_FIELDS = ["name", "locked"] as const;

const gpuShape = z.object({
  id: z.string().optional(),
  count: z.number().int().optional(),
  displayName: z.string().optional(),
  securePrice: z.number().optional(),
  communityPrice: z.number().optional(),
  secureSpotPrice: z.number().optional(),
  communitySpotPrice: z.number().optional(),
});

/**
 * A pod as v1 answers it (OpenAPI v1 `Pod`), which is also the version-neutral pod: the neutral
 * API over v2 fills the same fields (and `dataCenterId` and `status`, which only v2 reports at the top level).
 * Enumerated fields are read as strings and all but `id` are optional, so a newer or partial
 * answer never fails. `env` values may be secrets.
 */
export const PodSchema = z.object({
  id: z.string(),
  name: z.string().optional(),
  image: z.string().optional(),
  desiredStatus: z.string().optional(),
  costPerHr: z.coerce.number().optional(),
  adjustedCostPerHr: z.number().optional(),
  gpu: gpuShape.optional(),
  cpuFlavorId: z.string().optional(),
  vcpuCount: z.number().optional(),
  memoryInGb: z.number().optional(),
  containerDiskInGb: z.number().int().nullable().optional(),
  volumeInGb: z.number().int().nullable().optional(),
  volumeMountPath: z.string().optional(),
  volumeEncrypted: z.boolean().optional(),
  networkVolume: z
    .object({
      id: z.string().optional(),
      name: z.string().optional(),
      size: z.number().optional(),
      dataCenterId: z.string().optional(),
    })
    .optional(),
  env: z.record(z.string(), z.string()).optional(),
  ports: z.array(z.string()).optional(),
  portMappings: z.record(z.string(), z.number()).nullable().optional(),
  publicIp: z.string().nullable().optional(),
  locked: z.boolean().optional(),
  interruptible: z.boolean().optional(),
  templateId: z.string().nullable().optional(),
  containerRegistryAuthId: z.string().nullable().optional(),
  dockerEntrypoint: z.array(z.string()).optional(),
  dockerStartCmd: z.array(z.string()).optional(),
  machineId: z.string().optional(),
  machine: z.record(z.string(), z.unknown()).optional(),
  lastStartedAt: z.string().optional(),
  lastStatusChange: z.string().optional(),
  consumerUserId: z.string().optional(),
  endpointId: z.string().nullable().optional(),
  savingsPlans: z.array(z.record(z.string(), z.unknown())).optional(),
  /** v2 only: the data center the pod runs in (v1 reports it under `machine` with `includeMachine`). */
  dataCenterId: z.string().nullable().optional(),
  /** v2 only: the finer lifecycle status (`PROVISIONING`, `STARTING`, `RUNNING`, `EXITED`, `ERROR`, `TERMINATED`). */
  status: z.string().optional(),
});
/** A pod. */
export type Pod = z.infer<typeof PodSchema>;

/** `GET /pods`. */
export const PodListSchema = z.array(PodSchema);

/**
 * v1's `dockerStartCmd` (an argument list) as v2's `args` (one string): arguments joined by
 * spaces, an argument holding whitespace, a quote or a backslash written as a JSON string, so
 * {@link argsToStartCommand} reads the same list back.
 */
export function startCommandToArgs(command: readonly string[]): string {
  return command.map((arg) => (arg === "" || /[\s"'\\]/.test(arg) ? JSON.stringify(arg) : arg)).join(" ");
}

/** v2's `args` as v1's `dockerStartCmd`: split on whitespace, a double-quoted part read as a JSON string. */
export function argsToStartCommand(args: string): string[] {
  const out: string[] = [];
  const token = /"(?:[^"\\]|\\.)*"|\S+/g;
  for (const m of args.matchAll(token)) {
    const part = m[0];
    if (part.startsWith('"')) {
      try {
        out.push(JSON.parse(part) as string);
        continue;
      } catch {
        // Not a JSON string after all: keep it as written.
      }
    }
    out.push(part);
  }
  return out;
}
