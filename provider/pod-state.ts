import type { ApiVersion } from "../sdk/config";
import type { Pod } from "../sdk/schemas";
import { changedFields } from "./diff-inputs";
import { POD_FIELDS } from "./field-rules";
import { isUnknown } from "./property-values";

/*
 * What a pod's state holds and how a change to it is carried out, as pure functions over the
 * property bags (the provider in pod-provider.ts sends the requests).
 */

type Props = Record<string, unknown>;

/** The inputs of the field table, in its order. */
export const POD_INPUT_KEYS = Object.keys(POD_FIELDS);

/**
 * Inputs whose value a pod read reports the same way on both API versions: refresh compares the
 * platform's value. Every other input (the placement the pod was created with: GPU list, cloud,
 * filters, ...) is not readable back, or not alike on both versions, and is kept as declared.
 */
const READ_BACK: Readonly<Record<string, (pod: Pod, declared: Props) => unknown>> = {
  name: (pod) => pod.name,
  imageName: (pod) => pod.image,
  // v1's `desiredStatus`, or v2's finer status mapped to it by the client; a preempted pod is EXITED.
  desiredStatus: (pod) => (pod.desiredStatus === "EXITED" ? "EXITED" : "RUNNING"),
  locked: (pod) => pod.locked,
  ports: (pod) => pod.ports,
  containerDiskInGb: (pod) => pod.containerDiskInGb ?? undefined,
  // With a network volume mounted, the pod volume's size reads differently per version (v1: as created; v2: 0).
  volumeInGb: (pod, declared) => (declared.networkVolumeId === undefined ? (pod.volumeInGb ?? undefined) : undefined),
  volumeMountPath: (pod) => pod.volumeMountPath,
  dockerStartCmd: (pod) => pod.dockerStartCmd,
  env: (pod, declared) => declaredEnv(pod.env, declared.env),
};

/**
 * The pod's env restricted to the keys the program declares: env the platform added (an injected
 * SSH key, a generated password, a template's variables) is neither drift nor stored twice.
 */
function declaredEnv(
  actual: Record<string, string> | undefined,
  declared: unknown,
): Record<string, string> | undefined {
  if (!actual || declared === null || typeof declared !== "object") return undefined;
  const out: Record<string, string> = {};
  for (const key of Object.keys(declared)) if (actual[key] !== undefined) out[key] = actual[key];
  return out;
}

/**
 * The outputs of a pod: `name`, `desiredStatus`, prices, `publicIp` and `portMappings` when the
 * platform has them, the vCPUs and GB of RAM it was given, the generated Jupyter password, and every input the program declares
 * (`declared`: the inputs, or the previous outputs on refresh), read back where {@link READ_BACK}
 * can. Platform bookkeeping (machine, timestamps, savings plans) is not stored: each stored byte is
 * rewritten into every checkpoint of a `pulumi up` (docs/resources.md, "What is stored in state").
 */
export function podOutputs(pod: Pod, declared: Props): Props {
  const outs: Props = {};
  for (const key of POD_INPUT_KEYS) {
    if (declared[key] === undefined && key !== "name" && key !== "desiredStatus") continue;
    const read = READ_BACK[key]?.(pod, declared);
    const value = read !== undefined ? read : declared[key];
    if (value !== undefined) outs[key] = value;
  }
  outs.costPerHr = pod.costPerHr ?? 0;
  outs.adjustedCostPerHr = pod.adjustedCostPerHr ?? pod.costPerHr ?? 0;
  if (typeof pod.publicIp === "string" && pod.publicIp !== "") outs.publicIp = pod.publicIp;
  if (pod.portMappings && Object.keys(pod.portMappings).length > 0) outs.portMappings = pod.portMappings;
  if (pod.vcpuCount !== undefined) outs.allocatedVcpuCount = pod.vcpuCount;
  if (pod.memoryInGb !== undefined) outs.allocatedMemoryGb = pod.memoryInGb;
  const password = pod.env?.JUPYTER_PASSWORD;
  const ownPassword = (declared.env as Props | undefined)?.JUPYTER_PASSWORD !== undefined;
  if (declared.startJupyter === true && password !== undefined && !ownPassword) outs.jupyterPassword = password;
  return outs;
}

/** The placement filters by the names earlier states may hold them under (v1's), and their names now. */
const FILTER_SPELLINGS = [
  ["minRamPerGpu", "minRAMPerGPU"],
  ["minVcpuCountPerGpu", "minVCPUPerGPU"],
] as const;

/**
 * `olds` with each placement filter under the name inputs give it now: a state written when the
 * filters also had v1's names (`minRAMPerGPU: 32`) holds the same filter as `minRamPerGpu: 32`,
 * so no change; another value still replaces the pod.
 */
