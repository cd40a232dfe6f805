import { describe, expect, it } from "vitest";
import { type PluginManifest, PluginManifestSchema, tarballProblem } from "../../../cli/plugin/plugin-tarball";
import { pulumiPlatform } from "../../../plugin/installed-as";

const darwin040: PluginManifest = { name: "runpod-iac", version: "0.4.0", platform: "darwin-arm64", node: "26.10.0" };
const linux030: PluginManifest = { name: "runpod-iac", version: "0.3.0", platform: "linux-amd64", node: "26.12.1" };

describe("runpod-iac plugin install --file: which tarball fits this machine", () => {
  it("accepts a tarball of this platform, at its own version or the one asked for (with or without a v)", () => {
    expect(tarballProblem(linux030, { platform: "linux-amd64" })).toBeUndefined();
    expect(tarballProblem(linux030, { platform: "linux-amd64", version: "0.3.0" })).toBeUndefined();
    expect(tarballProblem(linux030, { platform: "linux-amd64", version: "v0.3.0" })).toBeUndefined();
  });

  it("refuses a tarball of another platform, naming both", () => {
    expect(tarballProblem(darwin040, { platform: "linux-amd64" })).toBe(
      "this tarball is the plugin runpod-iac 0.4.0 for darwin-arm64; this machine is linux-amd64. " +
        "Install pulumi-resource-runpod-iac-v0.4.0-linux-amd64.tar.gz instead (nothing was installed).",
    );
  });

  it("refuses a tarball of another version than asked, naming both", () => {
    expect(tarballProblem(linux030, { platform: "linux-amd64", version: "0.4.0" })).toBe(
      "this tarball is the plugin runpod-iac 0.3.0 for linux-amd64; --version asks for 0.4.0. " +
        "Install pulumi-resource-runpod-iac-v0.4.0-linux-amd64.tar.gz instead (nothing was installed).",
    );
  });

  it("names both mismatches at once", () => {
    expect(tarballProblem(darwin040, { platform: "windows-amd64", version: "v0.3.0" })).toBe(
      "this tarball is the plugin runpod-iac 0.4.0 for darwin-arm64; this machine is windows-amd64; --version asks for 0.3.0. " +
        "Install pulumi-resource-runpod-iac-v0.3.0-windows-amd64.tar.gz instead (nothing was installed).",
    );
  });

  it("spells this machine as the tarballs' names do", () => {
    expect(pulumiPlatform("linux", "x64")).toBe("linux-amd64");
    expect(pulumiPlatform("darwin", "arm64")).toBe("darwin-arm64");
    expect(pulumiPlatform("win32", "x64")).toBe("windows-amd64");
  });

  it("reads only a manifest of the runpod-iac plugin", () => {
    expect(PluginManifestSchema.safeParse(linux030).success).toBe(true);
    const other = PluginManifestSchema.safeParse({ ...linux030, name: "random" });
    expect(other.success).toBe(false);
    expect(other.error?.issues[0]?.path).toEqual(["name"]);
    expect(PluginManifestSchema.safeParse({ name: "runpod-iac", version: "0.3.0" }).success).toBe(false);
  });
});
