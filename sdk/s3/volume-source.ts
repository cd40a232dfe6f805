import { type Stats } from "node:fs";
import { readdir, realpath, stat } from "node:fs/promises";
import path from "node:path";
import type { FieldProblem } from "../schemas/validation";

/**
 * One named entry of a source: a file from disk (a Pulumi `FileAsset`), a string (a
 * `StringAsset`), or a folder whose files go under the entry's name (a `FileArchive` of a folder).
 */
export type SourceEntry = { path: string } | { text: string } | { folder: string };

/**
 * What goes onto a volume: a folder's files, each under its path relative to the folder (a Pulumi
 * `FileArchive` of a folder), or named entries (an `AssetArchive` of `FileAsset`s, `StringAsset`s
 * and folder `FileArchive`s). Names use `/` between folders. Only files go: empty folders do not.
 */
export type VolumeSource = { folder: string } | { entries: Readonly<Record<string, SourceEntry>> };

/** One file of a source, found on disk (or held as a string), before any hashing. */
export interface SourceItem {
  /** Its name relative to the prefix, `/` between folders. */
  name: string;
  size: number;
  /** The file on disk, or undefined for a string. */
  file?: string | undefined;
  text?: string | undefined;
  /** What identifies the file's content on disk without reading it (for the hash cache). */
  stamp?: string | undefined;
}

/** The items of a source, or the problems found (each naming field, value and rule). */
export interface SourceListing {
  items: SourceItem[];
  problems: FieldProblem[];
}

const stampOf = (st: Stats) => `${st.size}:${st.mtimeMs}:${st.ino}:${st.ctimeMs}`;

/** Lists the files of a source: reads folders and file sizes, never contents. */
export async function listSource(source: VolumeSource): Promise<SourceListing> {
  const out: SourceListing = { items: [], problems: [] };
  if ("folder" in source) {
    await addFolder(source.folder, "", "files", out);
    return out;
  }
  for (const [name, entry] of Object.entries(source.entries)) {
    const field = `files.${name}`;
    if ("text" in entry) out.items.push({ name, size: Buffer.byteLength(entry.text, "utf8"), text: entry.text });
    else if ("folder" in entry) await addFolder(entry.folder, `${name.replace(/\/+$/, "")}/`, field, out);
    else {
      const st = await stat(entry.path).catch(() => undefined);
      if (!st?.isFile()) {
        out.problems.push({ field, value: JSON.stringify(entry.path), rule: st ? "is not a file" : "does not exist" });
      } else out.items.push({ name, size: st.size, file: path.resolve(entry.path), stamp: stampOf(st) });
    }
  }
  return out;
}

/** Adds a folder's files (symbolic links followed, each folder once) under `base`. */
async function addFolder(folder: string, base: string, field: string, out: SourceListing): Promise<void> {
  const root = await stat(folder).catch(() => undefined);
  if (!root?.isDirectory()) {
    out.problems.push({ field, value: JSON.stringify(folder), rule: root ? "is not a folder" : "does not exist" });
    return;
  }
  const seen = new Set<string>();
  const walk = async (dir: string, prefix: string): Promise<void> => {
    const real = await realpath(dir);
    if (seen.has(real)) return;
    seen.add(real);
    const names = (await readdir(dir)).sort();
    // A folder's entries stat'ed at once (the thread pool overlaps them), then walked in order.
    const stats = await Promise.all(names.map((name) => stat(path.join(dir, name)).catch(() => undefined)));
    for (const [i, name] of names.entries()) {
      const full = path.join(dir, name);
      const st = stats[i];
      if (st?.isDirectory()) await walk(full, `${prefix}${name}/`);
      else if (st?.isFile())
        out.items.push({ name: `${prefix}${name}`, size: st.size, file: full, stamp: stampOf(st) });
    }
  };
  await walk(path.resolve(folder), base);
}