export function oldsInNewSpelling(olds: Props, news: Props): Props {
  let out = olds;
  for (const [name, earlier] of FILTER_SPELLINGS) {
    if (news[name] !== undefined && olds[name] === undefined && olds[earlier] !== undefined) {
      const { [earlier]: value, ...rest } = out;
      out = { ...rest, [name]: value };
    }
  }
  return out;
}

/**
 * The env to send when the program's env changes: the program's, plus every variable the pod has
 * that the program never declared (`previous`: the env of the state), such as the injected
 * `PUBLIC_KEY`; both versions replace a pod's env whole, so what is not sent back is lost.
 * Variables the program removed are dropped.
 */
export function envToSend(
  wanted: Record<string, string>,
  actual: Record<string, string> | undefined,
  previous: unknown,
): Record<string, string> {
  const managed = new Set(previous !== null && typeof previous === "object" ? Object.keys(previous) : []);
  const kept: Record<string, string> = {};
  for (const [key, value] of Object.entries(actual ?? {})) if (!managed.has(key)) kept[key] = value;
  return { ...kept, ...wanted };
}

/** How an in-place change of a pod is carried out, step by step (the order a lock needs). */
export interface PodUpdatePlan {
  /** `PATCH` in place first: a rename, and an unlock before anything the lock forbids. */
  inPlaceFirst: { name?: string; locked?: false };
  /** The fields that go through the reset update (v1) or `PATCH` (v2). */
  reset: string[];
  /** `stop` or `start`, after the reset. */
  status: "stop" | "start" | undefined;
  /** Lock last, so that a stop or a reset in the same change is not refused. */
  lockAfter: boolean;
}

/** The steps that take a pod from `olds` to `news` (no replacement: `diff` has ruled that out). */
export function planPodUpdate(olds: Props, news: Props): PodUpdatePlan {
  const changed = changedFields(olds, news, POD_FIELDS).filter(
    (k) => !POD_FIELDS[k as keyof typeof POD_FIELDS]?.replaces,
  );
  const inPlaceFirst: PodUpdatePlan["inPlaceFirst"] = {};
  if (changed.includes("name")) inPlaceFirst.name = news.name as string;
  if (changed.includes("locked") && news.locked === false) inPlaceFirst.locked = false;
  const wanted = news.desiredStatus ?? "RUNNING";
  return {
    inPlaceFirst,
    reset: changed.filter((k) => POD_FIELDS[k as keyof typeof POD_FIELDS]?.resets),
    status: changed.includes("desiredStatus") ? (wanted === "EXITED" ? "stop" : "start") : undefined,
    lockAfter: changed.includes("locked") && news.locked === true,
  };
}

/**
 * The failure `check` reports when a change needs what a lock forbids: a pod that is locked and
 * stays locked cannot be stopped or reset. Unlocking in the same change works (the provider
 * unlocks first).
 */
export function lockProblem(olds: Props, news: Props): string | undefined {
  if (olds.locked !== true || news.locked !== true || olds.name === undefined) return undefined;
  const plan = planPodUpdate(olds, news);
  const blocked = [...(plan.status === "stop" ? ["desiredStatus = EXITED (a stop)"] : []), ...plan.reset];
  if (blocked.length === 0) return undefined;
  return `the pod is locked and stays locked, and a locked pod cannot be stopped or reset, which ${blocked.join(", ")} needs: set locked to false in the same change (the provider unlocks before the change), or leave ${blocked.length === 1 ? "it" : "them"} unchanged`;
}

/** `Pod "gpu"`: the resource's logical name, the last part of its URN. */
function resourceOfUrn(urn: string): string {
  return `Pod "${urn.slice(urn.lastIndexOf("::") + 2)}"`;
}

/**
 * The preview's words for a change that resets the pod, or undefined when it resets nothing (or
 * replaces the pod, which the preview already says). Names the resource, the fields, the route
 * and what happens to the container and the volumes.
 */
export function resetNotice(olds: Props, news: Props, version: ApiVersion | undefined): string | undefined {
  const changed = changedFields(olds, news, POD_FIELDS);
  if (changed.some((k) => POD_FIELDS[k as keyof typeof POD_FIELDS]?.replaces)) return undefined;
  const reset = changed.filter((k) => POD_FIELDS[k as keyof typeof POD_FIELDS]?.resets);
  if (reset.length === 0) return undefined;
  const urn = typeof news.__urn === "string" ? news.__urn : "";
  const subject = urn ? resourceOfUrn(urn) : `Pod ${JSON.stringify(news.name ?? "")}`;
  const route =
    version === "v2"
      ? "updates through PATCH /pods/{id} (management API v2)"
      : version === "v1"
        ? "updates through the reset update POST /pods/{id}/update (management API v1)"
        : "updates through a reset";
  const unknown = reset.some((k) => isUnknown(news[k])) ? " (values not known until apply count as changed)" : "";
  const fields = reset.join(", ");
  return `${subject}: changing ${fields} ${route}: the container restarts and its disk is wiped; the pod volume and network volume stay${unknown}`;
}
