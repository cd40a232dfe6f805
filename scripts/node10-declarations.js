#!/usr/bin/env node
// Declarations for programs that resolve modules the old way (`"moduleResolution": "node"`, as
// Pulumi's TypeScript template had it before March 2026), which reach the subpaths through
// package.json `typesVersions` (docs/client.md; the root `runpod-iac` too: `typesVersions`
// redirects the `types` file, `dist/index.d.ts`, to this copy). zod's CommonJS declarations (`index.d.cts`, what
// `"zod"` resolves to there) default-import `export =` modules, which a program without
// `esModuleInterop` refuses (TS1259, 63 times in zod's locales). zod's ES declarations
// (`zod/index.d.ts`) declare the same types with `export default`, which every setting accepts,
// so this copy of the public declarations imports `zod/index` instead of `zod`. Programs on
// `node16`/`nodenext`/`bundler` use `exports` and the declarations beside the code.
// Runs after `tsc` in `npm run build`; test/package/packed-types.test.ts compiles programs of
// each setting against the packed package.
const fs = require("node:fs");
const path = require("node:path");

const dist = path.resolve(__dirname, "..", "dist");
const out = path.join(dist, "types-node10");
/** The declarations the package's entry points reach (not bench/, cli/ or scripts/). */
const ENTRY_DIRS = ["sdk", "provider", "plugin", "emulator", "policy"];

/** `from "zod"` and `import("zod")` become `zod/index`; nothing else changes. */
function rewrite(text) {
  return text.replace(/(\bfrom\s+|\bimport\()(["'])zod\2/g, "$1$2zod/index$2");
}

function copyDeclarations(from, to) {
  for (const entry of fs.readdirSync(from, { withFileTypes: true })) {
    const source = path.join(from, entry.name);
    const target = path.join(to, entry.name);
    if (entry.isDirectory()) copyDeclarations(source, target);
    else if (entry.name.endsWith(".d.ts")) {
      fs.mkdirSync(to, { recursive: true });
      fs.writeFileSync(target, rewrite(fs.readFileSync(source, "utf8")));
    }
  }
}

fs.rmSync(out, { recursive: true, force: true });
for (const dir of ENTRY_DIRS) copyDeclarations(path.join(dist, dir), path.join(out, dir));
fs.writeFileSync(path.join(out, "index.d.ts"), rewrite(fs.readFileSync(path.join(dist, "index.d.ts"), "utf8")));
