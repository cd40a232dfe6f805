/**
 * pulumi-runpod: Pulumi resources for RunPod network volumes and serverless endpoints.
 * The typed client lives in `pulumi-runpod/sdk`, the emulator in `pulumi-runpod/emulator`.
 */
export * from "./provider";
export { RunpodClient } from "./sdk/client";
export type { RunpodClientOptions } from "./sdk/config";
