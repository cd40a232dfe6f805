import { type Stats } from "node:fs";
import { readdir, stat } from "node:fs/promises";
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

/**
 * The folder Pulumi leaves out of a folder archive wherever it is (its bookkeeping folder), as the
 * engine does when it hashes a `FileArchive`.
 */
const BOOKKEEPING = ".pulumi";

/**
 * Adds a folder's files under `base`, walked as the Pulumi engine walks a `FileArchive` of a folder
 * (when it hashes one): a symbolic link to a file is that file, a symbolic link to a folder is left
 * out, and `.pulumi` is left out wherever it is. The source is then exactly the files the engine's
 * hash of the archive covers, so an unchanged hash means unchanged files (provider/volume-files-provider.ts).
 */
async function addFolder(folder: string, base: string, field: string, out: SourceListing): Promise<void> {
  const root = await stat(folder).catch(() => undefined);
  if (!root?.isDirectory()) {
    out.problems.push({ field, value: JSON.stringify(folder), rule: root ? "is not a folder" : "does not exist" });
    return;
  }
  const walk = async (dir: string, prefix: string): Promise<void> => {
    const entries = (await readdir(dir, { withFileTypes: true }))
      .filter((e) => e.name !== BOOKKEEPING)
      .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    // A folder's entries stat'ed at once (the thread pool overlaps them), then walked in order;
    // `stat` follows a link, so a link to a folder shows as a folder and is skipped below.
    const stats = await Promise.all(
      entries.map((e) => (e.isDirectory() ? undefined : stat(path.join(dir, e.name)).catch(() => undefined))),
    );
    for (const [i, entry] of entries.entries()) {
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) await walk(full, `${prefix}${entry.name}/`);
      else if (stats[i]?.isFile())
        out.items.push({ name: `${prefix}${entry.name}`, size: stats[i].size, file: full, stamp: stampOf(stats[i]) });
    }
  };
  await walk(path.resolve(folder), base);
}
