import { z } from "zod";
import { stackPolicy } from "./define-policy";
import { formatValue, resourceLabel, violation } from "./format";
import { withStackOverrides } from "./policy-config";
import {
  linkedOfType,
  type NamedProps,
  NetworkVolumeResource,
  type PodProps,
  PodResource,
  type ServerlessEndpointProps,
  ServerlessEndpointResource,
} from "./resource-types";
import { NO_STACK, type StackContext, type StackSettings, settingLabel, settingsForStack } from "./stack-context";
import { isSet, isUnknownValue, rawProp } from "./unknown-values";

/** Name of the policy (the key of its settings in `--policy-pack-config`). */
export const VOLUME_LOCALITY_POLICY = "runpod-volume-locality";

/** The settings of `runpod-volume-locality`; each may differ per stack through `byStack`/`byStackTag`. */
export const VolumeLocalitySettingsSchema = z.object({
  requireExplicitDataCenters: z
    .boolean()
    .optional()
    .describe(
      "Refuse an endpoint that mounts a network volume without setting dataCenterIds (default true): the platform's default is every data center, so workers may start where the volume is not.",
    ),
  externalVolumeDataCenters: z
    .record(z.string(), z.string())
    .optional()
    .describe(
      'Data centers of network volumes declared outside this stack, by volume id (e.g. `{ "agv6w2qcg7": "EU-RO-1" }` for a shared storage stack\'s volume). Volumes of this stack need no entry.',
    ),
});

/** The settings of `runpod-volume-locality`. */
export type VolumeLocalitySettings = z.infer<typeof VolumeLocalitySettingsSchema>;

/** The configuration of `runpod-volume-locality` (its key in `--policy-pack-config`): the settings plus their per-stack overrides. */
export const VolumeLocalityConfigSchema = withStackOverrides(VolumeLocalitySettingsSchema);

/** The configuration of `runpod-volume-locality`. */
export type VolumeLocalityConfig = z.infer<typeof VolumeLocalityConfigSchema>;

/** A network volume an endpoint mounts, and where it is. */
interface MountedVolume {
  /** `NetworkVolume "models"`, or `network volume "agv6w2qcg7"` for one outside the stack. */
  readonly label: string;
  readonly dataCenterId: string;
}

/** The volumes an endpoint mounts whose data center is known, and how many others it mounts. */
interface Mounts {
  readonly volumes: MountedVolume[];
  /** Volumes whose data center cannot be told (outside the stack and not configured, or ambiguous). */
  readonly unresolved: number;
}

const unique = (items: readonly string[]) => [...new Set(items)].sort();

/**
 * Finds the volumes behind `networkVolumeId` and `networkVolumeIds`: the `NetworkVolume`s of the
 * stack each property depends on (so `volume.id` works while still unknown during preview), then
 * known ids listed in `externalVolumeDataCenters`.
 */
function mountedVolumes(
  endpoint: NamedProps<ServerlessEndpointProps | PodProps>,
  external: Readonly<Record<string, string>>,
): Mounts {
  const volumes: MountedVolume[] = [];
  let unresolved = 0;
  const mount = (volume: MountedVolume | undefined) => {
    if (!volume) unresolved++;
    else if (!volumes.some((v) => v.label === volume.label)) volumes.push(volume);
  };
  const ofStack = (volume: NamedProps<{ dataCenterId?: unknown }>): MountedVolume | undefined => {
    // Read through the proxy: a volume's data center is an input, known during preview.
    const dc = volume.props.dataCenterId;
    return typeof dc === "string"
      ? { label: resourceLabel("NetworkVolume", volume.name), dataCenterId: dc }
      : undefined;
  };
  const ofConfig = (id: unknown): MountedVolume | undefined => {
    const dc = typeof id === "string" && !isUnknownValue(id) ? external[id] : undefined;
    return dc === undefined
      ? undefined
      : { label: `network volume "${id}" (externalVolumeDataCenters)`, dataCenterId: dc };
  };

  if (isSet(endpoint.props, "networkVolumeId")) {
    const linked = linkedOfType(endpoint, "networkVolumeId", NetworkVolumeResource);
    // Several volumes behind one id (an id chosen by a computation): which one is not knowable.
    if (linked.length > 1) unresolved++;
    else mount(linked[0] ? ofStack(linked[0]) : ofConfig(rawProp(endpoint.props, "networkVolumeId")));
  }
  const ids: unknown = "networkVolumeIds" in endpoint.props ? rawProp(endpoint.props, "networkVolumeIds") : undefined;
  if (Array.isArray(ids) && ids.length > 0) {
    const linked = linkedOfType(endpoint, "networkVolumeIds", NetworkVolumeResource);
    for (const volume of linked) mount(ofStack(volume));
    const configured = unique(ids.filter((id): id is string => typeof id === "string")).flatMap(
      (id) => ofConfig(id) ?? [],
    );
    for (const volume of configured) mount(volume);
    unresolved += Math.max(0, ids.length - linked.length - configured.length);
  }
  return { volumes, unresolved };
}

