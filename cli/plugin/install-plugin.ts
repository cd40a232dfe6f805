import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { packageClosure } from "./package-closure";

/** The plugin's executable, which the engine looks for in a plugin folder. */
export const PLUGIN_EXECUTABLE = "pulumi-resource-runpod-iac";
/** The file beside the executable naming the node that installed the plugin (the launcher prefers it). */
export const NODE_FILE = "runpod-iac-node";

/**
 * What of this package the plugin runs: its server, the provider objects and the client it runs,
 * the schema it serves, and package.json (its name and version).
 */
const PACKAGE_PARTS = [
  "package.json",
  "dist/plugin",
  "dist/provider",
  "dist/sdk",
  "plugin/schema.json",
  `plugin/${PLUGIN_EXECUTABLE}`,
];

/** The Pulumi plugin cache: `$PULUMI_HOME/plugins`, by default `~/.pulumi/plugins`. */
export function pluginCacheDir(env: NodeJS.ProcessEnv = process.env): string {
  const home = env.PULUMI_HOME?.trim() || path.join(os.homedir(), ".pulumi");
  return path.join(home, "plugins");
}

/** The folder of the plugin of `version` in the cache: `resource-runpod-iac-v<version>`. */
export function pluginDir(version: string, env: NodeJS.ProcessEnv = process.env): string {
  return path.join(pluginCacheDir(env), `resource-runpod-iac-v${version}`);
}

/** Copies a folder, without its `node_modules` (the closure places those itself). */
function copyPackage(source: string, target: string): void {
  fs.cpSync(source, target, {
    recursive: true,
    dereference: true,
    filter: (src) => path.relative(source, src).split(path.sep)[0] !== "node_modules",
  });
}

/**
 * Installs the provider plugin of the package at `root` into the plugin cache, where any Pulumi
 * program of the machine (TypeScript, Python, Go, YAML) finds it: a folder holding the launcher,
 * the package's run-time files and every package they need, so it runs whatever happens to the
 * project it was installed from. Needs Node.js wherever it runs. Replaces an earlier install of
 * the same version; returns the folder.
 */
export function installPlugin(root: string, env: NodeJS.ProcessEnv = process.env): string {
  const manifest = JSON.parse(fs.readFileSync(path.join(root, "package.json"), "utf8")) as {
    name: string;
    version: string;
  };
  for (const part of PACKAGE_PARTS) {
    if (!fs.existsSync(path.join(root, part))) {
      throw new Error(`${path.join(root, part)} is missing: is ${root} a built runpod-iac package?`);
    }
  }
  const dest = pluginDir(manifest.version, env);
  fs.mkdirSync(path.dirname(dest), { recursive: true });
  // Built beside the destination, under a name the engine does not take for a plugin, and moved
  // in at once: the engine never sees half a plugin.
  const staging = fs.mkdtempSync(path.join(path.dirname(dest), ".runpod-iac-install-"));
  try {
    // @pulumi/pulumi is a peer dependency of the package, and the plugin's server runs on it.
    for (const { source, target } of packageClosure(root, ["@pulumi/pulumi"])) {
      if (source === fs.realpathSync(root)) continue;
      copyPackage(source, path.join(staging, target));
    }
    const self = path.join(staging, "node_modules", manifest.name);
    for (const part of PACKAGE_PARTS) {
      fs.cpSync(path.join(root, part), path.join(self, part), { recursive: true, dereference: true });
    }
    fs.copyFileSync(path.join(root, "plugin", PLUGIN_EXECUTABLE), path.join(staging, PLUGIN_EXECUTABLE));
    fs.chmodSync(path.join(staging, PLUGIN_EXECUTABLE), 0o755);
    fs.writeFileSync(path.join(staging, NODE_FILE), process.execPath);
    fs.rmSync(dest, { recursive: true, force: true });
    fs.renameSync(staging, dest);
  } catch (err) {
    fs.rmSync(staging, { recursive: true, force: true });
    throw err;
  }
  return dest;
}
