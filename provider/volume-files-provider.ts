import type { ResourceProviderObject } from "./provider-object";
import type * as dynamic from "@pulumi/pulumi/dynamic";
import { z } from "zod";
import type { RunpodClient } from "../sdk/client";
import { detectDrift } from "../sdk/s3/sync-drift";
import { planSync, replan } from "../sdk/s3/sync-plan";
import { VolumeSyncError } from "../sdk/s3/sync-run";
import type { ManifestEntry, VolumeManifest } from "../sdk/s3/volume-manifest";
import type { FieldProblem } from "../sdk/schemas/validation";
import { type Expect, type SchemaMatchesTable, schemaFailures } from "./check-inputs";
import { changedFields } from "./diff-inputs";
import { noticeOnResource } from "./engine-notice";
import { PartialCreateError } from "./errors";
import { VOLUME_FILES_FIELDS } from "./field-rules";
import { isUnknown } from "./property-values";
import { configureProvider, providerS3Client, providerS3Settings } from "./provider-config";
import {
  decodeManifest,
  marksDrift,
  partsOfId,
  planText,
  volumeFilesId,
  volumeFilesOutputs,
} from "./volume-files-state";
import { engineHashOf, filesInput } from "./volume-files-source";
import {
  isVolumeGone,
  planFiles,
  planForWrite,
  prefixOf,
  rememberSource,
  syncWithProgress,
  volumeOf,
} from "./volume-files-sync";

type Props = Record<string, unknown>;

/**
 * Inputs as `check` validates them. `files` is an archive, which the engine hands over as its own
 * struct (volume-files-source.ts judges it); the rest are plain values.
 */
export const VolumeFilesInputsSchema = z.object({
  networkVolumeId: z.string().min(1),
  files: z.custom<object>((v) => typeof v === "object" && v !== null, "must be a Pulumi archive"),
  prefix: z.string().optional(),
  volumeSizeGb: z.number().int().positive().optional(),
});

// `check` validates exactly the fields the table has rules for: a field in one and not the other is a tsc error.
type _SchemaMatchesFields = Expect<SchemaMatchesTable<typeof VolumeFilesInputsSchema, typeof VOLUME_FILES_FIELDS>>;

/** A problem of the library as a check failure on its top-level property, naming the field, the value and the rule. */
function failureOf(p: FieldProblem): dynamic.CheckFailure {
  const property = p.field.split(".")[0] ?? "";
  return { property, reason: p.field === property ? `${p.value}: ${p.rule}` : `${p.field} = ${p.value}: ${p.rule}` };
}

/** The S3 credentials' failure at preview, naming the settings to set (never a value). */
function credentialFailures(): dynamic.CheckFailure[] {
  try {
    providerS3Settings();
    return [];
  } catch (err) {
    return [{ property: "", reason: (err as Error).message }];
  }
}

/** Inputs with the prefix normalized, so `models` and `/models/` compare equal. */
const withPrefix = (p: Props): Props => ({ ...p, prefix: isUnknown(p.prefix) ? p.prefix : prefixOf(p.prefix) });

/** A change of a field of `rule`, in the detailed diff the plugin sends the engine. */
type DetailedDiff = Record<string, { kind: "update" | "update-replace" }>;

/** The manifest's files a refresh found changed or gone on the volume. */
const driftedOf = (m: VolumeManifest) =>
  Object.entries(m)
    .filter(([, e]) => e.drifted)
    .map(([name, e]) => ({ name, size: e.size }));

/** Tells the engine, under the resource, what the preview's update will do. */
async function tellPreview(news: Props, text: string): Promise<void> {
  if (typeof news.__urn === "string") await noticeOnResource(news.__urn, text, { severity: "info" });
}

/** The update or replacement of a diff, with the detailed diff the plugin passes on. */
function diffResult(replaces: string[], fields: string[], deleteBeforeReplace = false) {
  const detailedDiff: DetailedDiff = Object.fromEntries(
    fields.map((f) => [f, { kind: replaces.includes(f) ? "update-replace" : "update" }]),
  );
  return { changes: fields.length > 0, replaces, deleteBeforeReplace, detailedDiff };
}

/** The outputs of a sync of `inputs` that ended with `manifest` (`complete`: every file of the source written). */
function outputsOf(inputs: Props, dataCenterId: string, manifest: VolumeManifest, complete: boolean): Props {
  return volumeFilesOutputs({
    networkVolumeId: inputs.networkVolumeId as string,
    prefix: inputs.prefix,
    dataCenterId,
    manifest,
    sourceHash: complete ? engineHashOf(inputs.files) : undefined,
  });
}

