import type { FieldProblem } from "../sdk/schemas/validation";
import type { SourceEntry, VolumeSource } from "../sdk/s3/volume-source";

/*
 * A `VolumeFiles`' `files` input as the engine hands it to a provider: not the program's
 * `FileArchive`/`AssetArchive` objects, but the property struct the engine sends, in both faces
 * (the dynamic provider host and the plugin's server pass `toJavaScript()` of it on). An archive is
 * `{ <sig>: ARCHIVE, path | assets | uri, hash }`, an asset `{ <sig>: ASSET, path | text | uri, hash }`.
 * `hash` is the engine's own SHA-256 of the archive's names, sizes and contents, computed when
 * the program registered the resource (it reads every file for it). `check` and `create`/`update`
 * get the whole struct; `diff` gets only `{ <sig>, hash }` (the engine leaves the contents out).
 * Relative paths are the project directory's, which is where the engine starts the provider.
 */

/** The key under which a struct value carries its kind. */
const SIG_KEY = "4dabf18193072939515e22adb298388d";
/** The engine's signatures of an asset and of an archive. */
const ASSET_SIG = "c44067f5952c0a294b673a41bacd8c17";
const ARCHIVE_SIG = "0def7320c3a5731c473e5ecbe6d01bc7";

/** File names the engine reads as an archive file (zip, tar, tar.gz), not a folder. */
const ARCHIVE_FILE = /\.(zip|jar|tar|tgz|tar\.gz)$/i;

/** What `files` says: the source to sync (absent when the engine left the contents out), the engine's hash, the problems. */
export interface FilesInput {
  source?: VolumeSource | undefined;
  /** The engine's hash of the whole archive, when it computed one. */
  engineHash?: string | undefined;
  problems: FieldProblem[];
}

type Struct = Record<string, unknown>;

const isStruct = (v: unknown): v is Struct => typeof v === "object" && v !== null && !Array.isArray(v);
const kindOf = (v: unknown) => (isStruct(v) ? v[SIG_KEY] : undefined);
const text = (v: unknown) => (typeof v === "string" ? v : undefined);

/** The engine's hash of an archive or asset struct, when it has one. */
export function engineHashOf(value: unknown): string | undefined {
  return isStruct(value) && typeof value.hash === "string" && value.hash !== "" ? value.hash : undefined;
}

const RULE_ARCHIVE =
  "must be a Pulumi archive: a FileArchive of a folder, or an AssetArchive of named FileAssets, StringAssets and folder FileArchives";

/**
 * The source of a `files` value, or the problems that refuse it (each naming the field, the value
 * and the rule): not an archive, a zip or tar file (its files are not unpacked: give the folder),
 * a remote asset or archive (nothing is downloaded: fetch it first).
 */
export function filesInput(value: unknown, field = "files"): FilesInput {
  const engineHash = engineHashOf(value);
  if (kindOf(value) === ASSET_SIG) {
    return {
      problems: [
        {
          field,
          value: describe(value),
          rule: `is a single asset, which has no name on the volume: ${RULE_ARCHIVE} (new AssetArchive({ "name": asset }))`,
        },
      ],
    };
  }
  if (kindOf(value) !== ARCHIVE_SIG) return { problems: [{ field, value: describe(value), rule: RULE_ARCHIVE }] };
  const archive = value as Struct;
  // What `diff` gets: the engine's hash alone.
  if (archive.path === undefined && archive.assets === undefined && archive.uri === undefined) {
    return { engineHash, problems: [] };
  }
  const problems: FieldProblem[] = [];
  const folder = folderOf(archive, field, problems);
  if (folder !== undefined) return { source: { folder }, engineHash, problems };
  if (!isStruct(archive.assets)) return { engineHash, problems };
  const entries: Record<string, SourceEntry> = {};
  addEntries(archive.assets, "", field, entries, problems);
  return { source: { entries }, engineHash, problems };
}

/** The folder of a `FileArchive`, or a problem for a remote archive or an archive file. */
function folderOf(archive: Struct, field: string, problems: FieldProblem[]): string | undefined {
  const uri = text(archive.uri);
  if (uri !== undefined) {
    problems.push({
      field,
      value: JSON.stringify(uri),
      rule: "is a RemoteArchive: VolumeFiles reads files from this machine, it downloads nothing; fetch it into a folder first",
    });
    return undefined;
  }
  const path = text(archive.path);
  if (path === undefined) return undefined;
  if (ARCHIVE_FILE.test(path)) {
    problems.push({
      field,
      value: JSON.stringify(path),
      rule: "is a zip or tar file: VolumeFiles puts a folder's files on the volume (a FileArchive of a folder), it does not unpack archive files; unpack it into a folder",
    });
    return undefined;
  }
  return path;
}

/** The entries of an `AssetArchive`, a nested one's under its name (`name/...`). */
function addEntries(
  assets: Struct,
  base: string,
  field: string,
  out: Record<string, SourceEntry>,
  problems: FieldProblem[],
) {
  for (const [name, value] of Object.entries(assets)) {
    const full = `${base}${name}`;
    const at = `${field}.${full}`;
    if (kindOf(value) === ASSET_SIG) {
      const asset = value as Struct;
      if (text(asset.path) !== undefined) out[full] = { path: asset.path as string };
      else if (text(asset.text) !== undefined) out[full] = { text: asset.text as string };
      else {
        problems.push({
          field: at,
          value: describe(asset),
          rule: "is a RemoteAsset: VolumeFiles reads files from this machine, it downloads nothing; fetch it first",
        });
      }
    } else if (kindOf(value) === ARCHIVE_SIG) {
      const archive = value as Struct;
      const folder = folderOf(archive, at, problems);
      if (folder !== undefined) out[full] = { folder };
      else if (isStruct(archive.assets))
        addEntries(archive.assets, `${full.replace(/\/+$/, "")}/`, field, out, problems);
    } else {
      problems.push({ field: at, value: describe(value), rule: "must be a FileAsset, a StringAsset or a FileArchive" });
    }
  }
}

/** A value for a message: an asset or archive by what it points at, never a string asset's text (it may hold anything). */
function describe(value: unknown): string {
  if (!isStruct(value)) return value === undefined ? "undefined" : JSON.stringify(value);
  if (kindOf(value) === ASSET_SIG || kindOf(value) === ARCHIVE_SIG) {
    const what = kindOf(value) === ASSET_SIG ? "asset" : "archive";
    const where = text(value.path) ?? text(value.uri);
    return where !== undefined ? `${what} ${JSON.stringify(where)}` : what;
  }
  return "an object";
}
