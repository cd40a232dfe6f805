import { z } from "zod";
import { LIMITS } from "../sdk/schemas";
import { stackPolicy } from "./define-policy";
import { countOrDefault, listContributors, plural, stackLabel, violation } from "./format";
import { nonNegativeInt, withStackOverrides } from "./policy-config";
import {
  isGpuEndpoint,
  type NamedProps,
  type ServerlessEndpointProps,
  ServerlessEndpointResource,
} from "./resource-types";
import { type ApiVersionContext, endpointDefaults } from "./stack-api-version";
import { NO_STACK, type StackContext, settingLabel, settingsForStack } from "./stack-context";

/** Name of the policy (the key of its settings in `--policy-pack-config`). */
export const STACK_WORKER_BUDGET_POLICY = "runpod-stack-worker-budget";

/** The settings of `runpod-stack-worker-budget`; each may differ per stack through `byStack`/`byStackTag`. */
export const StackWorkerBudgetSettingsSchema = z.object({
  maxTotalGpus: nonNegativeInt(
    "Most GPUs the stack's GPU endpoints may hold at once: the sum of workersMax × gpuCount. Unset: the policy does not apply.",
  ),
});

/** The settings of `runpod-stack-worker-budget`. */
export type StackWorkerBudgetSettings = z.infer<typeof StackWorkerBudgetSettingsSchema>;

/** The configuration of `runpod-stack-worker-budget` (its key in `--policy-pack-config`): the settings plus their per-stack overrides. */
export const StackWorkerBudgetConfigSchema = withStackOverrides(StackWorkerBudgetSettingsSchema);

/** The configuration of `runpod-stack-worker-budget`. */
export type StackWorkerBudgetConfig = z.infer<typeof StackWorkerBudgetConfigSchema>;

/** What one GPU endpoint can hold at once: `workersMax × gpuCount` GPUs (unset or invalid values take the platform defaults). */
export interface GpuDemand {
  /** Effective workersMax. */
  readonly workersMax: number;
  /** Effective gpuCount. */
  readonly gpuCount: number;
  /** `workersMax × gpuCount`. */
  readonly gpus: number;
}

/**
 * An endpoint's most GPUs at once, or undefined for a CPU endpoint. A value that is not a valid
 * count counts as the platform default on the stack's version (the worker-bounds policy reports
 * the value itself).
 */
export function gpuDemand(
  props: ServerlessEndpointProps,
  context: ApiVersionContext = NO_STACK,
): GpuDemand | undefined {
  if (!isGpuEndpoint(props)) return undefined;
  const defaults = endpointDefaults(context);
  const workersMax = countOrDefault(props.workersMax, LIMITS.workersMin, defaults.workersMax);
  const gpuCount = countOrDefault(props.gpuCount, LIMITS.gpuCountMin, defaults.gpuCount);
  return { workersMax, gpuCount, gpus: workersMax * gpuCount };
}

/**
 * The stack-wide worker budget rule: the sum of `workersMax × gpuCount` over the stack's GPU
 * endpoints must not exceed `maxTotalGpus`. Returns no message when no budget applies.
 */
export function checkStackWorkerBudget(
  endpoints: readonly NamedProps<ServerlessEndpointProps>[],
  config: StackWorkerBudgetConfig = {},
  context: StackContext = NO_STACK,
): string[] {
  const budget = settingsForStack<StackWorkerBudgetSettings>(config, context);
  const limit = budget.values.maxTotalGpus;
  if (limit === undefined) return [];
  const demands = endpoints
    .map(({ name, props }) => ({ name, demand: gpuDemand(props, context) }))
    .filter((e): e is { name: string; demand: GpuDemand } => e.demand !== undefined);
  const total = demands.reduce((sum, e) => sum + e.demand.gpus, 0);
  if (total <= limit) return [];
  const contributors = [...demands]
    .sort((a, b) => b.demand.gpus - a.demand.gpus)
    .map(({ name, demand }) => `"${name}" ${demand.workersMax} × ${demand.gpuCount} = ${demand.gpus}`);
  return [
    violation(
      stackLabel(context.stackName),
      `workersMax × gpuCount summed over ${plural(demands.length, "GPU endpoint")}`,
      `${total} GPUs (${listContributors(contributors)})`,
      `exceeds the budget of ${plural(limit, "GPU")} (${settingLabel(budget, "maxTotalGpus")})`,
    ),
  ];
}

/** The policy: the stack's GPU endpoints together stay within a GPU budget. */
export const stackWorkerBudgetPolicy = stackPolicy({
  name: STACK_WORKER_BUDGET_POLICY,
  description:
    "The sum of workersMax × gpuCount over the stack's GPU endpoints must not exceed the configured GPU budget.",
  enforcementLevel: "advisory",
  config: StackWorkerBudgetConfigSchema,
  remediationSteps: "Lower workersMax or gpuCount of the largest endpoints, or raise the budget for this stack.",
  notApplicable: (config, context) =>
    settingsForStack<StackWorkerBudgetSettings>(config, context).values.maxTotalGpus === undefined
      ? "no GPU budget (maxTotalGpus) is configured for this stack"
      : undefined,
  check: (stack, config, context) => checkStackWorkerBudget(stack.of(ServerlessEndpointResource), config, context),
});
