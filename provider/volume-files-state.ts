import { setHash, type ManifestEntry, type VolumeManifest } from "../sdk/s3/volume-manifest";

/*
 * What a `VolumeFiles` keeps in state, and the words its preview and progress use. The manifest
 * may hold tens of thousands of files and is rewritten into every checkpoint, so each file is one
 * short string: `<size> <sha256, base64url> <etag>[ <md5>][ !]` (the MD5 only when the ETag is not
 * it, `!` for a file a refresh found changed or gone on the volume): about 80 bytes plus the name.
 * The whole is one JSON text, not a map: the engine and the provider host pass one string of a
 * megabyte far faster than a map of ten thousand entries (between `check` and `diff` of an
 * unchanged preview of 10,000 files, about 450 ms with a map, 150 to 250 ms with one text).
 */

type Props = Record<string, unknown>;

/** The manifest as state keeps it: a JSON text of one short string per file, by name. */
export function encodeManifest(manifest: VolumeManifest): string {
  const out: Record<string, string> = {};
  for (const name of Object.keys(manifest).sort()) {
    const e = manifest[name]!;
    const sha = Buffer.from(e.sha256, "hex").toString("base64url");
    out[name] = [String(e.size), sha, e.etag, ...(e.md5 ? [e.md5] : []), ...(e.drifted ? ["!"] : [])].join(" ");
  }
  return JSON.stringify(out);
}

/**
 * The manifest of state's text. An entry that cannot be read (state edited by hand) is left out:
 * the next update writes that file again rather than trusting it; so is all of a text that is no
 * JSON object.
 */
export function decodeManifest(value: unknown): VolumeManifest {
  const out: Record<string, ManifestEntry> = {};
  let entries: unknown;
  try {
    entries = typeof value === "string" ? JSON.parse(value) : undefined;
  } catch {
    return out;
  }
  if (typeof entries !== "object" || entries === null) return out;
  for (const [name, raw] of Object.entries(entries as Props)) {
    if (typeof raw !== "string") continue;
    const [size, sha, etag, ...rest] = raw.split(" ");
    const bytes = Number(size);
    const sha256 = Buffer.from(sha ?? "", "base64url").toString("hex");
    if (!Number.isSafeInteger(bytes) || bytes < 0 || sha256.length !== 64 || !etag) continue;
    const md5 = rest.find((r) => r !== "!");
    out[name] = {
      size: bytes,
      sha256,
      etag,
      ...(md5 ? { md5 } : {}),
      ...(rest.includes("!") ? { drifted: true as const } : {}),
    };
  }
  return out;
}

/**
 * Whether the manifest's text marks any file as found changed by a refresh, without decoding it:
 * a marked entry's string ends in ` !`, then closes (`",` or `"}`); a name (a key) is followed by
 * `:`. What an unchanged preview asks of ten thousand entries.
 */
export function marksDrift(text: unknown): boolean {
  return typeof text === "string" && / !"[,}]/.test(text);
}

/** A `VolumeFiles`' id: the volume's, then `/` and the prefix without its last `/` when there is one. */
export function volumeFilesId(volumeId: string, prefix: string): string {
  return prefix === "" ? volumeId : `${volumeId}/${prefix.replace(/\/+$/, "")}`;
}

/** The volume and the prefix (`models/`, or empty) of a `VolumeFiles` id. */
export function partsOfId(id: string): { volumeId: string; prefix: string } {
  const slash = id.indexOf("/");
  return slash < 0 ? { volumeId: id, prefix: "" } : { volumeId: id.slice(0, slash), prefix: `${id.slice(slash + 1)}/` };
}

/** What state records of a sync. */
export interface VolumeFilesRecord {
  networkVolumeId: string;
  /** As the program gave it (undefined when it gave none). */
  prefix: unknown;
  dataCenterId: string;
  manifest: VolumeManifest;
  /**
   * The engine's hash of the `files` archive whose files the manifest holds, all of them; none
   * when that is not known (a create or update that failed part way, an import).
   */
  sourceHash: string | undefined;
}

/**
 * The outputs: the volume, its data center, the prefix, and what the volume holds of the
 * resource's files (count, bytes, the set hash an endpoint's env can roll on, the manifest), with
 * the engine's hash of the source they came from (`__sourceHash`, bookkeeping for `diff`).
 */
export function volumeFilesOutputs(r: VolumeFilesRecord): Props {
  const entries = Object.values(r.manifest);
  return {
    networkVolumeId: r.networkVolumeId,
    ...(typeof r.prefix === "string" ? { prefix: r.prefix } : {}),
    dataCenterId: r.dataCenterId,
    fileCount: entries.length,
    totalBytes: entries.reduce((n, e) => n + e.size, 0),
    hash: setHash(r.manifest),
    manifest: encodeManifest(r.manifest),
    ...(r.sourceHash !== undefined ? { __sourceHash: r.sourceHash } : {}),
  };
}

/** `1.5 MB`: a byte count in decimal units, as the platform sizes volumes. */
export function bytesText(n: number): string {
  const units = ["B", "kB", "MB", "GB", "TB"];
  let value = n;
  let unit = 0;
  while (value >= 1000 && unit < units.length - 1) {
    value /= 1000;
    unit++;
  }
  return unit === 0 ? `${n} B` : `${value.toFixed(1)} ${units[unit]}`;
}

/** Names shown in a preview when this many or fewer files change; beyond, counts and bytes alone. */
const NAMES_SHOWN = 5;

const files = (n: number) => `${n} ${n === 1 ? "file" : "files"}`;

/** A file as the words name it. */
type Named = { name: string; size: number };

function listed(list: readonly Named[], verb: string): string {
  const bytes = list.reduce((n, f) => n + f.size, 0);
  const names = list.length <= NAMES_SHOWN ? `: ${list.map((f) => f.name).join(", ")}` : "";
  return `${verb} ${files(list.length)} (${bytesText(bytes)})${names}`;
}

/**
 * What a sync will do, in words, for the preview: `uploads 2 files (1.2 MB): a.bin, b.bin;
 * removes 1 file (3 B): old.txt; 40 unchanged`; undefined when it sends nothing.
 */
export function planText(plan: {
  upload: readonly Named[];
  remove: readonly Named[];
  unchanged: readonly unknown[];
}): string | undefined {
  if (plan.upload.length === 0 && plan.remove.length === 0) return undefined;
  const parts = [
    ...(plan.upload.length > 0 ? [listed(plan.upload, "uploads")] : []),
    ...(plan.remove.length > 0 ? [listed(plan.remove, "removes")] : []),
    `${plan.unchanged.length} unchanged`,
  ];
  return parts.join("; ");
}

/** Progress, for the engine's status of the resource: `uploading: 3 of 10 files, 1.2 MB of 4.0 MB`. */
export function progressText(p: {
  filesDone: number;
  filesTotal: number;
  bytesDone: number;
  bytesTotal: number;
  removedDone: number;
  removedTotal: number;
}): string {
  const removing = p.removedTotal > 0 ? `; removed ${p.removedDone} of ${files(p.removedTotal)}` : "";
  return `uploading: ${p.filesDone} of ${files(p.filesTotal)}, ${bytesText(p.bytesDone)} of ${bytesText(p.bytesTotal)}${removing}`;
}