/** A create or update that wrote part of the files: the engine records what the volume holds, the next `up` sends the rest. */
class PartialSyncError extends Error {
  override name = "PartialSyncError";
  readonly reasons: string[];
  constructor(
    readonly id: string,
    readonly properties: Props,
    cause: Error,
  ) {
    super(`${cause.message}; the state records the files that were written, and the next update sends the rest`, {
      cause,
    });
    this.reasons = [cause.message];
  }
}

/** The dynamic provider implementation of `VolumeFiles`: files on a network volume through its S3-compatible API. */
export const volumeFilesProvider = {
  configure: configureProvider,
  inputSchema: VolumeFilesInputsSchema,

  /** `pulumi import`: the volume (the files the resource owns cannot be known: it starts owning none). */
  fetch(client: RunpodClient, id: string): Promise<object> {
    return client.networkVolumes.get(partsOfId(id).volumeId);
  },

  /**
   * Validates the inputs and the S3 settings at preview, sending nothing. When the source changed
   * (by the engine's hash of it, against the old inputs'), plans it: lists and hashes its files
   * (once per process) and refuses a missing file or folder, a key the platform cannot store, a
   * file over the largest file, more than `volumeSizeGb` holds. An unchanged source reads no file.
   */
  async check(olds: Props, news: Props): Promise<dynamic.CheckResult> {
    const failures = [...schemaFailures(VolumeFilesInputsSchema, news), ...credentialFailures()];
    if (news.files === undefined || isUnknown(news.files) || failures.some((f) => f.property === "files")) {
      return { inputs: news, failures };
    }
    const input = filesInput(news.files);
    const size = typeof news.volumeSizeGb === "number" ? news.volumeSizeGb : undefined;
    const unchanged =
      input.engineHash !== undefined &&
      input.engineHash === engineHashOf(olds.files) &&
      !isUnknown(news.prefix) &&
      prefixOf(olds.prefix) === prefixOf(news.prefix) &&
      olds.volumeSizeGb === news.volumeSizeGb;
    if (input.problems.length > 0) failures.push(...input.problems.map(failureOf));
    else if (unchanged) {
      // The same files as the deployed inputs: nothing to read. Kept in case `diff` needs a plan.
      rememberSource(input.engineHash, input.source);
    } else {
      const planned = await planFiles(news.files, isUnknown(news.prefix) ? undefined : news.prefix, size);
      failures.push(...planned.problems.map(failureOf));
    }
    return { inputs: news, failures };
  },

  /**
   * What an update would do, with no request: a new volume or prefix replaces; otherwise the files
   * whose content differs from the state's manifest are uploaded and those gone from the source
   * removed. Said under the resource: counts, bytes, and the names when few. An unchanged source
   * (the engine's hash equals the state's) reads no file.
   */
  async diff(_id: string, olds: Props, news: Props): Promise<dynamic.DiffResult> {
    const replaces = changedFields(withPrefix(olds), withPrefix(news), {
      networkVolumeId: VOLUME_FILES_FIELDS.networkVolumeId,
      prefix: VOLUME_FILES_FIELDS.prefix,
    });
    if (replaces.length > 0) {
      // On the same volume the new folder may hold the old one's keys: remove the old files first.
      const sameVolume = !replaces.includes("networkVolumeId");
      return diffResult(replaces, replaces, sameVolume);
    }
    if (isUnknown(news.files)) return diffResult([], ["files"]);
    const engineHash = engineHashOf(news.files);
    const sameSource = engineHash !== undefined && engineHash === olds.__sourceHash;
    // The same files, none marked by a refresh: no change, read without decoding the manifest.
    if (sameSource && !marksDrift(olds.manifest)) return diffResult([], []);
    const previous = decodeManifest(olds.manifest);
    if (sameSource) {
      const drifted = driftedOf(previous);
      if (drifted.length === 0) return diffResult([], []);
      const again = planText({ upload: drifted, remove: [], unchanged: [] })!.replace(/; 0 unchanged$/, "");
      await tellPreview(news, `${again}: changed or removed on the volume since written (seen by refresh)`);
      return diffResult([], ["files"]);
    }
    const { plan } = await planFiles(news.files, news.prefix, undefined);
    if (!plan) {
      await tellPreview(news, "the files are compared with the state's manifest at update");
      return diffResult([], ["files"]);
    }
    const compared = replan(plan, previous);
    await tellPreview(
      news,
      planText(compared) ?? "no file to upload or remove: records the source's hash, so later previews read no file",
    );
    return diffResult([], ["files"]);
  },

  /** Uploads every file (those already on the volume as planned are taken, not sent again). */
  async create(inputs: Props): Promise<dynamic.CreateResult> {
    const volumeId = inputs.networkVolumeId as string;
    const volume = await volumeOf(volumeId);
    const plan = await planForWrite(inputs, volume.size);
    const id = volumeFilesId(volumeId, plan.prefix);
    const ref = { dataCenterId: volume.dataCenterId, volumeId };
    try {
      const result = await syncWithProgress(providerS3Client(), ref, plan, {}, inputs.__urn);
      return { id, outs: outputsOf(inputs, volume.dataCenterId, result.manifest, true) };
    } catch (err) {
      // Files were written: the resource goes into state holding them, so none is orphaned.
      if (err instanceof VolumeSyncError && Object.keys(err.manifest).length > 0) {
        throw new PartialCreateError(id, outputsOf(inputs, volume.dataCenterId, err.manifest, false), err);
      }
      throw err;
    }
  },

  /** Refresh: one listing of the prefix; files changed or gone on the volume are marked for the next update. */
  async read(id: string, props: Props = {}): Promise<dynamic.ReadResult> {
    const parts = partsOfId(id);
    // As the state has them, or (an import) as the id says.
    const given =
      typeof props.prefix === "string" ? props.prefix : parts.prefix ? parts.prefix.slice(0, -1) : undefined;
    const networkVolumeId = typeof props.networkVolumeId === "string" ? props.networkVolumeId : parts.volumeId;
    const declared = { networkVolumeId, prefix: given };
    try {
      const dataCenterId =
        typeof props.dataCenterId === "string" ? props.dataCenterId : (await volumeOf(networkVolumeId)).dataCenterId;
      // An import: which files the resource owns cannot be known, so it starts owning none; the
      // next `up` uploads the program's files (those already there as planned are not sent).
      if (props.manifest === undefined) return { id, props: outputsOf(declared, dataCenterId, {}, false) };
      const manifest = decodeManifest(props.manifest);
      const volume = { dataCenterId, volumeId: networkVolumeId };
      const drift = await detectDrift(providerS3Client(), volume, prefixOf(given), manifest);
      // A file changed or gone stays in the manifest as written, marked: the next update writes it
      // again and a preview says so; the outputs (count, bytes, hash) stay those of the program's files.
      const next: Record<string, ManifestEntry> = { ...manifest };
      for (const name of [...drift.changed, ...drift.missing]) next[name] = { ...manifest[name]!, drifted: true };
      const outs = outputsOf(declared, dataCenterId, next, false);
      if (typeof props.__sourceHash === "string") outs.__sourceHash = props.__sourceHash;
      return { id, props: outs };
    } catch (err) {
      if (isVolumeGone(err)) return {};
      throw err;
    }
  },

  /** Uploads the files whose content changed and removes those gone from the source; nothing else. */
  async update(id: string, olds: Props, news: Props): Promise<dynamic.UpdateResult> {
    const volumeId = news.networkVolumeId as string;
    const volume = await volumeOf(volumeId);
    const previous = decodeManifest(olds.manifest);
    const plan = replan(await planForWrite(news, volume.size), previous);
    const ref = { dataCenterId: volume.dataCenterId, volumeId };
    try {
      const result = await syncWithProgress(providerS3Client(), ref, plan, previous, news.__urn);
      return { outs: outputsOf(news, volume.dataCenterId, result.manifest, true) };
    } catch (err) {
      if (err instanceof VolumeSyncError) {
        throw new PartialSyncError(id, outputsOf(news, volume.dataCenterId, err.manifest, false), err);
      }
      throw err;
    }
  },

  /** Removes the files the resource put on the volume, and nothing else; a volume already gone has none. */
  async delete(id: string, props: Props = {}): Promise<void> {
    const manifest = decodeManifest(props.manifest);
    if (Object.keys(manifest).length === 0) return;
    const { volumeId, prefix } = partsOfId(id);
    try {
      const dataCenterId =
        typeof props.dataCenterId === "string" ? props.dataCenterId : (await volumeOf(volumeId)).dataCenterId;
      const plan = await planSync({ source: { entries: {} }, prefix, previous: manifest });
      await syncWithProgress(providerS3Client(), { dataCenterId, volumeId }, plan, manifest, props.__urn);
    } catch (err) {
      if (!isVolumeGone(err)) throw err;
    }
  },
} satisfies ResourceProviderObject;
