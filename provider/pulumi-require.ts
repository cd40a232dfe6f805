import { createRequire } from "node:module";

/**
 * A `require` that loads modules as `@pulumi/pulumi` itself resolves them: its gRPC library and its
 * generated protocol stubs (`./proto/provider_grpc_pb`, ...). The copies @pulumi/pulumi runs are
 * the ones that matter (a service object is compared by identity, a client must speak through the
 * same library), and @grpc/grpc-js is not a dependency of this package. The standalone plugin's
 * bundle replaces this module with a table of the same modules, bundled
 * (scripts/release/shims/pulumi-require.js): it has no packages on disk to resolve.
 */
export function requireFromPulumi(): (id: string) => unknown {
  return createRequire(require.resolve("@pulumi/pulumi"));
}
