import * as fs from "node:fs";
import * as path from "node:path";
import { describe, expect, it } from "vitest";
import { REPO_ROOT } from "../../../scripts/pulumi-cli";

/**
 * docs/languages.md shows the Python, Go and YAML programs whole; each block follows a comment
 * naming the file the end-to-end tests run, and must be that file, byte for byte, so the docs
 * show what is tested (as `npm run lint:docs` compiles the TypeScript blocks).
 */
const DOC = fs.readFileSync(path.join(REPO_ROOT, "docs", "languages.md"), "utf8");
const BLOCK = /<!-- (test\/e2e\/languages\/\S+) -->\n\n```\w+\n([\s\S]*?)```\n/g;
const blocks = [...DOC.matchAll(BLOCK)].map((m) => ({ file: m[1]!, code: m[2]! }));

describe("docs/languages.md", () => {
  it("shows every program file the language tests run", () => {
    expect(blocks.map((b) => b.file).sort()).toEqual(
      [
        "test/e2e/languages/go/Pulumi.yaml",
        "test/e2e/languages/go/deployment.go",
        "test/e2e/languages/go/main.go",
        "test/e2e/languages/python/Pulumi.yaml",
        "test/e2e/languages/python/__main__.py",
        "test/e2e/languages/yaml/Pulumi.yaml",
      ].sort(),
    );
  });

  for (const { file, code } of blocks) {
    it(`shows ${file} as the tests run it`, () => {
      expect(code).toBe(fs.readFileSync(path.join(REPO_ROOT, file), "utf8"));
    });
  }
});
