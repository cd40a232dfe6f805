/**
 * runpod-iac: Pulumi resources for RunPod network volumes and serverless endpoints.
 * The typed client lives in `runpod-iac/sdk`, the emulator in `runpod-iac/emulator`, the
 * policy rules in `runpod-iac/policy`. This entry point loads only the resource classes, so a
 * Pulumi program pays for neither zod nor undici.
 */
export * from "./provider";
