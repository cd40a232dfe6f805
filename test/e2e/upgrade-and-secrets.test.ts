import * as fs from "node:fs";
import * as path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { REPO_ROOT } from "../../scripts/pulumi-cli";
import { createE2EStack, type E2EStack } from "./harness";

let e: E2EStack | undefined;
afterEach(async () => {
  await e?.dispose();
  e = undefined;
});

/**
 * Installs a copy of this package with another version into the work dir's own node_modules, the
 * way `npm install runpod-iac@next` would. The copy's implementation leaves a marker file when
 * the engine loads it, which proves the provider ran the installed code, not code from state.
 */
function installUpgradedCopy(workDir: string, marker: string): void {
  const target = path.join(workDir, "node_modules", "runpod-iac");
  fs.mkdirSync(target, { recursive: true });
  fs.cpSync(path.join(REPO_ROOT, "dist"), path.join(target, "dist"), { recursive: true });
  const pkg = JSON.parse(fs.readFileSync(path.join(REPO_ROOT, "package.json"), "utf8"));
  fs.writeFileSync(path.join(target, "package.json"), JSON.stringify({ ...pkg, version: "99.0.0-upgrade" }));
  const impl = path.join(target, "dist", "provider", "impl.js");
  fs.appendFileSync(impl, `\nrequire("node:fs").writeFileSync(${JSON.stringify(marker)}, "loaded");\n`);
}

describe("upgrades and secrets through the real engine", { timeout: 180_000 }, () => {
  it("shows no diff after the package is upgraded, and runs the upgraded code", async () => {
    e = await createE2EStack("stack", { "e2e:volumeSize": { value: "10" } }, { label: "upgrade" });
    await e.stack.up();
    const marker = path.join(e.workDir, "upgraded-provider-loaded");
    installUpgradedCopy(e.workDir, marker);
    const preview = await e.stack.preview();
    expect(preview.changeSummary).toEqual({ same: 3 });
    expect(fs.existsSync(marker)).toBe(true);
    const refresh = await e.stack.refresh();
    expect(refresh.summary.resourceChanges).toEqual({ same: 3 });
    const destroy = await e.stack.destroy();
    expect(destroy.summary.result).toBe("succeeded");
    expect(await e.client.networkVolumes.list()).toEqual([]);
  });

  it("keeps working on a state written by 0.1.0, whose serialized providers were closures: no diff, refresh, destroy", async () => {
    e = await createE2EStack("stack", { "e2e:volumeSize": { value: "10" } }, { label: "upgrade-0.1.0" });
    await e.stack.up();
    // 0.1.0 serialized each provider with Pulumi's closure serializer (seven wrapped functions that
    // call `require("runpod-iac/impl").<volume|endpoint>.<method>`); put that text back into the state.
    const old: Record<string, string> = JSON.parse(
      fs.readFileSync(path.join(__dirname, "fixtures", "serialized-providers-0.1.0.json"), "utf8"),
    );
    const state = await e.stack.exportStack();
    const ours = state.deployment.resources.filter((r: { type: string }) => r.type.includes("dynamic/runpod:"));
    for (const r of ours) {
      const text = old[r.type.split(":").pop() as string];
      expect(text, r.type).toBeDefined();
      r.inputs.__provider = text;
      r.outputs.__provider = text;
    }
    await e.stack.importStack(state);
    expect((await e.stack.preview()).changeSummary).toEqual({ same: 3 });
    expect((await e.stack.refresh()).summary.resourceChanges).toEqual({ same: 3 });
    // Destroy runs the providers stored in the state: the 0.1.0 text.
    expect((await e.stack.destroy()).summary.result).toBe("succeeded");
    expect(await e.client.networkVolumes.list()).toEqual([]);
    expect(await e.client.endpoints.list()).toEqual([]);
  });

  it("keeps a key from stack config out of every resource; only the engine's provider entry holds it, encrypted", async () => {
    e = await createE2EStack(
      "stack",
      { "e2e:volumeSize": { value: "10" } },
      { label: "config-key", keyInConfig: true },
    );
    const up = await e.stack.up();
    expect(up.summary.result).toBe("succeeded");
    const plain = await e.cli(["stack", "export"]);
    expect(plain.stdout).not.toContain(e.apiKey);
    const shown = await e.cli(["stack", "export", "--show-secrets"]);
    const resources: { type: string; inputs?: object; outputs?: object }[] = JSON.parse(shown.stdout).deployment
      .resources;
    const holding = resources.filter((r) => JSON.stringify(r).includes(e?.apiKey ?? "unset"));
    // Pulumi hands the stack config to the nodejs dynamic provider and records it, as a secret,
    // on its default provider; no resource of ours ever sees or stores the key.
    expect(holding.map((r) => r.type)).toEqual(["pulumi:providers:pulumi-nodejs"]);
    await e.stack.destroy();
  });
});
