import { z } from "zod";
import { LIMITS, workersInOrder, workersOrderRule } from "../sdk/schemas";
import { resourcePolicy } from "./define-policy";
import { isWholeNumber, resourceLabel, type ViolationList, violationList } from "./format";
import { nonNegativeInt, withStackOverrides } from "./policy-config";
import { type ServerlessEndpointProps, ServerlessEndpointResource } from "./resource-types";
import { type ApiVersionContext, endpointDefaults, formatEndpointSetting } from "./stack-api-version";
import { NO_STACK, type StackContext, type StackSettings, settingLabel, settingsForStack } from "./stack-context";

/** Name of the policy (the key of its settings in `--policy-pack-config`). */
export const WORKER_BOUNDS_POLICY = "runpod-worker-bounds";

const { min: IDLE_MIN, max: IDLE_MAX } = LIMITS.idleTimeoutSeconds;

const idleTimeoutBound = (description: string) => z.int().min(IDLE_MIN).max(IDLE_MAX).optional().describe(description);

/** The settings of `runpod-worker-bounds`; each may differ per stack through `byStack`/`byStackTag`. */
export const WorkerBoundsSettingsSchema = z.object({
  workersMinCap: nonNegativeInt(
    "Largest workersMin allowed: minimum workers are billed even when idle (e.g. 0 for dev stacks).",
  ),
  workersMaxCap: nonNegativeInt("Largest workersMax allowed."),
  idleTimeoutMin: idleTimeoutBound(`Shortest idleTimeout allowed, in seconds (platform: ${IDLE_MIN} to ${IDLE_MAX}).`),
  idleTimeoutMax: idleTimeoutBound(`Longest idleTimeout allowed, in seconds (platform: ${IDLE_MIN} to ${IDLE_MAX}).`),
  requestsPerWorkerMax: z
    .int()
    .min(1)
    .optional()
    .describe(
      "Largest scalerValue of an endpoint scaling on REQUEST_COUNT (a load-balancing endpoint's default): the requests one worker takes at once before another starts.",
    ),
});

/** The settings of `runpod-worker-bounds`. */
export type WorkerBoundsSettings = z.infer<typeof WorkerBoundsSettingsSchema>;

/** The configuration of `runpod-worker-bounds` (its key in `--policy-pack-config`): the settings plus their per-stack overrides. */
export const WorkerBoundsConfigSchema = withStackOverrides(WorkerBoundsSettingsSchema);

/** The configuration of `runpod-worker-bounds`. */
export type WorkerBoundsConfig = z.infer<typeof WorkerBoundsConfigSchema>;

/**
 * The worker bounds rule: `0 <= workersMin <= workersMax` (unset values take the defaults of the
 * management API version the stack talks), the configured caps on both, and `idleTimeout` within
 * the platform's bounds and the configured range. Returns one message per violation.
 */
export function checkWorkerBounds(
  name: string,
  props: ServerlessEndpointProps,
  config: WorkerBoundsConfig = {},
  context: StackContext = NO_STACK,
): string[] {
  const subject = resourceLabel("ServerlessEndpoint", name);
  const limits = settingsForStack<WorkerBoundsSettings>(config, context);
  const found = violationList(subject);
  const defaults = endpointDefaults(context);
  const workers = (field: "workersMin" | "workersMax") => {
    const value = props[field];
    const shown = formatEndpointSetting(value, field, context);
    if (value !== undefined && !(isWholeNumber(value) && value >= LIMITS.workersMin)) {
      found.add(field, shown, `must be a whole number of at least ${LIMITS.workersMin}`);
      return undefined;
    }
    return { value: value ?? defaults[field], shown };
  };
  const min = workers("workersMin");
  const max = workers("workersMax");
  if (min && max && !workersInOrder(min.value, max.value)) {
    found.add("workersMin", min.shown, `${workersOrderRule("workersMax")} = ${max.shown}`);
  }
  const cap = (field: "workersMin" | "workersMax", actual: typeof min, key: "workersMinCap" | "workersMaxCap") => {
    const limit = limits.values[key];
    if (!actual || limit === undefined || actual.value <= limit) return;
    const why = field === "workersMin" ? "; minimum workers are billed even when idle" : "";
    found.add(field, actual.shown, `exceeds the cap of ${limit} (${settingLabel(limits, key)})${why}`);
  };
  cap("workersMin", min, "workersMinCap");
  cap("workersMax", max, "workersMaxCap");
  requestScalingProblems(found, props, max?.value, limits, context);
  return idleTimeoutProblems(found, props.idleTimeout, limits, context);
}

