#!/usr/bin/env node
// `npm run lint:layers`: fails on an import inside emulator/ that runs upward. The emulator's
// folders stand in layers (docs/emulator.md, "How the code is layered"); a file may import from
// its own layer and the layers below it, never from one above. Every import counts, `import type`
// and `export ... from` included: a type is a dependency too. A folder in no layer is refused as
// well, so a new folder gets its place on purpose. Imports from outside emulator/ (sdk/, node:,
// packages) are not this check's business.
const fs = require("node:fs");
const path = require("node:path");
const ts = require("typescript");

/** The layers, top first: a file imports from its own layer or one further down the list. */
const LAYERS = [
  // emulator/*.ts: the CLI, startEmulator, the package's index and its options.
  { name: "entry", folders: ["."] },
  { name: "routes", folders: ["api"] },
  { name: "server", folders: ["server"] },
  { name: "accounts", folders: ["store"] },
  {
    name: "domains",
    folders: [
      "endpoints",
      "templates",
      "registry-auths",
      "volumes",
      "pods",
      "clusters",
      "secrets",
      "jobs",
      "billing",
      "capacity",
      "handlers",
      "models",
      "limits",
      "faults",
      "s3",
    ],
  },
  { name: "platform", folders: ["platform"] },
  { name: "base", folders: ["records", "clock", "errors"] },
];

/** The top folder of a path below `root` (`.` for a file directly in it). */
function folderOf(root, file) {
  const rel = path.relative(root, file).split(path.sep);
  return rel.length === 1 ? "." : rel[0];
}

/** Layer index of each folder name. */
function layerIndex(layers) {
  const index = new Map();
  layers.forEach((layer, i) => {
    for (const folder of layer.folders) index.set(folder, i);
  });
  return index;
}

/** Every `.ts` file below `dir`. */
function tsFiles(dir) {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return tsFiles(full);
    return entry.name.endsWith(".ts") && !entry.name.endsWith(".d.ts") ? [full] : [];
  });
}

/** The relative modules a TypeScript file imports or re-exports (`import type` included), resolved to paths. */
function relativeImports(file, text) {
  const { importedFiles } = ts.preProcessFile(text, true, true);
  return importedFiles
    .map((ref) => ref.fileName)
    .filter((spec) => spec.startsWith("."))
    .map((spec) => path.resolve(path.dirname(file), spec));
}

/**
 * The problems of `files` (path and text) under `root`: each upward import, and each folder in no
 * layer, one line each.
 */
function layerProblems(root, files, layers = LAYERS) {
  const index = layerIndex(layers);
  const problems = [];
  const unplaced = new Set();
  const layerOf = (file) => {
    const folder = folderOf(root, file);
    if (!index.has(folder)) unplaced.add(folder);
    return index.get(folder);
  };
  for (const { file, text } of files) {
    const from = layerOf(file);
    for (const target of relativeImports(file, text)) {
      if (path.relative(root, target).startsWith("..")) continue;
      const to = layerOf(target);
      if (from === undefined || to === undefined || to >= from) continue;
      const rel = (p) => path.relative(path.dirname(root), p);
      problems.push(
        `${rel(file)} (${layers[from].name}) imports ${rel(target)} (${layers[to].name}, a layer above it)`,
      );
    }
  }
  for (const folder of unplaced)
    problems.push(`emulator/${folder}/ is in no layer: add it to LAYERS in scripts/check-emulator-layers.js`);
  return problems;
}

module.exports = { LAYERS, layerProblems };

if (require.main === module) {
  const root = path.resolve(__dirname, "..", "emulator");
  const files = tsFiles(root).map((file) => ({ file, text: fs.readFileSync(file, "utf8") }));
  const problems = layerProblems(root, files);
  for (const line of problems) console.error(line);
  if (problems.length) {
    console.error(`${problems.length} upward import(s) or unplaced folder(s) in emulator/ (docs/emulator.md)`);
    process.exit(1);
  }
  console.log(`emulator/: ${files.length} files, no upward import`);
}
