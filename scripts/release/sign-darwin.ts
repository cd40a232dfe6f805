/**
 * `npm run release:sign-darwin` (on a Mac, after `npm run release:artifacts`): signs the macOS
 * plugins in dist/release/ ad hoc. Injecting the program into Node's binary invalidates the
 * binary's signature, and an arm64 Mac runs only signed code; `codesign --sign -` gives it an ad
 * hoc signature (no identity, no time in it: the same binary signs to the same bytes). Each
 * tarball is unpacked, its executable signed and verified, run once with `--version` where this
 * Mac's architecture runs it, and packed again as release:artifacts packs it; SHA256SUMS is
 * written again. The release workflow runs it on its macOS runner (docs/releasing.md).
 */
import { execFileSync } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { type Entry, filesUnder, writeChecksums, writeTarGz } from "./archives";
import { commitTime } from "./checks";
import { tar } from "./tar";

const ROOT = path.resolve(__dirname, "..", "..", "..");

async function main(): Promise<void> {
  if (process.platform !== "darwin")
    throw new Error("codesign runs on macOS only: run this on a Mac (the release workflow's macOS job)");
  const out = path.resolve(process.argv[2] ?? path.join(ROOT, "dist", "release"));
  const mtime = new Date(commitTime(ROOT) * 1000);
  const tarballs = fs.readdirSync(out).filter((f) => /-darwin-(amd64|arm64)\.tar\.gz$/.test(f));
  if (tarballs.length === 0) throw new Error(`${out} holds no macOS plugin tarball`);
  for (const name of tarballs) {
    const work = fs.mkdtempSync(path.join(os.tmpdir(), "runpod-iac-sign-"));
    try {
      tar.x({ file: path.join(out, name), cwd: work, sync: true, filter: () => true });
      const exe = path.join(work, "pulumi-resource-runpod-iac");
      execFileSync("codesign", ["--force", "--sign", "-", exe], { stdio: "inherit" });
      execFileSync("codesign", ["--verify", "--strict", "--verbose=2", exe], { stdio: "inherit" });
      const arch = name.includes("-arm64") ? "arm64" : "x64";
      if (arch === process.arch) {
        process.stdout.write(`${name}: ${execFileSync(exe, ["--version"], { encoding: "utf8" })}`);
      }
      const entries: Entry[] = filesUnder(work).map((f) => ({
        name: f,
        source: path.join(work, f),
        executable: f === "pulumi-resource-runpod-iac",
      }));
      await writeTarGz(path.join(out, name), entries, mtime);
      process.stdout.write(`signed ${name}\n`);
    } finally {
      fs.rmSync(work, { recursive: true, force: true });
    }
  }
  writeChecksums(out);
}

main().catch((err: unknown) => {
  process.stderr.write(`release:sign-darwin: ${err instanceof Error ? err.message : String(err)}\n`);
  process.exit(1);
});
