import type { PulumiCommand } from "@pulumi/pulumi/automation";
import { createBaselineStack, createRunpodStack, lifecycle, startBenchEmulator } from "./pulumi-bench";
import type { BenchStack } from "./pulumi-stack";
import { SCALE_OPERATIONS, type ScalePoint, type ScaleProgram, type ScaleResult } from "./scale-report";
import { interleaved } from "./stats";

/** Sizes of the scale benchmark. */
export interface ScaleBenchSettings {
  /** Resources per stack, ascending (even: half volumes, half endpoints). */
  sizes: number[];
  /** Rounds per size (each round runs every program once, interleaved). */
  rounds: (size: number) => number;
  /** Also run ours with `PULUMI_SKIP_CHECKPOINTS=true`, to show what the engine's checkpoints cost. */
  skipCheckpoints: boolean;
}

/**
 * 10, 100 and 500 resources; three rounds at 10, two at 100 (benchmark 3 measures 100 with more),
 * one at 500, where one lifecycle of three stacks takes minutes.
 */
export const SCALE_FULL: ScaleBenchSettings = {
  sizes: [10, 100, 500],
  rounds: (n) => (n <= 10 ? 3 : n <= 100 ? 2 : 1),
  skipCheckpoints: true,
};
/** `--quick`: 10 and 20 resources, one round, no third program: a smoke run of a minute or two. */
export const SCALE_QUICK: ScaleBenchSettings = { sizes: [10, 20], rounds: () => 1, skipCheckpoints: false };

const seconds = (ms: number) => `${(ms / 1000).toFixed(2)} s`;

/**
 * Benchmark 5: up, an unchanged preview and destroy at growing stack sizes, ours against the
 * no-op baseline (and ours without per-step checkpoints), interleaved per round. Reuses benchmark
 * 3's emulator, stacks and timed lifecycle (without refresh).
 */
export async function runScaleBench(
  s: ScaleBenchSettings,
  log: (line: string) => void,
  command: PulumiCommand,
): Promise<ScaleResult> {
  // No quota: the curve compares ours with the no-op baseline, and under v2's quota its 100 and
  // 500 points would measure the quota's pacing (benchmark 3 has rows under the quota).
  const { emulator, api } = await startBenchEmulator({ quota: false });
  const points: ScalePoint[] = [];
  const stacks: BenchStack[] = [];
  let previewRequests = 0;
  try {
    for (const size of s.sizes) {
      const programs: { program: ScaleProgram; stack: BenchStack }[] = [
        { program: "ours", stack: await createRunpodStack(command, emulator, size, `scale-runpod-${size}`) },
        { program: "baseline", stack: await createBaselineStack(command, size, `scale-noop-${size}`) },
      ];
      if (s.skipCheckpoints) {
        const env = { PULUMI_SKIP_CHECKPOINTS: "true" };
        const stack = await createRunpodStack(command, emulator, size, `scale-nockpt-${size}`, env);
        programs.push({ program: "ours, no checkpoints", stack });
      }
      stacks.push(...programs.map((p) => p.stack));
      const row = programs.map(({ program, stack }) => {
        const times = Object.fromEntries(SCALE_OPERATIONS.map((op) => [op, [] as number[]]));
        const p: ScalePoint = { program, size, times: times as ScalePoint["times"], stateFileBytes: Number.NaN };
        points.push(p);
        return { p, stack };
      });
      for (let round = 0; round < s.rounds(size); round++) {
        for (const { p, stack } of interleaved(row, round)) {
          const t = await lifecycle(
            stack,
            size,
            api,
            async () => {
              if (Number.isNaN(p.stateFileBytes)) p.stateFileBytes = stack.stateFileBytes();
            },
            false,
          );
          for (const op of SCALE_OPERATIONS) p.times[op].push(t[op]);
          if (p.program !== "baseline") previewRequests += t.previewRequests;
          log(
            `scale ${size} resources, round ${round + 1}/${s.rounds(size)}, ${p.program}: up ${seconds(t.up)}, preview ${seconds(t.preview)}, destroy ${seconds(t.destroy)}`,
          );
        }
      }
      // Free the work dirs as soon as a size is done: the 500-resource state files are large.
      for (const { stack } of row) stack.dispose();
    }
    return { sizes: s.sizes, rounds: s.rounds, points, previewRequests };
  } finally {
    await emulator.close();
    for (const stack of stacks) stack.dispose();
  }
}
