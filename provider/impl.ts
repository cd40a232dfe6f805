/**
 * The provider implementation, loaded by package name (`pulumi-runpod/impl`) inside the
 * engine's dynamic-provider process at call time. Keeping it out of the serialized provider means
 * `destroy` and `refresh` always run the installed version, and the state holds no code.
 */
import type { ConfigureRequest } from "@pulumi/pulumi/dynamic";
import { configureFromStack } from "./provider-config";

export { networkVolumeProvider as volume } from "./network-volume-provider";
export { serverlessEndpointProvider as endpoint } from "./serverless-endpoint-provider";

/** Receives the stack config (`runpod:apiKey`, `runpod:apiUrl`, `runpod:queueUrl`) once per process. */
export async function configure(req: ConfigureRequest): Promise<void> {
  configureFromStack(req.config);
}
