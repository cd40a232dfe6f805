import { execFileSync } from "node:child_process";
import * as fs from "node:fs";
import * as path from "node:path";
import { goModuleTag } from "../../plugin/project-home";

/*
 * What a release refuses before it builds anything: a working tree with changes (the artifacts
 * would not be the commit's), and versions that disagree: package.json's, the schema's, the
 * Python SDK's, the Go SDK's, and the tags a release names.
 */

function git(root: string, args: string[]): string {
  return execFileSync("git", args, { cwd: root, encoding: "utf8", stdio: ["ignore", "pipe", "pipe"] }).trim();
}

/** The changed or untracked files of the working tree, as `git status --porcelain` lists them. */
export function dirtyFiles(root: string): string[] {
  return git(root, ["status", "--porcelain", "--untracked-files=all"])
    .split("\n")
    .filter((line) => line.trim() !== "");
}

/** The commit's time in seconds since the epoch: the release's SOURCE_DATE_EPOCH. */
export function commitTime(root: string): number {
  return Number(git(root, ["log", "-1", "--format=%ct", "HEAD"]));
}

/** The commit a tag points at, or undefined when there is no such tag. */
function tagCommit(root: string, tag: string): string | undefined {
  try {
    return git(root, ["rev-parse", "--verify", "--quiet", `refs/tags/${tag}^{commit}`]);
  } catch {
    return undefined;
  }
}

/**
 * A semantic version as Python's packages write it (PEP 440), as Pulumi's Python generator
 * writes it: `1.2.3-alpha.4` is `1.2.3a4`, `-beta.N` is `bN`, `-rc.N` is `rcN`; a release stays.
 */
export function pypiVersion(version: string): string {
  const match = /^(\d+\.\d+\.\d+)-(alpha|beta|rc)\.?(\d+)$/.exec(version);
  if (!match) return version;
  const [, base, kind, n] = match as unknown as [string, string, string, string];
  return `${base}${{ alpha: "a", beta: "b", rc: "rc" }[kind]}${n}`;
}

/** Where each part states its version, read from the tree. */
export function statedVersions(root: string): Record<string, string> {
  const json = (rel: string) => JSON.parse(fs.readFileSync(path.join(root, rel), "utf8")) as { version: string };
  const pyproject = fs.readFileSync(path.join(root, "plugin/sdks/python/pyproject.toml"), "utf8");
  const goUtilities = fs.readFileSync(path.join(root, "plugin/sdks/go/runpodiac/internal/pulumiUtilities.go"), "utf8");
  return {
    "package.json": json("package.json").version,
    "plugin/schema.json": json("plugin/schema.json").version,
    "plugin/sdks/python/pyproject.toml": /^\s*version = "([^"]+)"/m.exec(pyproject)?.[1] ?? "(none)",
    "plugin/sdks/python/pulumi_runpod_iac/pulumi-plugin.json": json(
      "plugin/sdks/python/pulumi_runpod_iac/pulumi-plugin.json",
    ).version,
    "plugin/sdks/go/runpodiac/pulumi-plugin.json": json("plugin/sdks/go/runpodiac/pulumi-plugin.json").version,
    "plugin/sdks/go/runpodiac/internal/pulumiUtilities.go":
      /semver\.MustParse\("([^"]+)"\)/.exec(goUtilities)?.[1] ?? "(none)",
  };
}

/**
 * The problems that stop a release, one line each naming what disagrees: every version against
 * package.json's; the release tag, when given, against `v<version>`; the Go module's tag
 * (`plugin/sdks/go/v<version>`), when it exists, against the release's commit.
 */
export function versionProblems(root: string, releaseTag?: string): string[] {
  const stated = statedVersions(root);
  const version = stated["package.json"]!;
  const problems = Object.entries(stated)
    .filter(([file, v]) => v !== (file.endsWith("pyproject.toml") ? pypiVersion(version) : version))
    .map(
      ([file, v]) => `${file} states version ${v}, package.json ${version} (npm run gen:schema && npm run gen:sdks)`,
    );
  if (releaseTag !== undefined && releaseTag !== `v${version}`) {
    problems.push(`the release tag is ${releaseTag}, package.json's version ${version} wants v${version}`);
  }
  const goTag = goModuleTag(version);
  const goCommit = tagCommit(root, goTag);
  const head = git(root, ["rev-parse", "HEAD"]);
  if (goCommit !== undefined && goCommit !== head) {
    problems.push(
      `the Go module's tag ${goTag} points at ${goCommit.slice(0, 12)}, the release is built from ${head.slice(0, 12)}`,
    );
  }
  return problems;
}

/** A wheel's or sdist's file name's version against the release's (the build backend writes it). */
export function pythonArchiveProblem(file: string, version: string): string | undefined {
  const match = /^pulumi_runpod_iac-([^-]+?)(?:-py3-none-any\.whl|\.tar\.gz)$/.exec(path.basename(file));
  if (!match) return `${path.basename(file)} is not named as the Python SDK's wheel or sdist`;
  return match[1] === pypiVersion(version)
    ? undefined
    : `${path.basename(file)} is version ${match[1]}, package.json ${version} (${pypiVersion(version)} in Python's spelling)`;
}
