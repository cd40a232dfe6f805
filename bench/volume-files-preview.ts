import { DEFAULT_S3_ACCESS_KEY_ID, DEFAULT_S3_SECRET_ACCESS_KEY } from "../emulator/s3/s3-options";
import { EmulatorApi } from "./emulator-process";
import { benchPulumiCommand, type BenchStack, createBenchStack } from "./pulumi-stack";
import { interleaved, timed } from "./stats";

/*
 * Benchmark 10's preview rows: an unchanged `pulumi preview` of a VolumeFiles of many files, beside
 * the same preview of one no-op dynamic resource, and of one no-op resource given the same folder
 * as a FileArchive input (so the engine hashes the folder, as it does for VolumeFiles: the part of
 * the time that is the engine's, not the provider's). bench/programs/volume-files-stack.
 */

/** The stacks of the preview rows, one resource each. */
export const PREVIEW_KINDS = ["noop", "noop-archive", "volume-files"] as const;
export type PreviewKind = (typeof PREVIEW_KINDS)[number];

/** What the preview rows measured. */
export interface PreviewRun {
  /** Preview wall times per kind, in rounds. */
  ms: Record<PreviewKind, number[]>;
  /** Requests the emulator answered (management and S3) during the VolumeFiles previews. */
  requests: number;
  /** The VolumeFiles stack's first `up`: every file uploaded. */
  createMs: number;
}

/**
 * Deploys each stack once (the VolumeFiles one uploads every file of `folder` to `volumeId`),
 * then previews each `rounds` times in a balanced order, counting the emulator's requests during
 * the VolumeFiles previews.
 */
export async function previewBench(
  emulatorUrl: string,
  apiKey: string,
  volumeId: string,
  folder: string,
  rounds: number,
  log: (line: string) => void,
): Promise<PreviewRun> {
  const { command } = await benchPulumiCommand();
  const env = {
    RUNPOD_API_KEY: apiKey,
    RUNPOD_API_URL: `${emulatorUrl}/v2`,
    RUNPOD_S3_ACCESS_KEY_ID: DEFAULT_S3_ACCESS_KEY_ID,
    RUNPOD_S3_SECRET_ACCESS_KEY: DEFAULT_S3_SECRET_ACCESS_KEY,
    RUNPOD_S3_URL: `${emulatorUrl}/s3api-{dc}`,
  };
  const stacks = {} as Record<PreviewKind, BenchStack>;
  const api = new EmulatorApi(emulatorUrl, apiKey);
  const requests = async () =>
    (await api.call<{ requests: { total: number } }>("GET", "/_emulator/stats")).requests.total;
  try {
    for (const kind of PREVIEW_KINDS) {
      const config = {
        "bench:kind": { value: kind },
        "bench:folder": { value: folder },
        "bench:volumeId": { value: volumeId },
      };
      stacks[kind] = await createBenchStack(command, "volume-files-stack", `vf-${kind}`, config, env);
    }
    let createMs = 0;
    for (const kind of PREVIEW_KINDS) {
      log(`10. volume files: pulumi up of the ${kind} stack`);
      const ms = await timed(() => stacks[kind].stack.up());
      if (kind === "volume-files") createMs = ms;
    }
    const ms: Record<PreviewKind, number[]> = { noop: [], "noop-archive": [], "volume-files": [] };
    let counted = 0;
    for (let round = 0; round < rounds; round++) {
      for (const kind of interleaved(PREVIEW_KINDS, round)) {
        log(`10. volume files: preview round ${round + 1}/${rounds}, ${kind}`);
        const before = kind === "volume-files" ? await requests() : 0;
        let changes: Record<string, number> | undefined;
        ms[kind].push(await timed(async () => (changes = (await stacks[kind].stack.preview()).changeSummary)));
        if (Object.keys(changes ?? {}).some((k) => k !== "same")) {
          throw new Error(`the ${kind} stack's preview is not unchanged: ${JSON.stringify(changes)}`);
        }
        if (kind === "volume-files") counted += (await requests()) - before;
      }
    }
    return { ms, requests: counted, createMs };
  } finally {
    for (const s of Object.values(stacks)) s.dispose();
  }
}
