import * as fs from "node:fs";
import * as path from "node:path";
import { PLUGIN_MANIFEST, type PluginManifest } from "../../cli/plugin/plugin-tarball";
import { type Entry, writeTarGz } from "./archives";
import { type BundleReport, bundledPackages, bundlePlugin } from "./bundle-plugin";
import { NODE_RUNTIMES, type Platform } from "./node-runtimes";
import { buildExecutable, executableName, runtimeLicense, type SeaTools } from "./sea";

/*
 * The plugin's tarballs, one per platform, named and laid out as the engine downloads them and as
 * `pulumi plugin install resource runpod-iac <version> --file <tarball>` installs them:
 * `pulumi-resource-runpod-iac-v<version>-<os>-<arch>.tar.gz` holding the executable at its root
 * (no PulumiPlugin.yaml: that file marks a plugin the engine runs through a language host, and a
 * single executable is a binary plugin). Beside it: the license, the notices of the code inside
 * (Node.js and the bundled packages), and `runpod-iac-plugin.json`, which says which plugin the
 * tarball is (cli/plugin/plugin-tarball.ts: `runpod-iac plugin install --file` reads it).
 */

/** The tarball's name for `version` and `platform`. */
export function tarballName(version: string, platform: Platform): string {
  return `pulumi-resource-runpod-iac-v${version}-${platform}.tar.gz`;
}

/** The license texts of the bundled packages and of Node.js, as one notices file. */
function notices(root: string, report: BundleReport, platform: Platform, log: (line: string) => void): string {
  const parts = [
    `The runpod-iac provider plugin's executable holds Node.js ${NODE_RUNTIMES[platform].version} and these packages' code.\n`,
    `## Node.js\n\n${runtimeLicense(platform, log)}`,
  ];
  for (const name of bundledPackages(report).sort()) {
    const dir = path.join(root, "node_modules", name);
    const file = fs.readdirSync(dir).find((f) => /^(licen[cs]e|copying)(\.(md|txt))?$/i.test(f));
    const manifest = JSON.parse(fs.readFileSync(path.join(dir, "package.json"), "utf8")) as {
      version: string;
      license?: string;
    };
    const text = file
      ? fs.readFileSync(path.join(dir, file), "utf8")
      : `License: ${manifest.license ?? "see the package"}\n`;
    parts.push(`## ${name} ${manifest.version}\n\n${text}`);
  }
  return parts.join("\n");
}

/**
 * Builds the plugin's tarball of each of `platforms` into `outDir`; `work` holds what is made on
 * the way. Returns the tarballs and the bundle's report.
 */
export async function buildPluginTarballs(
  root: string,
  outDir: string,
  work: string,
  version: string,
  platforms: readonly Platform[],
  mtime: Date,
  tools: SeaTools,
): Promise<{ tarballs: string[]; bundle: BundleReport }> {
  // The syntax the oldest runtime of the platforms reads (they share one line today).
  const nodeMajor = Math.min(...platforms.map((p) => Number(NODE_RUNTIMES[p].version.split(".")[0])));
  const bundle = await bundlePlugin(root, path.join(work, "plugin.js"), nodeMajor);
  const schema = path.join(root, "plugin", "schema.json");
  const tarballs: string[] = [];
  for (const platform of platforms) {
    tools.log(`plugin for ${platform}`);
    const dir = path.join(work, platform);
    fs.mkdirSync(dir, { recursive: true });
    const exe = path.join(dir, executableName(platform));
    const node = buildExecutable(platform, bundle.file, schema, exe, tools);
    if (platform.startsWith("darwin")) {
      tools.log(`${platform}: the executable is unsigned until npm run release:sign-darwin signs it on a Mac`);
    }
    const manifest: PluginManifest = { name: "runpod-iac", version, platform, node };
    fs.writeFileSync(path.join(dir, PLUGIN_MANIFEST), `${JSON.stringify(manifest, null, 2)}\n`);
    fs.writeFileSync(path.join(dir, "THIRD-PARTY-NOTICES.md"), notices(root, bundle, platform, tools.log));
    const entries: Entry[] = [
      { name: executableName(platform), source: exe, executable: true },
      { name: "LICENSE", source: path.join(root, "LICENSE") },
      { name: "THIRD-PARTY-NOTICES.md", source: path.join(dir, "THIRD-PARTY-NOTICES.md") },
      { name: PLUGIN_MANIFEST, source: path.join(dir, PLUGIN_MANIFEST) },
    ];
    const tarball = path.join(outDir, tarballName(version, platform));
    await writeTarGz(tarball, entries, mtime, tools.gzipLevel);
    tarballs.push(tarball);
  }
  return { tarballs, bundle };
}
