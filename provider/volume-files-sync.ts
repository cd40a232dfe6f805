import type { FieldProblem } from "../sdk/schemas/validation";
import { RequestValidationError, RunpodError } from "../sdk/errors";
import { VOLUME_FILE_LIMITS } from "../sdk/schemas/volume-files";
import type { VolumeRef } from "../sdk/s3/s3-connections";
import { S3Error } from "../sdk/s3/s3-errors";
import { findWritten } from "../sdk/s3/sync-drift";
import { normalizePrefix, planSync, replan, type SyncPlan } from "../sdk/s3/sync-plan";
import { removeEmptyFolders, runSync, type SyncProgress, type SyncResult } from "../sdk/s3/sync-run";
import type { VolumeManifest } from "../sdk/s3/volume-manifest";
import type { VolumeSource } from "../sdk/s3/volume-source";
import type { VolumeS3Client } from "../sdk/s3/volume-s3-client";
import { noticeOnResource } from "./engine-notice";
import { isNotFound } from "./errors";
import { providerClient } from "./provider-config";
import { bytesText, progressText } from "./volume-files-state";
import { filesInput } from "./volume-files-source";

/*
 * The steps of a `VolumeFiles` that talk to something: the volume's record (management API, either
 * version), the plans (kept per process, so `diff` reuses what `check` hashed), and a sync with its
 * progress shown by the engine.
 */

type Props = Record<string, unknown>;

/** The volume `networkVolumeId` names is not in the account (deleted, or never there). */
export class VolumeNotFoundError extends RunpodError {
  override name = "VolumeNotFoundError";
  constructor(volumeId: string) {
    super("not_found", `networkVolumeId = ${JSON.stringify(volumeId)}: no network volume with this id in this account`);
  }
}

/** The volume's data center and size, from the management API (either version). */
export async function volumeOf(volumeId: string): Promise<{ dataCenterId: string; size: number }> {
  const client = await providerClient();
  try {
    return await client.networkVolumes.get(volumeId);
  } catch (err) {
    throw isNotFound(err) ? new VolumeNotFoundError(volumeId) : err;
  }
}

/** Whether an error says the volume is gone: no record, or its S3 bucket missing (also as a failed sync's cause). */
export function isVolumeGone(err: unknown): boolean {
  const noBucket = (e: unknown) => e instanceof S3Error && e.s3Code === "NoSuchBucket";
  return err instanceof VolumeNotFoundError || noBucket(err) || (err instanceof Error && noBucket(err.cause));
}

/** The prefix as the library normalizes it (`models/`, or empty). */
export function prefixOf(value: unknown): string {
  return normalizePrefix(typeof value === "string" ? value : undefined).prefix;
}

/**
 * Plans by the engine's hash of the source and the prefix: made by `check` (which hashes each file
 * once per process, through the library's hash cache), reused by `diff` (which gets the source's
 * hash but not its paths), and sources by the engine's hash, for a `diff` that needs a plan
 * `check` did not make (the source was unchanged, but the state lacks its hash).
 */
const plans = new Map<string, SyncPlan>();
const sources = new Map<string, VolumeSource>();
const planKey = (engineHash: string, prefix: string) => `${engineHash}\u0000${prefix}`;

/** Records a source by the engine's hash, so `diff` can plan it later in this process. */
export function rememberSource(engineHash: string | undefined, source: VolumeSource | undefined): void {
  if (engineHash !== undefined && source !== undefined) sources.set(engineHash, source);
}

/**
 * The plan of `files` under `prefix` (from the cache, or made now and cached), or the problems
 * that refuse it: what `check` calls. Without the engine's hash it is planned every time.
 */
export async function planFiles(
  files: unknown,
  prefix: unknown,
  volumeSizeGb: number | undefined,
): Promise<{ plan?: SyncPlan; problems: FieldProblem[] }> {
  const input = filesInput(files);
  if (input.problems.length > 0) return { problems: input.problems };
  rememberSource(input.engineHash, input.source);
  const key = input.engineHash !== undefined ? planKey(input.engineHash, prefixOf(prefix)) : undefined;
  const cached = key !== undefined ? plans.get(key) : undefined;
  if (cached && (volumeSizeGb === undefined || cached.totalBytes <= volumeSizeGb * VOLUME_FILE_LIMITS.bytesPerGb))
    return { plan: cached, problems: [] };
  const source = input.source ?? (input.engineHash !== undefined ? sources.get(input.engineHash) : undefined);
  if (source === undefined) return { problems: [] };
  try {
    const plan = await planSync({ source, prefix: typeof prefix === "string" ? prefix : undefined, volumeSizeGb });
    if (key !== undefined) plans.set(key, plan);
    return { plan, problems: [] };
  } catch (err) {
    if (err instanceof RequestValidationError) return { problems: [...err.problems] };
    throw err;
  }
}

/** The plan of a `create` or `update`: from the inputs, which hold the paths; bad input throws before anything is sent. */
export async function planForWrite(inputs: Props, volumeSizeGb: number): Promise<SyncPlan> {
  const input = filesInput(inputs.files);
  if (input.problems.length > 0 || input.source === undefined) {
    throw new RequestValidationError(input.problems, "VolumeFiles");
  }
  const prefix = typeof inputs.prefix === "string" ? inputs.prefix : undefined;
  return planSync({ source: input.source, prefix, volumeSizeGb });
}

/** How often the engine is told how far an upload has got. */
const PROGRESS_EVERY_MS = 1000;

/**
 * Carries out `plan` over `previous`: first finds the files the volume already holds as planned
 * (a killed run's, sent again by nothing), then runs the sync, showing its progress under the
 * resource `urn` (files and bytes done of the total, at most once a second, as the engine's status
 * of the resource) and what it did when it ends.
 */
export async function syncWithProgress(
  s3: VolumeS3Client,
  volume: VolumeRef,
  plan: SyncPlan,
  previous: VolumeManifest,
  urn: unknown,
): Promise<SyncResult> {
  const written = await findWritten(s3, volume, plan.prefix, plan.upload);
  const start = { ...previous, ...written };
  const todo = replan(plan, start);
  const tell = (message: string, ephemeral: boolean) =>
    typeof urn === "string" ? noticeOnResource(urn, message, { severity: "info", ephemeral }) : Promise.resolve();
  let last = 0;
  const onProgress = (p: SyncProgress) => {
    const now = Date.now();
    if (now - last < PROGRESS_EVERY_MS) return;
    last = now;
    void tell(progressText(p), true);
  };
  const result = await runSync(s3, volume, todo, start, { onProgress });
  // What the resource removed leaves no empty folder behind (it made them by writing there).
  await removeEmptyFolders(
    s3,
    volume,
    plan.prefix,
    todo.remove.map((r) => r.key),
  );
  const found = Object.keys(written).length;
  const words = [
    `uploaded ${todo.upload.length} ${todo.upload.length === 1 ? "file" : "files"} (${bytesText(todo.uploadBytes)})`,
    ...(todo.remove.length > 0
      ? [
          `removed ${todo.remove.length} ${todo.remove.length === 1 ? "file" : "files"} (${bytesText(todo.removeBytes)})`,
        ]
      : []),
    ...(found > 0 ? [`${found} already on the volume as planned, not sent again`] : []),
    ...(result.abortedUploads > 0
      ? [
          `aborted ${result.abortedUploads} unfinished multipart ${result.abortedUploads === 1 ? "upload" : "uploads"} a stopped run had left`,
        ]
      : []),
  ];
  if (todo.upload.length > 0 || todo.remove.length > 0 || found > 0) await tell(words.join("; "), false);
  return result;
}
