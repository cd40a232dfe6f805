import type { ApiVersion } from "./config";

/*
 * The one table of resource kinds. Every list of the kinds (the type unions, the type tokens, the
 * provider objects' keys in `runpod-iac/impl`, the plugin's classes and entries, the policy pack's
 * stubs and scenario maps) is derived from it, so registering a kind is one row here, the kind's
 * own files and the export lists (docs/design.md, "Adding a resource").
 *
 * A leaf module: it imports nothing at run time, so `provider/`, `plugin/`, `policy/` and
 * `emulator/` may all read it without loading each other (the policy pack never loads
 * `provider/`).
 */

/** The faces a kind is served through: the dynamic resources (`runpod-iac`) and the provider plugin (`runpod-iac/plugin`, Python, Go, YAML). */
export type ResourceFace = "dynamic" | "plugin";

/** What the table says of one kind. */
export interface ResourceKindFacts {
  /**
   * The key of its provider object in `runpod-iac/impl`. Part of the state format: every state
   * holds `require("runpod-iac/impl").<impl>` as the resource's `__provider`, so a key never changes.
   */
  readonly impl: string;
  /** The faces that serve it. */
  readonly faces: readonly ResourceFace[];
  /** The management API versions that carry it (a kind only one version has fails at preview on the other). */
  readonly apiVersions: readonly ApiVersion[];
  /**
   * The emulator's collection of its records (an account's property and the state file's key);
   * none for a kind whose state the emulator keeps elsewhere (files on a volume are the volume's).
   */
  readonly collection?: string;
  /**
   * The client's name for the kind's version-neutral input, for a kind both versions carry: its
   * key in `VERSION_ONLY_FIELDS` and in the v2 names of its fields (sdk/schemas/resource-fields.ts),
   * both written from the kind's `Args` by `npm run gen:fields`.
   */
  readonly clientKind?: string;
}

const BOTH_FACES = ["dynamic", "plugin"] as const;
const BOTH_VERSIONS = ["v1", "v2"] as const;

/** Every resource kind of the package, by its name (the class name, and the `<Type>` of its type tokens). */
export const RESOURCE_KINDS = {
  NetworkVolume: {
    impl: "volume",
    faces: BOTH_FACES,
    apiVersions: BOTH_VERSIONS,
    collection: "networkVolumes",
    clientKind: "networkVolume",
  },
  ServerlessEndpoint: {
    impl: "endpoint",
    faces: BOTH_FACES,
    apiVersions: BOTH_VERSIONS,
    collection: "endpoints",
    clientKind: "endpoint",
  },
  Template: {
    impl: "template",
    faces: BOTH_FACES,
    apiVersions: BOTH_VERSIONS,
    collection: "templates",
    clientKind: "template",
  },
  ContainerRegistryAuth: {
    impl: "registryAuth",
    faces: BOTH_FACES,
    apiVersions: BOTH_VERSIONS,
    collection: "containerRegistryAuths",
  },
  Pod: { impl: "pod", faces: BOTH_FACES, apiVersions: BOTH_VERSIONS, collection: "pods", clientKind: "pod" },
  Cluster: { impl: "cluster", faces: BOTH_FACES, apiVersions: ["v2"], collection: "clusters" },
  Secret: { impl: "secret", faces: BOTH_FACES, apiVersions: ["v2"], collection: "secrets" },
  // Files on a volume: the volume's S3-compatible API writes them; the volume's record (either version) names its data center.
  VolumeFiles: { impl: "volumeFiles", faces: BOTH_FACES, apiVersions: BOTH_VERSIONS },
} as const satisfies Readonly<Record<string, ResourceKindFacts>>;

/** The name of a resource kind: `NetworkVolume`, `ServerlessEndpoint`, ... */
export type ResourceKind = keyof typeof RESOURCE_KINDS;

/** Every kind's name, in the table's order. */
export const RESOURCE_KIND_NAMES = Object.keys(RESOURCE_KINDS) as ResourceKind[];

/** The kinds a face serves. */
export type KindOfFace<F extends ResourceFace> = {
  [K in ResourceKind]: F extends (typeof RESOURCE_KINDS)[K]["faces"][number] ? K : never;
}[ResourceKind];

/** The key of each kind's provider object in `runpod-iac/impl`. */
export type ImplKey<K extends ResourceKind = ResourceKind> = (typeof RESOURCE_KINDS)[K]["impl"];

/** The engine-visible type token of a kind's dynamic resource (docs/design.md, "Contracts users rely on"). */
export type DynamicTypeToken<K extends ResourceKind = ResourceKind> = `pulumi-nodejs:dynamic/runpod:${K}`;

/** The type token of a kind served by the provider plugin `runpod-iac`. */
export type PluginTypeToken<K extends ResourceKind = ResourceKind> = `runpod-iac:index:${K}`;

/** `pulumi-nodejs:dynamic/runpod:<kind>`: what `dynamic.Resource` registers for module `runpod`. */
export function dynamicTypeToken<K extends ResourceKind>(kind: K): DynamicTypeToken<K> {
  return `pulumi-nodejs:dynamic/runpod:${kind}`;
}

/** `runpod-iac:index:<kind>`: the plugin's package, module `index`. */
export function pluginTypeTokenOf<K extends ResourceKind>(kind: K): PluginTypeToken<K> {
  return `runpod-iac:index:${kind}`;
}

/** Each kind's dynamic type token. */
export const DYNAMIC_TYPE_TOKENS = Object.fromEntries(
  RESOURCE_KIND_NAMES.map((kind) => [kind, dynamicTypeToken(kind)]),
) as { readonly [K in ResourceKind]: DynamicTypeToken<K> };

/** Each kind's plugin type token. */
export const PLUGIN_TYPE_TOKENS = Object.fromEntries(
  RESOURCE_KIND_NAMES.map((kind) => [kind, pluginTypeTokenOf(kind)]),
) as { readonly [K in ResourceKind]: PluginTypeToken<K> };

/** The kinds `face` serves, in the table's order. */
export function kindsOfFace<F extends ResourceFace>(face: F): KindOfFace<F>[] {
  return RESOURCE_KIND_NAMES.filter((kind) =>
    (RESOURCE_KINDS[kind].faces as readonly ResourceFace[]).includes(face),
  ) as KindOfFace<F>[];
}

/** Whether `name` is one of the kinds. */
export function isResourceKind(name: string | undefined): name is ResourceKind {
  return name !== undefined && Object.prototype.hasOwnProperty.call(RESOURCE_KINDS, name);
}

/** The one management API version that carries `kind`, or undefined when both do. */
export function onlyApiVersionOf(kind: ResourceKind): ApiVersion | undefined {
  const versions: readonly ApiVersion[] = RESOURCE_KINDS[kind].apiVersions;
  return versions.length === 1 ? versions[0] : undefined;
}