/**
 * A load-balancing endpoint's workers and request-count scaling: with `workersMax` 0 it answers
 * every request 503 (there is no queue to hold them), and the requests per worker
 * (`scalerValue` with REQUEST_COUNT, a load balancer's default scaler) stay within
 * `requestsPerWorkerMax`.
 */
function requestScalingProblems(
  found: ViolationList,
  props: ServerlessEndpointProps,
  workersMax: number | undefined,
  limits: StackSettings<WorkerBoundsSettings>,
  context: ApiVersionContext,
): void {
  const balancer = props.type === "LOAD_BALANCER";
  if (balancer && workersMax === 0) {
    found.add(
      "workersMax",
      "0",
      "leaves a LOAD_BALANCER endpoint no worker: it has no queue, so every request is answered 503",
    );
  }
  const byRequests = props.scalerType === "REQUEST_COUNT" || (balancer && props.scalerType === undefined);
  const cap = limits.values.requestsPerWorkerMax;
  const value = props.scalerValue ?? endpointDefaults(context).scalerValue;
  if (byRequests && cap !== undefined && isWholeNumber(value) && value > cap) {
    found.add(
      "scalerValue",
      formatEndpointSetting(props.scalerValue, "scalerValue", context),
      `exceeds the cap of ${cap} requests per worker (${settingLabel(limits, "requestsPerWorkerMax")})`,
    );
  }
}

/** Adds the idle timeout's violations to `found`; returns all of its messages. */
function idleTimeoutProblems(
  found: ViolationList,
  idleTimeout: unknown,
  limits: StackSettings<WorkerBoundsSettings>,
  context: ApiVersionContext,
): string[] {
  const shown = formatEndpointSetting(idleTimeout, "idleTimeout", context);
  const value = idleTimeout ?? endpointDefaults(context).idleTimeout;
  if (!isWholeNumber(value)) return found.add("idleTimeout", shown, "must be a whole number of seconds");
  if (value < IDLE_MIN || value > IDLE_MAX) {
    return found.add("idleTimeout", shown, `must be between ${IDLE_MIN} and ${IDLE_MAX} seconds (platform limit)`);
  }
  const { idleTimeoutMin, idleTimeoutMax } = limits.values;
  if (idleTimeoutMin !== undefined && value < idleTimeoutMin) {
    const rule = `must be at least ${idleTimeoutMin} seconds (${settingLabel(limits, "idleTimeoutMin")})`;
    return found.add("idleTimeout", shown, rule);
  }
  if (idleTimeoutMax !== undefined && value > idleTimeoutMax) {
    const rule = `must be at most ${idleTimeoutMax} seconds (${settingLabel(limits, "idleTimeoutMax")})`;
    return found.add("idleTimeout", shown, rule);
  }
  return found.messages;
}

/** The policy: worker counts, caps (per stack) and idle timeout of every endpoint. */
export const workerBoundsPolicy = resourcePolicy({
  name: WORKER_BOUNDS_POLICY,
  description:
    "An endpoint's workersMin and workersMax must satisfy 0 <= workersMin <= workersMax and the configured caps (a load balancer needs a worker), its requests per worker (REQUEST_COUNT scaling) the configured cap, and its idleTimeout must lie within the platform's bounds and the configured range.",
  enforcementLevel: "mandatory",
  config: WorkerBoundsConfigSchema,
  remediationSteps:
    "Lower workersMin/workersMax to the caps that apply to this stack, and set idleTimeout within the allowed range.",
  resource: ServerlessEndpointResource,
  check: checkWorkerBounds,
});
