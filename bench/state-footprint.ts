import type { BenchStack } from "./pulumi-stack";
import type { BenchSection, TargetCheck } from "./report";
import { format, shownRatio } from "./stats";

/** Target (docs/benchmarks.md): one copy of `__provider` at most 1,000 bytes. */
const PROVIDER_BYTES_TARGET = 1_000;
/** Target: our state per resource at most 1.5x the no-op dynamic resource's. */
const STATE_RATIO_TARGET = 1.5;

const PROVIDER_MISS =
  "the serialized provider is the text the engine stores for each dynamic resource in inputs and outputs; provider/runpod-resource.ts keeps it to a module reference. What would close it: find what the serialization captured beyond that reference (a closure over a larger object pulls the object in).";
const POD_STATE_MISS =
  "a pod stores its declared inputs twice (inputs and outputs, like every resource) plus desiredStatus, its prices, publicIp and portMappings, and the `__urn` input its preview notice needs. What would close it: drop echoed outputs the program does not read.";
const STATE_MISS =
  "each resource stores its inputs and its outputs (the outputs echo what the API answered) next to the engine's own fields; the no-op stores its inputs twice. What would close it: fewer echoed outputs (fields no input, diff or reader uses) in the provider's outputs functions.";

/** One pod stack's unchanged preview (bench/pod-footprint.ts). */
export interface PodPreview {
  pods: number;
  ms: number;
  requests: number;
  unchanged: boolean;
}

/** State of one deployed benchmark stack. */
export interface StateFootprint {
  /** `runpod`: volumes and endpoints; `pods`: pods only (bench/pod-footprint.ts); `baseline`: the no-op. */
  program: "runpod" | "pods" | "baseline";
  /** Resources the program declares (the stack and default provider resources are not counted). */
  resources: number;
  stateFileBytes: number;
  /** Mean `__provider` bytes (one copy) per resource, by resource type. */
  providerBytes: Record<string, number>;
}

interface StateResource {
  type: string;
  outputs?: { __provider?: unknown };
}

/** Reads the checkpoint of a freshly deployed stack: file size and each dynamic resource's `__provider`. */
export async function measureFootprint(
  stack: BenchStack,
  program: StateFootprint["program"],
  resources: number,
): Promise<StateFootprint> {
  const exported = await stack.stack.exportStack();
  const all = ((exported.deployment as { resources?: StateResource[] }).resources ?? []).filter(
    (r) => typeof r.outputs?.__provider === "string",
  );
  const byType = new Map<string, number[]>();
  for (const r of all) {
    const list = byType.get(r.type) ?? [];
    list.push(Buffer.byteLength(r.outputs!.__provider as string));
    byType.set(r.type, list);
  }
  const providerBytes: Record<string, number> = {};
  for (const [type, sizes] of byType) providerBytes[type] = sizes.reduce((a, b) => a + b, 0) / sizes.length;
  return { program, resources, stateFileBytes: stack.stateFileBytes(), providerBytes };
}

const shortType = (type: string) => type.replace(/^pulumi-nodejs:dynamic(\/runpod)?:/, "");

