import * as fs from "node:fs";
import * as path from "node:path";
import type { FileBackend } from "./file-backend";

/**
 * What only a file backend can break. The storage library (gocloud.dev's fileblob) rewrites a
 * file's `.attrs` sidecar in place (create-truncate, then write) before it renames the new file
 * into place, so a kill between the two leaves an empty sidecar next to an intact file, and every
 * later read of that file fails with `failed to load checkpoint: EOF`: `pulumi cancel`
 * and `pulumi stack import` included, so this repair cannot go through the engine. A missing
 * sidecar reads as defaults, so deleting a broken one is always safe. Object stores and
 * PostgreSQL keep a value's attributes with the value, in one write: nothing to repair there.
 */

/** A sidecar that cannot be read. */
export interface BrokenSidecar {
  /** Absolute path of the `.attrs` file. */
  file: string;
  reason: "empty" | "not valid JSON";
}

/** Every `.attrs` sidecar under the backend that is empty or not JSON. */
export function findBrokenSidecars(backend: FileBackend): BrokenSidecar[] {
  const broken: BrokenSidecar[] = [];
  const walk = (dir: string) => {
    let entries: fs.Dirent[];
    try {
      entries = fs.readdirSync(dir, { withFileTypes: true });
    } catch {
      return;
    }
    for (const entry of entries) {
      const file = path.join(dir, entry.name);
      if (entry.isDirectory()) walk(file);
      else if (entry.isFile() && entry.name.endsWith(".attrs")) {
        const text = fs.readFileSync(file, "utf8");
        if (text.trim() === "") broken.push({ file, reason: "empty" });
        else if (!parses(text)) broken.push({ file, reason: "not valid JSON" });
      }
    }
  };
  walk(backend.bookkeeping);
  return broken.sort((a, b) => a.file.localeCompare(b.file));
}

function parses(text: string): boolean {
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
  }
}

/** Deletes every broken sidecar; returns what it deleted. Safe to run again. */
export function repairSidecars(backend: FileBackend): BrokenSidecar[] {
  const broken = findBrokenSidecars(backend);
  for (const s of broken) fs.rmSync(s.file, { force: true });
  return broken;
}
