import { beforeAll, describe, expect, it } from "vitest";
import { type PackedFile, packedFiles } from "./packed-package";

// What `npm publish` ships (docs/design.md, "Contracts users rely on": the published package
// holds no test or benchmark code). Lists the real tarball's files with `npm pack --dry-run --json`.
describe("the published package", () => {
  let files: PackedFile[];
  let paths: string[];
  beforeAll(() => {
    files = packedFiles();
    paths = files.map((f) => f.path);
  });

  it("holds no benchmark or test code", () => {
    expect(
      paths.filter((p) => /(^|\/)(bench|test|tests|__tests__)\//.test(p) || /\.test(-d)?\.[cm]?[jt]s$/.test(p)),
    ).toEqual([]);
  });

  it("holds every entry point's code and declarations, the node10 declarations and the bin", () => {
    for (const entry of [
      "index",
      "sdk/index",
      "provider/index",
      "provider/impl",
      "plugin/index",
      "emulator/index",
      "policy/index",
    ]) {
      expect(paths).toContain(`dist/${entry}.js`);
      expect(paths).toContain(`dist/${entry}.d.ts`);
    }
    for (const entry of [
      "sdk/index",
      "provider/index",
      "provider/impl",
      "plugin/index",
      "emulator/index",
      "policy/index",
    ]) {
      expect(paths).toContain(`dist/types-node10/${entry}.d.ts`);
    }
    expect(paths).toContain("dist/cli/main.js");
    expect(paths).toEqual(expect.arrayContaining(["LICENSE", "CHANGELOG.md", "README.md", "package.json"]));
  });

  it("holds the provider plugin: its server, schema and launcher, and not the schema's generator", () => {
    expect(paths).toEqual(
      expect.arrayContaining(["dist/plugin/server.js", "plugin/schema.json", "plugin/pulumi-resource-runpod-iac"]),
    );
    expect(paths.filter((p) => p.includes("schema-gen") || (p.startsWith("plugin/") && p.endsWith(".ts")))).toEqual([]);
  });

  it("holds the Python and Go SDKs that runpod-iac sdk writes, and not the tool that generates them", () => {
    expect(paths).toEqual(
      expect.arrayContaining([
        "plugin/sdks/python/pyproject.toml",
        "plugin/sdks/python/README.md",
        "plugin/sdks/python/pulumi_runpod_iac/__init__.py",
        "plugin/sdks/python/pulumi_runpod_iac/pulumi-plugin.json",
        "plugin/sdks/go/go.mod",
        "plugin/sdks/go/go.sum",
        "plugin/sdks/go/runpodiac/pulumi-plugin.json",
        "plugin/sdks/go/runpodiac/networkVolume.go",
      ]),
    );
    expect(paths.filter((p) => p.startsWith("tools/pulumi-sdkgen"))).toEqual([]);
  });

  it("holds the policy pack's manifest and the files the CLI build script needs", () => {
    expect(paths).toEqual(expect.arrayContaining(["policy/PulumiPolicy.yaml", "policy/package.json"]));
    expect(paths).toContain("scripts/provide-pulumi.sh");
    // Sourced by provide-pulumi.sh when it builds the CLI (a user's CI without one on PATH).
    expect(paths).toContain("scripts/provide-pulumi-build.sh");
    expect(paths.filter((p) => p.startsWith("tools/") && p.endsWith("_test.go"))).toEqual([]);
  });
});
