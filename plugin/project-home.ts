/*
 * The project's home, and every published name and link derived from it. package.json's
 * `repository` is written once; the Go module path, the plugin's download URL (the engine fetches
 * `pulumi-resource-runpod-iac-v<version>-<os>-<arch>.tar.gz` from the GitHub release `v<version>`),
 * the schema's links and the registry docs' links all follow from it, so moving the repository
 * is a one-line change (then `npm run gen:schema`, `npm run gen:sdks`).
 */

/** Where the Go SDK lives in the repository: its module is this folder, tagged `<folder>/v<version>`. */
export const GO_SDK_DIR = "plugin/sdks/go";

/** The branch raw links (the logo) point at. */
const DEFAULT_BRANCH = "main";

/** The names and links that derive from the repository. */
export interface ProjectHome {
  /** `https://github.com/<owner>/<name>`. */
  url: string;
  /** The GitHub owner: the schema's publisher. */
  owner: string;
  /** The repository's name. */
  name: string;
  /** The Go SDK's module path: `github.com/<owner>/<name>/plugin/sdks/go`. */
  goModule: string;
  /** Where the engine downloads the plugin: `github://api.github.com/<owner>/<name>`. */
  pluginDownloadURL: string;
  /** The logo the Pulumi Registry shows. */
  logoUrl: string;
}

/**
 * The home of a package.json's `repository` (a string or `{ type, url }`, in any form npm accepts
 * for GitHub: `https://github.com/o/n`, `git+https://github.com/o/n.git`, `github:o/n`); an error
 * naming the value when it is not a GitHub repository.
 */
export function projectHome(repository: unknown): ProjectHome {
  const raw =
    typeof repository === "object" && repository !== null ? (repository as { url?: unknown }).url : repository;
  const text = typeof raw === "string" ? raw.trim() : "";
  const match =
    /^(?:git\+)?(?:https?|ssh|git):\/\/(?:git@)?github\.com[/:]([\w.-]+)\/([\w.-]+?)(?:\.git)?\/?$/.exec(text) ??
    /^github:([\w.-]+)\/([\w.-]+?)(?:\.git)?$/.exec(text);
  if (!match) {
    throw new Error(
      `package.json's repository is ${JSON.stringify(repository)}: it must name a GitHub repository (https://github.com/<owner>/<name>), from which the Go module path and the plugin's download URL derive`,
    );
  }
  const [, owner, name] = match as unknown as [string, string, string];
  const url = `https://github.com/${owner}/${name}`;
  return {
    url,
    owner,
    name,
    goModule: `github.com/${owner}/${name}/${GO_SDK_DIR}`,
    pluginDownloadURL: `github://api.github.com/${owner}/${name}`,
    logoUrl: `https://raw.githubusercontent.com/${owner}/${name}/${DEFAULT_BRANCH}/docs/registry/logo.svg`,
  };
}

/** The Go module's tag for `version`: `plugin/sdks/go/v<version>` (a module in a subfolder is tagged with its path). */
export function goModuleTag(version: string): string {
  return `${GO_SDK_DIR}/v${version}`;
}
