import { RequestValidationError } from "../errors";
import type { FieldProblem } from "../schemas/validation";
import { VOLUME_FILE_LIMITS, volumeKeyProblem } from "../schemas/volume-files";
import { defaultHashCache, type HashCache } from "./content-hash";
import { setHash, type VolumeManifest } from "./volume-manifest";
import { listSource, type SourceItem, type VolumeSource } from "./volume-source";

/** What a sync is to do, from a source and the previous manifest, before any request. */
export interface SyncPlanInput {
  source: VolumeSource;
  /** The folder on the volume the files go under (`models/llama`); default the volume's root. */
  prefix?: string | undefined;
  /** What the last sync put there (the state's manifest); none for a create. */
  previous?: VolumeManifest | undefined;
  /** The volume's size in GB: the files together must fit. Unchecked when absent. */
  volumeSizeGb?: number | undefined;
  /** Content hashes, read once per file per process. Default the process's cache. */
  hashes?: HashCache | undefined;
}

/** One file of the source as planned. */
export interface PlannedFile {
  /** Name relative to the prefix. */
  name: string;
  /** Object key: the prefix, then the name. */
  key: string;
  size: number;
  sha256: string;
  md5: string;
  /** The file on disk, or undefined for a string. */
  file: string | undefined;
  text: string | undefined;
}

/** A sync's plan: what it uploads, leaves and removes, with counts and bytes. */
export interface SyncPlan {
  /** The normalized prefix: empty, or ending in `/`. */
  prefix: string;
  /** Every file of the source, by name. */
  files: PlannedFile[];
  /** Files new or changed (or found drifted by a refresh): uploaded. */
  upload: PlannedFile[];
  /** Files the volume holds as the source has them: not sent. */
  unchanged: PlannedFile[];
  /** Files the last sync put there that the source no longer has: deleted (and nothing else is). */
  remove: { name: string; key: string; size: number }[];
  fileCount: number;
  totalBytes: number;
  uploadBytes: number;
  removeBytes: number;
  /** The set hash of the source's files ({@link setHash}). */
  hash: string;
}

/** `models/llama/` from `/models/llama`, or a problem with the prefix. */
export function normalizePrefix(prefix: string | undefined): { prefix: string; problem?: FieldProblem } {
  const trimmed = (prefix ?? "").replace(/^\/+|\/+$/g, "");
  if (trimmed === "") return { prefix: "" };
  const problem = volumeKeyProblem(trimmed);
  return problem
    ? { prefix: "", problem: { field: "prefix", value: JSON.stringify(prefix), rule: problem } }
    : { prefix: `${trimmed}/` };
}

/** Problems of the names, sizes and total of a source's items (no request, no file read). */
function itemProblems(items: readonly SourceItem[], prefix: string, volumeSizeGb: number | undefined): FieldProblem[] {
  const problems: FieldProblem[] = [];
  const names = new Set(items.map((i) => i.name));
  let total = 0;
  for (const item of items) {
    const field = `files.${item.name}`;
    const key = `${prefix}${item.name}`;
    const keyProblem = volumeKeyProblem(key);
    if (keyProblem)
      problems.push({ field, value: JSON.stringify(key), rule: `is not a key the platform can store: ${keyProblem}` });
    // A file and a folder cannot share a path on the volume's file system.
    const segments = item.name.split("/");
    for (let i = 1; i < segments.length; i++) {
      const folder = segments.slice(0, i).join("/");
      if (names.has(folder)) {
        problems.push({
          field: `files.${folder}`,
          value: JSON.stringify(folder),
          rule: `is a file, but ${JSON.stringify(item.name)} needs it to be a folder`,
        });
      }
    }
    if (item.size > VOLUME_FILE_LIMITS.fileBytes) {
      problems.push({
        field,
        value: `${item.size} bytes`,
        rule: `is larger than the platform's largest file, ${VOLUME_FILE_LIMITS.fileBytes} bytes`,
      });
    }
    total += item.size;
  }
  if (volumeSizeGb !== undefined && total > volumeSizeGb * VOLUME_FILE_LIMITS.bytesPerGb) {
    problems.push({
      field: "files",
      value: `${total} bytes in ${items.length} files`,
      rule: `must fit in the volume's ${volumeSizeGb} GB (${volumeSizeGb * VOLUME_FILE_LIMITS.bytesPerGb} bytes)`,
    });
  }
  return problems;
}

/**
 * Plans a sync without sending anything: lists the source, refuses bad input (a missing source, a
 * key the platform cannot store, a file over the largest file size, more than the volume holds)
 * with a `RequestValidationError` naming field, value and rule, hashes each file (once per process,
 * streamed), and compares with the previous manifest by content hash.
 */
export async function planSync(input: SyncPlanInput): Promise<SyncPlan> {
  const { prefix, problem } = normalizePrefix(input.prefix);
  const listing = await listSource(input.source);
  const problems = [
    ...(problem ? [problem] : []),
    ...listing.problems,
    ...itemProblems(listing.items, prefix, input.volumeSizeGb),
  ];
  if (problems.length > 0) throw new RequestValidationError(problems, "VolumeFiles");
  const items = [...listing.items].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  const hashes = await (input.hashes ?? defaultHashCache).hashAll(items);
  const files = items.map((item, i): PlannedFile => ({
    name: item.name,
    key: `${prefix}${item.name}`,
    size: item.size,
    sha256: hashes[i]!.sha256,
    md5: hashes[i]!.md5,
    file: item.file,
    text: item.text,
  }));
  return replan({ prefix, files, hash: setHash(Object.fromEntries(files.map((f) => [f.name, f]))) }, input.previous);
}

/**
 * A plan's files compared with a manifest (what a sync put there before): what to upload, leave
 * and remove, with counts and bytes. No request and no file read, so a plan made once (at
 * `check`) is compared again with another manifest for free (at `diff`, against the state's).
 */
export function replan(
  plan: Pick<SyncPlan, "prefix" | "files" | "hash">,
  previous: VolumeManifest | undefined,
): SyncPlan {
  const { prefix, files } = plan;
  const before = previous ?? {};
  const same = (f: PlannedFile) => {
    const p = before[f.name];
    return p !== undefined && !p.drifted && p.sha256 === f.sha256 && p.size === f.size;
  };
  const names = new Set(files.map((f) => f.name));
  const remove = Object.entries(before)
    .filter(([name]) => !names.has(name))
    .map(([name, e]) => ({ name, key: `${prefix}${name}`, size: e.size }));
  const upload = files.filter((f) => !same(f));
  const sum = (list: readonly { size: number }[]) => list.reduce((n, f) => n + f.size, 0);
  return {
    prefix,
    files,
    upload,
    unchanged: files.filter(same),
    remove,
    fileCount: files.length,
    totalBytes: sum(files),
    uploadBytes: sum(upload),
    removeBytes: sum(remove),
    hash: plan.hash,
  };
}