/** Benchmark 4: `__provider` bytes per resource and state-file bytes per resource (pods' too, with their unchanged preview). */
export function stateSection(
  footprints: readonly StateFootprint[],
  podPreviews: readonly PodPreview[] = [],
): BenchSection {
  const rows = footprints.map((f) => [
    `${f.program} (${f.resources})`,
    format.bytes(f.stateFileBytes),
    format.bytes(f.stateFileBytes / f.resources),
    Object.entries(f.providerBytes)
      .map(([type, bytes]) => `${shortType(type)} ${format.bytes(bytes)}`)
      .join(", "),
  ]);
  const marginal = (program: StateFootprint["program"]) => {
    const list = footprints.filter((f) => f.program === program).sort((a, b) => a.resources - b.resources);
    const small = list[0];
    const large = list[list.length - 1];
    if (!small || !large || large.resources === small.resources) return Number.NaN;
    return (large.stateFileBytes - small.stateFileBytes) / (large.resources - small.resources);
  };
  const oursProvider = Math.max(
    ...footprints.filter((f) => f.program !== "baseline").flatMap((f) => Object.values(f.providerBytes)),
  );
  const podRatio = marginal("pods") / marginal("baseline");
  const ratio = stateRatio(footprints, marginal("runpod"), marginal("baseline"));
  const targets: TargetCheck[] = [
    {
      benchmark: "state",
      target: `\`__provider\` <= ${format.int(PROVIDER_BYTES_TARGET)} B per resource`,
      measured: format.bytes(oursProvider),
      met: Number.isFinite(oursProvider) ? oursProvider <= PROVIDER_BYTES_TARGET : undefined,
      whyMissed: PROVIDER_MISS,
    },
    {
      benchmark: "state",
      target: `state bytes per resource <= ${STATE_RATIO_TARGET}x baseline`,
      measured: Number.isFinite(ratio.value) ? `${format.ratio(ratio.value)} (${ratio.basis})` : "n/a",
      met: Number.isFinite(ratio.value) ? shownRatio(ratio.value) <= STATE_RATIO_TARGET : undefined,
      whyMissed: STATE_MISS,
    },
  ];
  if (footprints.some((f) => f.program === "pods")) {
    targets.push({
      benchmark: "state",
      target: `pod state bytes per resource <= ${STATE_RATIO_TARGET}x baseline`,
      measured: Number.isFinite(podRatio) ? `${format.ratio(podRatio)} (marginal bytes per added pod)` : "n/a",
      met: Number.isFinite(podRatio) ? shownRatio(podRatio) <= STATE_RATIO_TARGET : undefined,
      whyMissed: POD_STATE_MISS,
    });
    const silent = podPreviews.every((p) => p.requests === 0 && p.unchanged);
    targets.push({
      benchmark: "state",
      target: "unchanged preview of a pod stack: no changes, 0 API requests",
      measured: podPreviews
        .map((p) => `${p.pods} pods: ${p.requests} requests${p.unchanged ? "" : ", changes"}`)
        .join("; "),
      met: podPreviews.length > 0 ? silent : undefined,
      whyMissed:
        "a pod's diff compares only the inputs the program sets and sends nothing; a request or a change here means a read-back output differs from what the program declares (provider/pod-state.ts READ_BACK).",
    });
  }
  return {
    title: "4. State footprint",
    method: [
      "Measured right after `pulumi up` of the benchmark stacks: the size of the checkpoint file the file backend wrote, and the length of each dynamic resource's `__provider` (the serialized provider; the state holds it in both inputs and outputs).",
      "Per resource = file bytes / declared resources (the stack and default-provider entries are included in the file, so small stacks look heavier); marginal = the slope between the smallest and largest stack.",
      "Pods: stacks of only GPU pods (bench/programs/pod-stack: image, GPU list, ports, one env var, a mount path) at 4 and 20 pods, deployed once each, then an unchanged `pulumi preview` timed and its API requests counted.",
    ],
    tables: [
      {
        title: "State after `up`",
        columns: ["stack (resources)", "state file", "file B/resource", "__provider B/resource (one copy)"],
        rows,
      },
      {
        title: "Marginal state-file bytes per added resource",
        columns: ["program", "B/resource"],
        rows: [
          ["runpod (NetworkVolume + ServerlessEndpoint)", format.bytes(marginal("runpod"))],
          ...(footprints.some((f) => f.program === "pods") ? [["pods (Pod)", format.bytes(marginal("pods"))]] : []),
          ["baseline (no-op dynamic resource)", format.bytes(marginal("baseline"))],
        ],
      },
      ...(podPreviews.length > 0
        ? [
            {
              title: "Unchanged preview of a stack of pods",
              columns: ["pods", "preview", "API requests", "changes"],
              rows: podPreviews.map((p) => [
                String(p.pods),
                `${(p.ms / 1000).toFixed(2)} s`,
                String(p.requests),
                p.unchanged ? "none" : "some",
              ]),
            },
          ]
        : []),
    ],
    targets,
    notes: [],
  };
}

/**
 * Our state bytes per resource over the baseline's: the ratio of the marginal bytes per added
 * resource when two sizes were deployed (the stack's fixed entries cancel out), else the ratio of
 * file bytes per resource at the largest size both programs were deployed at.
 */
export function stateRatio(
  footprints: readonly StateFootprint[],
  oursMarginal: number,
  baselineMarginal: number,
): { value: number; basis: string } {
  if (Number.isFinite(oursMarginal) && Number.isFinite(baselineMarginal) && baselineMarginal > 0) {
    return { value: oursMarginal / baselineMarginal, basis: "marginal bytes per added resource" };
  }
  const sizes = footprints.filter((f) => f.program === "runpod").map((f) => f.resources);
  const common = sizes.filter((n) => footprints.some((f) => f.program === "baseline" && f.resources === n));
  if (common.length === 0) return { value: Number.NaN, basis: "no common size" };
  const n = Math.max(...common);
  const bytes = (program: StateFootprint["program"]) =>
    footprints.find((f) => f.program === program && f.resources === n)!.stateFileBytes;
  return { value: bytes("runpod") / bytes("baseline"), basis: `file bytes per resource at ${n}` };
}
