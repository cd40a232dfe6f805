// Type-level tests of runpod-iac/plugin, compiled by `npm run lint:types` (in `npm test`)
// (test/tsconfig.type-tests.json): the plugin-backed classes take the dynamic classes' Args and
// expose their outputs, so a stack moves by its import line; the enum objects the code
// `pulumi import` prints names (`ComputeType.GPU`) are values of the Args' types. Each
// `@ts-expect-error` line must be an error.
import type * as pulumi from "@pulumi/pulumi";
import type * as dynamic from "../../../provider";
import * as plugin from "../../../plugin";

type ArgsOf<C> = C extends new (name: string, args: infer A, opts?: pulumi.CustomResourceOptions) => unknown
  ? A
  : never;
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
type Expect<T extends true> = T;

export type SameArgs = [
  Expect<Same<ArgsOf<typeof plugin.NetworkVolume>, ArgsOf<typeof dynamic.NetworkVolume>>>,
  Expect<Same<ArgsOf<typeof plugin.ServerlessEndpoint>, ArgsOf<typeof dynamic.ServerlessEndpoint>>>,
  Expect<Same<ArgsOf<typeof plugin.Template>, ArgsOf<typeof dynamic.Template>>>,
  Expect<Same<ArgsOf<typeof plugin.ContainerRegistryAuth>, ArgsOf<typeof dynamic.ContainerRegistryAuth>>>,
  Expect<Same<ArgsOf<typeof plugin.Pod>, ArgsOf<typeof dynamic.Pod>>>,
];

type Outputs<R> = Omit<R, keyof pulumi.CustomResource>;
export type SameOutputs = [
  Expect<Same<Outputs<plugin.NetworkVolume>, Outputs<dynamic.NetworkVolume>>>,
  Expect<Same<Outputs<plugin.ServerlessEndpoint>, Outputs<dynamic.ServerlessEndpoint>>>,
  Expect<Same<Outputs<plugin.Template>, Outputs<dynamic.Template>>>,
  Expect<Same<Outputs<plugin.ContainerRegistryAuth>, Outputs<dynamic.ContainerRegistryAuth>>>,
  Expect<Same<Outputs<plugin.Pod>, Outputs<dynamic.Pod>>>,
];

export function declare(): void {
  const volume = new plugin.NetworkVolume("models", { size: 20, dataCenterId: "EU-RO-1" });
  const size: pulumi.Output<number> = volume.size;
  // @ts-expect-error a volume needs its size, as the dynamic one does
  new plugin.NetworkVolume("models", { dataCenterId: "EU-RO-1" });
  // The enum objects hold values of the Args' own types.
  new plugin.ServerlessEndpoint("api", {
    templateId: "echo",
    computeType: plugin.ComputeType.CPU,
    type: plugin.EndpointType.QUEUE,
    scalerType: plugin.ScalerType.QUEUE_DELAY,
    flashboot: plugin.FlashBootMode.PRIORITY_FLASHBOOT,
  });
  new plugin.Pod("pod", { imageName: "ubuntu:24.04", gpuTypePriority: plugin.PodGpuTypePriority.Custom });
  // @ts-expect-error an enum object holds only its type's values
  new plugin.Pod("pod", { imageName: "ubuntu:24.04", cloudType: plugin.PodGpuTypePriority.Custom });
  void size;
}
