// The standalone plugin's stand-in for provider/pulumi-require.ts (scripts/release/bundle-plugin.ts
// puts it in place): the single executable has no packages on disk to resolve, so the modules the
// plugin loads "as @pulumi/pulumi resolves them" are bundled here, by name. bundle-plugin.ts checks
// that each resolves to the copy @pulumi/pulumi's own code bundles, so identity holds. A name not
// in the table is an error naming it, at the first use, never a quiet fallback.
const MODULES = {
  "@grpc/grpc-js": () => require("@grpc/grpc-js"),
  "google-protobuf/google/protobuf/struct_pb": () => require("google-protobuf/google/protobuf/struct_pb"),
  "./proto/provider_grpc_pb": () => require("@pulumi/pulumi/proto/provider_grpc_pb"),
  "./proto/provider_pb": () => require("@pulumi/pulumi/proto/provider_pb"),
  "./proto/engine_grpc_pb": () => require("@pulumi/pulumi/proto/engine_grpc_pb"),
  "./proto/engine_pb": () => require("@pulumi/pulumi/proto/engine_pb"),
};

/** The ids the table serves, for bundle-plugin.ts's identity check. */
exports.BUNDLED_IDS = Object.keys(MODULES);

exports.requireFromPulumi = () => (id) => {
  const load = MODULES[id];
  if (!load) throw new Error(`the standalone plugin does not bundle ${id} (scripts/release/shims/pulumi-require.js)`);
  return load();
};
