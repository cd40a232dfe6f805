import { execFileSync } from "node:child_process";
import * as fs from "node:fs";
import * as path from "node:path";
import { z } from "zod";
import { pulumiPlatform } from "../../plugin/installed-as";
import { pluginDir } from "./install-plugin";

/*
 * A release's plugin tarball (`pulumi-resource-runpod-iac-v<version>-<os>-<arch>.tar.gz`, built by
 * `npm run release:artifacts`) says which plugin it is in `runpod-iac-plugin.json`, at its root.
 * `runpod-iac plugin install --file <tarball>` reads it and refuses, before installing anything, a
 * tarball of another platform or of another version than asked; otherwise it installs the tarball
 * as `pulumi plugin install resource runpod-iac <version> --file <tarball>` does, by calling it:
 * the Pulumi CLI owns the plugin cache's layout and its locks.
 */

/** The file in each plugin tarball that says which plugin it is. */
export const PLUGIN_MANIFEST = "runpod-iac-plugin.json";

/** What `runpod-iac-plugin.json` holds. */
export const PluginManifestSchema = z.object({
  name: z.literal("runpod-iac"),
  version: z.string().min(1),
  /** `<os>-<arch>` as Pulumi spells them (`linux-amd64`, `darwin-arm64`, `windows-amd64`), as in the tarball's name. */
  platform: z.string().min(1),
  /** The Node.js release inside the executable. */
  node: z.string().min(1),
});

/** What `runpod-iac-plugin.json` holds. */
export type PluginManifest = z.infer<typeof PluginManifestSchema>;

/** What the tarball must be: the version asked for (if any), and this machine's platform. */
export interface TarballWanted {
  /** `--version`; undefined installs the tarball's own version. */
  version?: string;
  /** This machine, as `pulumiPlatform()` names it. */
  platform: string;
}

/** A version as typed, without a leading `v` (`v0.4.0` and `0.4.0` are one version, as for `pulumi plugin install`). */
function bare(version: string): string {
  return version.replace(/^v(?=\d)/, "");
}

/**
 * Why the tarball described by `manifest` cannot be installed here, naming which plugin it is and
 * what was wanted instead; undefined when it fits. Pure: the tests give it any manifest.
 */
export function tarballProblem(manifest: PluginManifest, wanted: TarballWanted): string | undefined {
  const which = `this tarball is the plugin ${manifest.name} ${manifest.version} for ${manifest.platform}`;
  const problems: string[] = [];
  if (manifest.platform !== wanted.platform) problems.push(`this machine is ${wanted.platform}`);
  if (wanted.version !== undefined && bare(wanted.version) !== manifest.version) {
    problems.push(`--version asks for ${bare(wanted.version)}`);
  }
  if (problems.length === 0) return undefined;
  const instead = `pulumi-resource-${manifest.name}-v${wanted.version === undefined ? manifest.version : bare(wanted.version)}-${wanted.platform}.tar.gz`;
  return `${which}; ${problems.join("; ")}. Install ${instead} instead (nothing was installed).`;
}

/** The manifest of the tarball at `file`, read with the system's `tar`; an error saying what the file is not. */
export function readTarballManifest(file: string): PluginManifest {
  if (!fs.existsSync(file)) throw new Error(`--file ${file}: no such file`);
  let text: string;
  try {
    text = execFileSync("tar", ["-xzOf", file, PLUGIN_MANIFEST], {
      encoding: "utf8",
      stdio: ["ignore", "pipe", "pipe"],
    });
  } catch (err) {
    const stderr = String((err as { stderr?: unknown }).stderr ?? "")
      .trim()
      .split("\n")[0];
    throw new Error(
      `--file ${file}: not a tarball of the runpod-iac plugin: it holds no ${PLUGIN_MANIFEST}${stderr ? ` (tar: ${stderr})` : ""}`,
    );
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    throw new Error(`--file ${file}: its ${PLUGIN_MANIFEST} is not JSON`);
  }
  const parsed = PluginManifestSchema.safeParse(json);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    throw new Error(
      `--file ${file}: its ${PLUGIN_MANIFEST} is not the runpod-iac plugin's: ${issue.path.join(".") || "(root)"}: ${issue.message}`,
    );
  }
  return parsed.data;
}

/** The `pulumi` on PATH, or an error saying where to get it. */
function pulumiOnPath(env: NodeJS.ProcessEnv): string {
  const names = process.platform === "win32" ? ["pulumi.exe", "pulumi.cmd"] : ["pulumi"];
  for (const dir of (env.PATH ?? "").split(path.delimiter).filter(Boolean)) {
    for (const name of names) if (fs.existsSync(path.join(dir, name))) return path.join(dir, name);
  }
  throw new Error(
    "pulumi is not on PATH: the Pulumi CLI installs the tarball (https://www.pulumi.com/docs/iac/download-install/)",
  );
}

/**
 * Installs the plugin tarball at `file` into the plugin cache ($PULUMI_HOME/plugins) with
 * `pulumi plugin install resource runpod-iac <version> --file`, after refusing a tarball of
 * another platform or version (tarballProblem). Returns the manifest and the plugin's folder.
 */
export function installTarball(
  file: string,
  version: string | undefined,
  env: NodeJS.ProcessEnv = process.env,
): { manifest: PluginManifest; dir: string } {
  const manifest = readTarballManifest(file);
  const problem = tarballProblem(manifest, { version, platform: pulumiPlatform() });
  if (problem) throw new Error(problem);
  const pulumi = pulumiOnPath(env);
  try {
    execFileSync(
      pulumi,
      ["plugin", "install", "resource", manifest.name, manifest.version, "--file", path.resolve(file)],
      {
        env,
        stdio: ["ignore", "pipe", "pipe"],
        encoding: "utf8",
      },
    );
  } catch (err) {
    const stderr = String((err as { stderr?: unknown }).stderr ?? "").trim();
    throw new Error(`pulumi plugin install failed: ${stderr || String(err)}`);
  }
  return { manifest, dir: pluginDir(manifest.version, env) };
}
