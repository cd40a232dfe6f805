/**
 * pulumi-runpod: Pulumi resources for RunPod network volumes and serverless endpoints.
 * The typed client lives in `pulumi-runpod/sdk`, the emulator in `pulumi-runpod/emulator`, the
 * policy rules in `pulumi-runpod/policy`. This entry point loads only the resource classes, so a
 * Pulumi program pays for neither zod nor undici.
 */
export * from "./provider";