/** Checks one pod: its `dataCenterIds`, when set, are exactly its network volume's data center. */
function podLocalityProblem(
  pod: NamedProps<PodProps>,
  rules: StackSettings<VolumeLocalitySettings>,
): string | undefined {
  const { volumes } = mountedVolumes(pod, rules.values.externalVolumeDataCenters ?? {});
  const volume = volumes[0];
  const dataCenterIds: unknown = rawProp(pod.props, "dataCenterIds");
  // Unset: the platform places a pod where its network volume is. Not known yet: judged at `up`.
  if (!volume || !Array.isArray(dataCenterIds) || dataCenterIds.some(isUnknownValue)) return undefined;
  const listed = unique(dataCenterIds.filter((dc): dc is string => typeof dc === "string"));
  if (listed.length === 1 && listed[0] === volume.dataCenterId) return undefined;
  const others = listed.filter((dc) => dc !== volume.dataCenterId);
  const problem = listed.includes(volume.dataCenterId)
    ? `lists ${others.join(", ")}, where the pod cannot be placed: a pod runs only where its network volume is (${volume.label} in ${volume.dataCenterId})`
    : `leaves out ${volume.dataCenterId}, where its network volume is (${volume.label}): the platform refuses to place the pod`;
  return violation(
    resourceLabel("Pod", pod.name),
    "dataCenterIds",
    formatValue(dataCenterIds),
    `${problem}; set dataCenterIds to ["${volume.dataCenterId}"] or leave it unset`,
  );
}

/** Checks one endpoint; undefined when it complies or cannot be judged. */
function localityProblem(
  endpoint: NamedProps<ServerlessEndpointProps>,
  rules: StackSettings<VolumeLocalitySettings>,
): string | undefined {
  const { volumes, unresolved } = mountedVolumes(endpoint, rules.values.externalVolumeDataCenters ?? {});
  if (volumes.length === 0) return undefined;
  const subject = resourceLabel("ServerlessEndpoint", endpoint.name);
  const volumeDcs = unique(volumes.map((v) => v.dataCenterId));
  const fix = `set dataCenterIds to ${formatValue(volumeDcs)}`;
  const noun = volumes.length + unresolved > 1 ? "network volumes" : "network volume";
  const dataCenterIds: unknown = endpoint.props.dataCenterIds;
  if (dataCenterIds === undefined) {
    // Unset means every data center; with a volume of unknown whereabouts, which of them lack a
    // volume cannot be told.
    if (rules.values.requireExplicitDataCenters === false || unresolved > 0) return undefined;
    const where = volumes.map((v) => `${v.label} in ${v.dataCenterId}`).join(", ");
    return violation(
      subject,
      "dataCenterIds",
      "unset (platform default: every data center)",
      `lets workers start in data centers without the endpoint's ${noun} (${where}); ${fix} (${settingLabel(rules, "requireExplicitDataCenters")})`,
    );
  }
  if (!Array.isArray(dataCenterIds)) return undefined; // the provider's check reports the shape
  const listed = new Set(dataCenterIds.filter((dc): dc is string => typeof dc === "string"));
  const missing = volumes.filter((v) => !listed.has(v.dataCenterId));
  const extras = unresolved > 0 ? [] : unique([...listed].filter((dc) => !volumeDcs.includes(dc)));
  if (missing.length === 0 && extras.length === 0) return undefined;
  const parts: string[] = [];
  if (missing.length > 0) {
    const labels = missing.map((v) => v.label).join(", ");
    parts.push(`leaves out ${unique(missing.map((v) => v.dataCenterId)).join(", ")}, so no worker mounts ${labels}`);
  }
  if (extras.length > 0) parts.push(`lists ${extras.join(", ")}, where workers start without the endpoint's ${noun}`);
  const advice = unresolved > 0 ? `add ${unique(missing.map((v) => v.dataCenterId)).join(", ")}` : fix;
  return violation(subject, "dataCenterIds", formatValue(dataCenterIds), `${parts.join(", and ")}; ${advice}`);
}

/**
 * The volume locality rule: an endpoint that mounts network volumes may only run workers in data
 * centers that hold one of them, and must list the data center of each. Unset `dataCenterIds`
 * (the platform's default, every data center) is refused unless `requireExplicitDataCenters` is
 * false. Volumes come from the endpoint's property dependencies (volumes of the stack) or
 * `externalVolumeDataCenters`; with a volume of unknown whereabouts, only "leaves out" is judged.
 */
export function checkVolumeLocality(
  endpoints: readonly NamedProps<ServerlessEndpointProps>[],
  config: VolumeLocalityConfig = {},
  context: StackContext = NO_STACK,
  pods: readonly NamedProps<PodProps>[] = [],
): string[] {
  const rules = settingsForStack<VolumeLocalitySettings>(config, context);
  return [
    ...endpoints.flatMap((endpoint) => localityProblem(endpoint, rules) ?? []),
    ...pods.flatMap((pod) => podLocalityProblem(pod, rules) ?? []),
  ];
}

/** The policy: endpoints run where their network volumes are. */
export const volumeLocalityPolicy = stackPolicy({
  name: VOLUME_LOCALITY_POLICY,
  description:
    "An endpoint that mounts network volumes must restrict dataCenterIds to the data centers of those volumes, so no worker starts where its volume is not; a pod that mounts one is placed only in that volume's data center.",
  enforcementLevel: "mandatory",
  config: VolumeLocalityConfigSchema,
  remediationSteps:
    "Set the endpoint's dataCenterIds to the data centers of its network volumes, e.g. dataCenterIds: [volume.dataCenterId].",
  check: (stack, config, context) =>
    checkVolumeLocality(stack.of(ServerlessEndpointResource), config, context, stack.of(PodResource)),
});
