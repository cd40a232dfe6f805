import { execFile } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { promisify } from "node:util";
import { afterAll, describe, expect, it } from "vitest";
import { REPO_ROOT } from "../../scripts/pulumi-cli";

/**
 * scripts/provide-pulumi.sh as the e2e tier's global setup, CI and users' pipelines run it: from
 * the warm cache, and through its build steps (scripts/provide-pulumi-build.sh, which it sources)
 * when a cached piece is missing, each piece whose inputs did not change taken from the cache.
 */
const run = promisify(execFile);
const SCRIPT = path.join(REPO_ROOT, "scripts", "provide-pulumi.sh");
const TOOLS = ["pulumi", "pulumi-language-nodejs", "pulumi-resource-pulumi-nodejs", "pulumi-language-yaml"];

async function provide(env: Record<string, string>): Promise<{ dir: string; stderr: string }> {
  const { stdout, stderr } = await run("bash", [SCRIPT], {
    env: { ...process.env, PULUMI_RUNPOD_IGNORE_PATH: "1", ...env },
    maxBuffer: 16 << 20,
  });
  const lines = stdout.trim().split("\n");
  // One line on stdout: the directory, whatever the script logged on stderr.
  expect(lines).toHaveLength(1);
  return { dir: lines[0]!, stderr };
}

async function versionOf(dir: string): Promise<string> {
  return (
    await run(path.join(dir, "pulumi"), ["version"], { env: { ...process.env, PULUMI_SKIP_UPDATE_CHECK: "1" } })
  ).stdout.trim();
}

const temps: string[] = [];
afterAll(() => {
  for (const dir of temps) fs.rmSync(dir, { recursive: true, force: true });
});

describe("scripts/provide-pulumi.sh", { timeout: 600_000 }, () => {
  it("provides the CLI from its cache, then rebuilds a cache missing one piece from the pieces it has", async () => {
    // The cache is warm after the tier's global setup (or this call fills it).
    const warm = await provide({});
    for (const tool of TOOLS) expect(fs.statSync(path.join(warm.dir, tool)).mode & 0o111).not.toBe(0);
    const version = await versionOf(warm.dir);
    expect(version).toMatch(/^v3\.\d+\.\d+$/);

    // A cache of its own whose build id matches the warm one and whose shim is gone: the build
    // steps run, reuse the CLI and both language hosts (links to the warm ones), restore the shim.
    const cache = fs.mkdtempSync(path.join(os.tmpdir(), "runpod-provide-pulumi-"));
    temps.push(cache);
    const dest = path.join(cache, path.basename(path.dirname(warm.dir)), "bin");
    fs.mkdirSync(dest, { recursive: true });
    fs.copyFileSync(path.join(warm.dir, ".build-id"), path.join(dest, ".build-id"));
    for (const tool of TOOLS.filter((t) => t !== "pulumi-resource-pulumi-nodejs")) {
      fs.symlinkSync(path.join(warm.dir, tool), path.join(dest, tool));
    }
    const rebuilt = await provide({ PULUMI_RUNPOD_CACHE: cache });
    expect(rebuilt.dir).toBe(dest);
    expect(rebuilt.stderr).toContain(`reusing the cached Pulumi CLI ${version}`);
    expect(rebuilt.stderr).toContain("reusing the cached Node.js language host");
    expect(rebuilt.stderr).toMatch(/reusing the cached YAML language host v[\d.]+/);
    for (const tool of TOOLS) {
      const stat = fs.lstatSync(path.join(dest, tool));
      expect(stat.isFile(), tool).toBe(true);
      expect(stat.mode & 0o111).not.toBe(0);
    }
    expect(fs.readFileSync(path.join(dest, ".build-id"), "utf8")).toBe(
      fs.readFileSync(path.join(warm.dir, ".build-id"), "utf8"),
    );
    expect(await versionOf(dest)).toBe(version);
    // And the next call is a cache hit on it.
    const again = await provide({ PULUMI_RUNPOD_CACHE: cache });
    expect(again.dir).toBe(dest);
    expect(again.stderr).not.toContain("reusing");
  });
});
