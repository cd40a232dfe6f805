/**
 * `npm run release:artifacts [-- options]`: builds every artifact of a release into dist/release/
 * (docs/releasing.md) and prints each with its size.
 *
 *   --platforms linux-amd64,...   only these platforms' plugins (default: all five)
 *   --only plugin,python,...      only these parts: npm, plugin, python, go, schema (default: all)
 *   --tag vX.Y.Z                  the release's tag, which must be v<package.json's version>
 *   --out DIR                     instead of dist/release
 *   --allow-dirty                 build from a working tree with changes (trying out, tests; never a release)
 */
import * as path from "node:path";
import { parseArgs } from "node:util";
import { type Platform, PLATFORMS } from "./node-runtimes";
import { buildRelease, type Part, PARTS } from "./release";

const ROOT = path.resolve(__dirname, "..", "..", "..");

function listOf<T extends string>(value: string | undefined, allowed: readonly T[], flag: string): readonly T[] {
  if (value === undefined) return allowed;
  const items = value.split(",").map((v) => v.trim());
  const wrong = items.filter((v) => !allowed.includes(v as T));
  if (wrong.length > 0) throw new Error(`${flag} ${wrong.join(",")}: must be among ${allowed.join(", ")}`);
  return items as T[];
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      platforms: { type: "string" },
      only: { type: "string" },
      tag: { type: "string" },
      out: { type: "string" },
      "allow-dirty": { type: "boolean", default: false },
    },
  });
  const started = Date.now();
  const result = await buildRelease({
    root: ROOT,
    out: path.resolve(values.out ?? path.join(ROOT, "dist", "release")),
    platforms: listOf<Platform>(values.platforms, PLATFORMS, "--platforms"),
    parts: listOf<Part>(values.only, PARTS, "--only"),
    allowDirty: values["allow-dirty"] ?? false,
    tag: values.tag,
    log: (line) => process.stderr.write(`release: ${line}\n`),
  });
  for (const [file, bytes] of result.files)
    process.stdout.write(`${bytes.toLocaleString("en-US").padStart(14)}  ${file}\n`);
  process.stdout.write(
    `runpod-iac ${result.version}: ${result.files.length} files, SOURCE_DATE_EPOCH=${result.sourceDateEpoch}, ${Math.round((Date.now() - started) / 1000)} s\n`,
  );
}

main().catch((err: unknown) => {
  process.stderr.write(`release: ${err instanceof Error ? err.message : String(err)}\n`);
  process.exit(1);
});
