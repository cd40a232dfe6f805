import * as fs from "node:fs";
import * as path from "node:path";
import { describe, expect, it } from "vitest";
import { goModuleTag, projectHome } from "../../../plugin/project-home";

const REPO = path.resolve(__dirname, "..", "..", "..");

describe("the project's home and what derives from it", () => {
  it("reads every form npm accepts for a GitHub repository", () => {
    for (const repository of [
      "https://github.com/acme/tool",
      "git+https://github.com/acme/tool.git",
      { type: "git", url: "git+https://github.com/acme/tool.git" },
      "git+ssh://git@github.com/acme/tool.git",
      "github:acme/tool",
    ]) {
      expect(projectHome(repository)).toEqual({
        url: "https://github.com/acme/tool",
        owner: "acme",
        name: "tool",
        goModule: "github.com/acme/tool/plugin/sdks/go",
        pluginDownloadURL: "github://api.github.com/acme/tool",
        logoUrl: "https://raw.githubusercontent.com/acme/tool/main/docs/registry/logo.svg",
      });
    }
  });

  it("refuses a repository that is not on GitHub, naming the value and the rule", () => {
    expect(() => projectHome("https://gitlab.com/acme/tool")).toThrow(
      'package.json\'s repository is "https://gitlab.com/acme/tool": it must name a GitHub repository',
    );
    expect(() => projectHome(undefined)).toThrow("package.json's repository is undefined");
  });

  it("tags the Go module with its folder", () => {
    expect(goModuleTag("1.2.3")).toBe("plugin/sdks/go/v1.2.3");
  });

  it("is where the committed SDKs and schema point: the Go module path, the plugin's download URL", () => {
    const home = projectHome(JSON.parse(fs.readFileSync(path.join(REPO, "package.json"), "utf8")).repository);
    expect(home.url).toBe("https://github.com/runpod-iac/runpod-iac");
    expect(fs.readFileSync(path.join(REPO, "plugin", "sdks", "go", "go.mod"), "utf8")).toMatch(
      new RegExp(`^module ${home.goModule}\n`),
    );
    const schema = JSON.parse(fs.readFileSync(path.join(REPO, "plugin", "schema.json"), "utf8"));
    expect(schema).toMatchObject({ repository: home.url, pluginDownloadURL: home.pluginDownloadURL });
    const plugin = JSON.parse(
      fs.readFileSync(path.join(REPO, "plugin", "sdks", "python", "pulumi_runpod_iac", "pulumi-plugin.json"), "utf8"),
    );
    expect(plugin.server).toBe(home.pluginDownloadURL);
  });
});
