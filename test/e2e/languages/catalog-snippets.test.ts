import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { REPO_ROOT } from "../../../scripts/pulumi-cli";
import { createLanguageStack, type Language, type LanguageStack, PROJECT } from "./language-stack";

/**
 * The catalog functions as docs/languages.md shows them in YAML (`fn::invoke`) and Python
 * (`get_gpu_types`), each run as written through the plugin against the emulator: the YAML block
 * becomes the `variables:` of a project whose output is what it read, the Python block a program
 * of its own.
 */
const DOC = fs.readFileSync(path.join(REPO_ROOT, "docs", "languages.md"), "utf8");
const section = DOC.slice(
  DOC.indexOf("The schema's functions (invokes)"),
  DOC.indexOf("## Importing existing resources"),
);
const block = (lang: string) => {
  const found = new RegExp("```" + lang + "\\n([\\s\\S]*?)```").exec(section)?.[1];
  if (!found) throw new Error(`docs/languages.md shows no ${lang} block of the catalog functions`);
  return found;
};

const stacks: LanguageStack[] = [];
const dirs: string[] = [];
afterAll(async () => {
  await Promise.all(stacks.map((s) => s.dispose()));
  for (const dir of dirs) fs.rmSync(dir, { recursive: true, force: true });
});

async function deploy(language: Language, program: { python?: string; yaml?: string }) {
  const stack = await createLanguageStack(language, "unused-token", program);
  stacks.push(stack);
  const up = await stack.step("up");
  expect(up.error ?? "", stack.log()).toBe("");
  const before = await stack.requestCount();
  expect(before).toBeGreaterThan(0); // the invoke read the catalog
  return up;
}

describe("the catalog functions as docs/languages.md shows them", { timeout: 300_000 }, () => {
  it("YAML: fn::invoke of runpod-iac:index:getGpuTypes reads the catalog's GPU types", async () => {
    const yaml = `name: ${PROJECT}\nruntime: yaml\n${block("yaml")}outputs:\n  gpuTypes: \${catalog.gpuTypes}\n`;
    const up = await deploy("yaml", { yaml });
    const gpuTypes = up.outputs.gpuTypes?.value as { id: string; availability?: string }[];
    expect(gpuTypes.map((g) => g.id)).toContain("NVIDIA L4");
    // include: ["AVAILABILITY"] reached the platform: each type says how available it is.
    expect(gpuTypes.every((g) => typeof g.availability === "string")).toBe(true);
  });

  it("Python: get_gpu_types of the generated SDK reads the catalog's GPU types", async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "catalog-snippet-"));
    dirs.push(dir);
    const file = path.join(dir, "snippet.py");
    fs.writeFileSync(file, block("python"));
    const up = await deploy("python", { python: file });
    expect(up.outputs.gpuTypeIds?.value).toEqual(expect.arrayContaining(["NVIDIA L4", "NVIDIA A40"]));
  });
});
