#!/usr/bin/env node
// Makes the repository look, to its own programs, like a user's project that installed
// runpod-iac: `require("runpod-iac/...")` resolves (the resources' serialized providers load
// their implementation by package name; the examples and end-to-end tests run from inside the
// repo), and the package's bins are in node_modules/.bin, executable (`npx runpod-iac` from any
// folder whose node_modules is this one). Runs on `npm ci` (prepare) and after `npm run build`.
const fs = require("node:fs");
const path = require("node:path");

const root = path.resolve(__dirname, "..");

/** Points `link` at `target` (relative), replacing a stale link; leaves a real file alone. */
function relink(link, target) {
  try {
    if (fs.readlinkSync(link) === target) return;
    fs.unlinkSync(link);
  } catch (err) {
    if (err.code === "EINVAL") {
      console.error(`${link} exists and is not a link; leaving it alone`);
      return;
    }
  }
  fs.mkdirSync(path.dirname(link), { recursive: true });
  fs.symlinkSync(target, link);
}

relink(path.join(root, "node_modules", "runpod-iac"), "..");
const { bin = {} } = JSON.parse(fs.readFileSync(path.join(root, "package.json"), "utf8"));
for (const [name, file] of Object.entries(bin)) {
  relink(path.join(root, "node_modules", ".bin", name), path.join("..", "runpod-iac", file));
  // tsc writes files without the execute bit; npm sets it on an installed package's bins.
  if (fs.existsSync(path.join(root, file))) fs.chmodSync(path.join(root, file), 0o755);
}
