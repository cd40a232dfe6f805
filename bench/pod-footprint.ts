import type { PulumiCommand } from "@pulumi/pulumi/automation";
import { startEmulator } from "../emulator";
import { EmulatorApi } from "./emulator-process";
import { type BenchStack, createBenchStack } from "./pulumi-stack";
import { measureFootprint, type PodPreview, type StateFootprint } from "./state-footprint";
import { timed } from "./stats";

/*
 * Pods in the state and preview benchmarks (the state-per-resource target of the
 * existing resources holds for pods too): stacks of only pods (bench/programs/pod-stack) deployed
 * at two sizes against an in-process emulator, their checkpoint measured like the other
 * resources', and an unchanged preview timed and its API requests counted (it must send none).
 */

/** Pods per stack: two sizes, so the marginal bytes per added pod cancel the stack's fixed entries. */
export const POD_SIZES = [4, 20] as const;

const KEY = "bench-pod-key";

/** What the pod benchmark hands to the state section. */
export interface PodBenchResult {
  footprints: StateFootprint[];
  previews: PodPreview[];
}

/** Deploys each size, measures its state and an unchanged preview, destroys it. */
export async function runPodFootprint(command: PulumiCommand, log: (line: string) => void): Promise<PodBenchResult> {
  // Enough GPUs for every pod, and no v2 request quota: the benchmark measures state, not pacing.
  const emulator = await startEmulator({ port: 0, apiKeys: [KEY], managementQuota: false });
  const api = new EmulatorApi(emulator.url, KEY);
  const footprints: StateFootprint[] = [];
  const previews: PodPreview[] = [];
  const stacks: BenchStack[] = [];
  try {
    for (const pods of POD_SIZES) {
      const config = {
        "bench:count": { value: String(pods) },
        "runpod:apiUrl": { value: emulator.apiUrl },
        "runpod:queueUrl": { value: emulator.queueUrl },
      };
      const bench = await createBenchStack(command, "pod-stack", `pods-${pods}`, config, { RUNPOD_API_KEY: KEY });
      stacks.push(bench);
      const up = await bench.stack.up({ parallel: pods });
      if (up.summary.result !== "succeeded") throw new Error(`pod stack up: ${up.summary.result}`);
      footprints.push(await measureFootprint(bench, "pods", pods));
      const before = await api.requestCount();
      let unchanged = false;
      const ms = await timed(async () => {
        const preview = await bench.stack.preview({ parallel: pods });
        unchanged = Object.keys(preview.changeSummary).every((op) => op === "same");
      });
      const requests = (await api.requestCount()) - before;
      previews.push({ pods, ms, requests, unchanged });
      log(
        `pods ${pods}: state ${bench.stateFileBytes()} B, unchanged preview ${(ms / 1000).toFixed(2)} s, ${requests} API calls`,
      );
      await bench.stack.destroy({ parallel: pods });
    }
    return { footprints, previews };
  } finally {
    await emulator.close();
    for (const stack of stacks) stack.dispose();
  }
}
