import * as fs from "node:fs";
import * as path from "node:path";

/**
 * The directory of this package (`runpod-iac`): the nearest one above this file whose
 * package.json names it. The same from the sources and from `dist/`, in the repository, in a
 * project's node_modules and in the plugin cache.
 */
export function packageRoot(from: string = __dirname): string {
  for (let dir = from; ; dir = path.dirname(dir)) {
    const file = path.join(dir, "package.json");
    if (fs.existsSync(file) && (JSON.parse(fs.readFileSync(file, "utf8")) as { name?: string }).name === "runpod-iac") {
      return dir;
    }
    if (path.dirname(dir) === dir) throw new Error(`no package.json of runpod-iac above ${from}`);
  }
}

/** The package's version: the plugin's, and its schema's. */
export function packageVersion(): string {
  return (JSON.parse(fs.readFileSync(path.join(packageRoot(), "package.json"), "utf8")) as { version: string }).version;
}
