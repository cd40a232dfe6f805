import * as fs from "node:fs";
import * as path from "node:path";
import { GO_SDK_DIR } from "../../plugin/project-home";
import { type Entry, filesUnder, writeZip } from "./archives";

/*
 * The Go SDK as a Go module proxy serves it (https://go.dev/ref/mod#goproxy-protocol), under
 * `<out>/<module path, escaped>/@v/`: `list`, `v<version>.info`, `.mod` and `.zip` (every file of
 * plugin/sdks/go under `<module>@v<version>/`). `GOPROXY=file://<out>` makes `go get` take it from
 * there before it is published; once the tag `plugin/sdks/go/v<version>` is pushed, the public
 * proxy serves the same module from the repository.
 */

/** A module path as the proxy protocol escapes it: each capital letter as `!` and its lower case. */
export function escapeModulePath(module: string): string {
  return module.replace(/[A-Z]/g, (c) => `!${c.toLowerCase()}`);
}

/** Writes the proxy layout of the Go SDK of `version` for `module` under `out`; returns the zip's path. */
export async function writeGoModule(
  root: string,
  out: string,
  module: string,
  version: string,
  mtime: Date,
): Promise<string> {
  const sdk = path.join(root, GO_SDK_DIR);
  const goMod = fs.readFileSync(path.join(sdk, "go.mod"), "utf8");
  const declared = /^module\s+(\S+)/m.exec(goMod)?.[1];
  if (declared !== module) {
    throw new Error(`${GO_SDK_DIR}/go.mod declares module ${declared}, the release's is ${module} (npm run gen:sdks)`);
  }
  const tag = `v${version}`;
  const dir = path.join(out, escapeModulePath(module), "@v");
  fs.mkdirSync(dir, { recursive: true });
  fs.writeFileSync(path.join(dir, "list"), `${tag}\n`);
  fs.writeFileSync(path.join(dir, `${tag}.info`), `${JSON.stringify({ Version: tag, Time: mtime.toISOString() })}\n`);
  fs.writeFileSync(path.join(dir, `${tag}.mod`), goMod);
  const entries: Entry[] = filesUnder(sdk).map((f) => ({ name: `${module}@${tag}/${f}`, source: path.join(sdk, f) }));
  const zip = path.join(dir, `${tag}.zip`);
  await writeZip(zip, entries, mtime);
  return zip;
}
