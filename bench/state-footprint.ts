import type { BenchStack } from "./pulumi-stack";
import type { BenchSection, TargetCheck } from "./report";
import { format } from "./stats";

/** State of one deployed benchmark stack. */
export interface StateFootprint {
  program: "runpod" | "baseline";
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

/** Benchmark 4: `__provider` bytes per resource and state-file bytes per resource. */
export function stateSection(footprints: readonly StateFootprint[]): BenchSection {
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
    ...footprints.filter((f) => f.program === "runpod").flatMap((f) => Object.values(f.providerBytes)),
  );
  const targets: TargetCheck[] = [
    {
      benchmark: "state",
      // DESIGN.md ("keep the serialized provider tiny") and the provider's own serialization test: under 2 KB.
      target: "`__provider` tiny (< 2 KB per resource)",
      measured: format.bytes(oursProvider),
      met: Number.isFinite(oursProvider) ? oursProvider < 2048 : undefined,
    },
  ];
  return {
    title: "4. State footprint",
    method: [
      "Measured right after `pulumi up` of the benchmark stacks: the size of the checkpoint file the file backend wrote, and the length of each dynamic resource's `__provider` (the serialized provider; the state holds it in both inputs and outputs).",
      "Per resource = file bytes / declared resources (the stack and default-provider entries are included in the file, so small stacks look heavier); marginal = the slope between the smallest and largest stack.",
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
          ["baseline (no-op dynamic resource)", format.bytes(marginal("baseline"))],
        ],
      },
    ],
    targets,
    notes: [],
  };
}
