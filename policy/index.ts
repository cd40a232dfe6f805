import type { Policies } from "@pulumi/policy/policy";
import { contradictoryInputsPolicy } from "./contradictory-inputs";
import { gpuPriorityListPolicy } from "./gpu-priority-list";
import { imagePinningPolicy } from "./image-pinning";
import { serverlessTemplatePolicy } from "./serverless-template";
import { stackCostCeilingPolicy } from "./stack-cost-ceiling";
import { knownPlatformValuesPolicy } from "./known-platform-values";
import { podLimitsPolicy } from "./pod-limits";
import { plaintextCredentialsPolicy } from "./plaintext-credentials";
import { liveCatalogPolicy } from "./live-catalog";
import { stackVolumeSizeCapPolicy } from "./stack-volume-size-cap";
import { stackWorkerBudgetPolicy } from "./stack-worker-budget";
import { volumeLocalityPolicy } from "./volume-locality";
import { volumeSizeCapPolicy } from "./volume-size-cap";
import { workerBoundsPolicy } from "./worker-bounds";

/**
 * The policy pack as a library (`runpod-iac/policy`): the pack's policies (`runpodPolicies`, to
 * run as they are or beside a pack of one's own) and the configuration of each, as the zod schema
 * `--policy-pack-config` is checked against. Importing this module has no side effect; the pack
 * that Pulumi runs (`--policy-pack node_modules/runpod-iac/policy`) is `pack.ts`, which constructs
 * the `PolicyPack` (and with it a gRPC server). The rules behind the policies, their resource
 * shapes and the stack and cost helpers are the pack's own modules, which package.json's `exports`
 * does not reach: the tests import them there.
 */

export {
  ContradictoryInputsConfigSchema,
  type ContradictoryInputsConfig,
  type ContradictoryInputsSettings,
} from "./contradictory-inputs";
export {
  GpuPriorityListConfigSchema,
  type GpuPriorityListConfig,
  type GpuPriorityListSettings,
} from "./gpu-priority-settings";
export { ImagePinningConfigSchema, type ImagePinningConfig, type ImagePinningSettings } from "./image-pinning";
export { KnownPlatformValuesConfigSchema, type KnownPlatformValuesConfig } from "./known-platform-values";
export {
  PlaintextCredentialsConfigSchema,
  type PlaintextCredentialsConfig,
  type PlaintextCredentialsSettings,
} from "./plaintext-credentials";
export { PodLimitsConfigSchema, type PodLimitsConfig, type PodLimitsSettings } from "./pod-limits";
export { LiveCatalogConfigSchema, type LiveCatalogConfig } from "./live-catalog";
export {
  ServerlessTemplateConfigSchema,
  type ServerlessTemplateConfig,
  type ServerlessTemplateSettings,
} from "./serverless-template";
export {
  StackCostCeilingConfigSchema,
  type StackCostCeilingConfig,
  type StackCostCeilingSettings,
} from "./stack-cost-ceiling";
export {
  StackVolumeSizeCapConfigSchema,
  type StackVolumeSizeCapConfig,
  type StackVolumeSizeCapSettings,
} from "./stack-volume-size-cap";
export {
  StackWorkerBudgetConfigSchema,
  type StackWorkerBudgetConfig,
  type StackWorkerBudgetSettings,
} from "./stack-worker-budget";
export { VolumeLocalityConfigSchema, type VolumeLocalityConfig, type VolumeLocalitySettings } from "./volume-locality";
export { VolumeSizeCapConfigSchema, type VolumeSizeCapConfig, type VolumeSizeCapSettings } from "./volume-size-cap";
export { WorkerBoundsConfigSchema, type WorkerBoundsConfig, type WorkerBoundsSettings } from "./worker-bounds";

/** Name of the policy pack, as the Pulumi CLI shows it (`runpod@v<version>`). */
export const POLICY_PACK_NAME = "runpod";

/** Every policy of the pack, in the order the CLI lists them. */
export const runpodPolicies = [
  gpuPriorityListPolicy,
  workerBoundsPolicy,
  stackWorkerBudgetPolicy,
  volumeSizeCapPolicy,
  stackVolumeSizeCapPolicy,
  imagePinningPolicy,
  volumeLocalityPolicy,
  contradictoryInputsPolicy,
  serverlessTemplatePolicy,
  stackCostCeilingPolicy,
  knownPlatformValuesPolicy,
  podLimitsPolicy,
  liveCatalogPolicy,
  plaintextCredentialsPolicy,
] satisfies Policies;

/** The name of one of the pack's policies (a key of `--policy-pack-config`). */
export type RunpodPolicyName = (typeof runpodPolicies)[number]["name"];
