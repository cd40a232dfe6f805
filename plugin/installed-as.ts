import * as path from "node:path";
import { PLUGIN_NAME } from "./type-tokens";

/** The folder name the plugin cache gives a plugin of `version`: `resource-runpod-iac-v<version>`. */
export function pluginFolderName(version: string): string {
  return `resource-${PLUGIN_NAME}-v${version}`;
}

/**
 * When the executable at `executable` lies in the plugin cache's folder of another version than
 * its own (a tarball installed under the wrong version: `pulumi plugin install resource runpod-iac
 * 0.3.0 --file <the 0.4.0 tarball>`), the words that say which plugin it is and what to do;
 * undefined when the folder is its own version's, or not a plugin cache folder at all.
 */
export function installedAsAnotherVersion(executable: string, version: string, platform: string): string | undefined {
  const folder = path.basename(path.dirname(executable));
  const prefix = `resource-${PLUGIN_NAME}-v`;
  if (!folder.startsWith(prefix)) return undefined;
  const installedAs = folder.slice(prefix.length);
  if (installedAs === version) return undefined;
  return (
    `${PLUGIN_NAME}: this is the plugin ${PLUGIN_NAME} ${version} for ${platform}, installed as version ${installedAs} ` +
    `(${path.dirname(executable)}). Install the tarball of ${installedAs} ` +
    `(pulumi-resource-${PLUGIN_NAME}-v${installedAs}-${platform}.tar.gz) with ` +
    `pulumi plugin install resource ${PLUGIN_NAME} ${installedAs} --file <tarball>, or this one as ${version}.`
  );
}

/** The platform in the names of the plugin's tarballs: `<os>-<arch>` as Pulumi spells them (`linux-amd64`, `darwin-arm64`, `windows-amd64`). */
export function pulumiPlatform(platform: NodeJS.Platform = process.platform, arch: string = process.arch): string {
  const os = platform === "win32" ? "windows" : platform;
  const cpu = arch === "x64" ? "amd64" : arch;
  return `${os}-${cpu}`;
}
