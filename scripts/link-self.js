#!/usr/bin/env node
// Makes `require("pulumi-runpod/...")` resolve inside this repository, as it does in a user's
// project: the serialized dynamic providers load their implementation by package name, and the
// example programs and end-to-end tests run from inside the repo. Runs on `npm ci` (prepare).
const fs = require("node:fs");
const path = require("node:path");

const root = path.resolve(__dirname, "..");
const link = path.join(root, "node_modules", "pulumi-runpod");
try {
  const target = fs.readlinkSync(link);
  if (path.resolve(path.dirname(link), target) === root) process.exit(0);
  fs.unlinkSync(link);
} catch (err) {
  if (err.code === "EINVAL") {
    console.error(`${link} exists and is not a link; leaving it alone`);
    process.exit(0);
  }
}
fs.mkdirSync(path.dirname(link), { recursive: true });
fs.symlinkSync("..", link, "dir");
