import * as crypto from "node:crypto";
import * as fs from "node:fs";
import * as path from "node:path";
import { tar } from "./tar";
import * as yazl from "yazl";

/*
 * Archives whose bytes depend only on what they hold: entries in sorted order, every time the
 * release's (SOURCE_DATE_EPOCH, the commit's time), no owner, group or user names, modes 0644 or
 * 0755, gzip without a file name or time in its header.
 */

/** One file of an archive: its name inside, and where its bytes are now. */
export interface Entry {
  name: string;
  source: string;
  executable?: boolean;
}

/**
 * Writes a .tar.gz of `entries` to `out`, at time `mtime`, compressed at gzip's `level` (9, the
 * smallest, for a release; the tests' throwaway builds take 1: the plugin's 120 MB take about 7 s
 * of CPU at 9, 1.5 s at 1).
 */
export async function writeTarGz(out: string, entries: readonly Entry[], mtime: Date, level = 9): Promise<void> {
  const staging = fs.mkdtempSync(`${out}.staging-`);
  try {
    const sorted = [...entries].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    for (const entry of sorted) {
      const target = path.join(staging, entry.name);
      fs.mkdirSync(path.dirname(target), { recursive: true });
      fs.copyFileSync(entry.source, target);
      fs.chmodSync(target, entry.executable ? 0o755 : 0o644);
    }
    await tar.c(
      { gzip: { level }, file: out, cwd: staging, portable: true, mtime, noDirRecurse: true },
      sorted.map((e) => e.name),
    );
  } finally {
    fs.rmSync(staging, { recursive: true, force: true });
  }
}

/** Writes a .zip of `entries` to `out`, at time `mtime` (deflated, no extra fields). */
export function writeZip(out: string, entries: readonly Entry[], mtime: Date): Promise<void> {
  const zip = new yazl.ZipFile();
  const sorted = [...entries].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  for (const entry of sorted) {
    zip.addBuffer(fs.readFileSync(entry.source), entry.name, {
      mtime,
      mode: entry.executable ? 0o100755 : 0o100644,
      compress: true,
      forceDosTimestamp: true,
    });
  }
  zip.end();
  return new Promise((resolve, reject) => {
    const stream = fs.createWriteStream(out);
    zip.outputStream.pipe(stream).on("close", resolve).on("error", reject);
  });
}

/** Every file under `dir` (relative, slash-separated), sorted. */
export function filesUnder(dir: string): string[] {
  const files: string[] = [];
  const walk = (rel: string) => {
    for (const entry of fs.readdirSync(path.join(dir, rel), { withFileTypes: true })) {
      const child = rel ? `${rel}/${entry.name}` : entry.name;
      if (entry.isDirectory()) walk(child);
      else if (entry.isFile()) files.push(child);
    }
  };
  walk("");
  return files.sort();
}

/** The SHA-256 of a file, hex. */
export function sha256(file: string): string {
  return crypto.createHash("sha256").update(fs.readFileSync(file)).digest("hex");
}

/** `SHA256SUMS` of every file under `dir` but itself, in `sha256sum -c`'s format, sorted by name. */
export function writeChecksums(dir: string): string {
  const out = path.join(dir, "SHA256SUMS");
  const lines = filesUnder(dir)
    .filter((f) => f !== "SHA256SUMS")
    .map((f) => `${sha256(path.join(dir, f))}  ${f}\n`);
  fs.writeFileSync(out, lines.join(""));
  return out;
}
