/**
 * runpod-iac: the Pulumi resources for the RunPod platform, every class `provider/` exports
 * (docs/resources.md lists them and how each input changes a deployed resource).
 * The typed client lives in `runpod-iac/sdk`, the emulator in `runpod-iac/emulator`, the
 * policy rules in `runpod-iac/policy`. This entry point loads only the resource classes, so a
 * Pulumi program pays for neither zod nor undici.
 */
export * from "./provider";
