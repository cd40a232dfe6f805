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
 * Installs a copy of this package into the work dir's own node_modules under `name`: as
 * `runpod-iac` with another version, the way `npm install runpod-iac@next` would; as
 * `pulumi-runpod`, the way the npm alias `npm install pulumi-runpod@npm:runpod-iac@^0.3.0` does
 * (the package's own files and package.json under the old name's folder). The copy's
 * implementation leaves a marker file when the engine loads it, which proves the provider ran the
 * installed code, not code from state.
 */
function installPackageCopy(workDir: string, name: string, marker: string): void {
  const target = path.join(workDir, "node_modules", name);
  fs.mkdirSync(target, { recursive: true });
  fs.cpSync(path.join(REPO_ROOT, "dist"), path.join(target, "dist"), { recursive: true });
  const pkg = JSON.parse(fs.readFileSync(path.join(REPO_ROOT, "package.json"), "utf8"));
  const version = name === pkg.name ? "99.0.0-upgrade" : pkg.version;
  fs.writeFileSync(path.join(target, "package.json"), JSON.stringify({ ...pkg, version }));
  const impl = path.join(target, "dist", "provider", "impl.js");
  fs.appendFileSync(impl, `\nrequire("node:fs").writeFileSync(${JSON.stringify(marker)}, "loaded");\n`);
}

/** The key of each resource type's provider in `<package>/impl` (the state format; provider/impl.ts). */
const IMPL_KEYS: Record<string, string> = {
  NetworkVolume: "volume",
  ServerlessEndpoint: "endpoint",
  Template: "template",
  ContainerRegistryAuth: "registryAuth",
};

/** What 0.2.0, published as `pulumi-runpod`, stored as each resource's `__provider`. */
function providerOf020(type: string): string {
  return `exports.handler = () => require("pulumi-runpod/impl").${IMPL_KEYS[type]};\n`;
}

/** Puts `providerText(<type name>)` into every resource's stored `__provider`, inputs and outputs. */
async function rewriteStoredProviders(stack: E2EStack["stack"], providerText: (type: string) => string | undefined) {
  const state = await stack.exportStack();
  const ours = state.deployment.resources.filter((r: { type: string }) => r.type.includes("dynamic/runpod:"));
  expect(ours.length).toBeGreaterThan(0);
  for (const r of ours) {
    const text = providerText(r.type.split(":").pop() as string);
    expect(text, r.type).toBeDefined();
    r.inputs.__provider = text;
    r.outputs.__provider = text;
  }
  await stack.importStack(state);
}

describe("upgrades and secrets through the real engine", { timeout: 180_000 }, () => {
  it("shows no diff after the package is upgraded, and runs the upgraded code", async () => {
    e = await createE2EStack("stack", { "e2e:volumeSize": { value: "10" } }, { label: "upgrade" });
    await e.stack.up();
    const marker = path.join(e.workDir, "upgraded-provider-loaded");
    installPackageCopy(e.workDir, "runpod-iac", marker);
    const preview = await e.stack.preview();
    expect(preview.changeSummary).toEqual({ same: 3 });
    expect(fs.existsSync(marker)).toBe(true);
    const refresh = await e.stack.refresh();
    expect(refresh.summary.resourceChanges).toEqual({ same: 3 });
    const destroy = await e.stack.destroy();
    expect(destroy.summary.result).toBe("succeeded");
    expect(await e.client.networkVolumes.list()).toEqual([]);
  });

  it("refreshes and destroys a state written by 0.2.0 (as pulumi-runpod) once pulumi-runpod is an alias of runpod-iac", async () => {
    e = await createE2EStack("whole-stack", {}, { label: "upgrade-0.2.0" });
    await e.stack.up();
    // 0.2.0 stored `require("pulumi-runpod/impl").<key>`, and the engine runs refresh and destroy
    // with the stored text; an `up` that changes nothing never rewrites it (CHANGELOG 0.3.0).
    await rewriteStoredProviders(e.stack, providerOf020);
    const exported = JSON.stringify(await e.stack.exportStack());
    expect(exported.match(/pulumi-runpod\/impl/g)).toHaveLength(8); // four resources, inputs and outputs
    // The hazard the upgrade step exists for: with only runpod-iac installed, refresh cannot run.
    await expect(e.stack.refresh()).rejects.toThrow(/Cannot find module 'pulumi-runpod\/impl'/);

    // The documented step: npm install pulumi-runpod@npm:runpod-iac@^0.3.0.
    const marker = path.join(e.workDir, "alias-provider-loaded");
    installPackageCopy(e.workDir, "pulumi-runpod", marker);
    expect((await e.stack.preview()).changeSummary).toEqual({ same: 5 });
    expect((await e.stack.refresh()).summary.resourceChanges).toEqual({ same: 5 });
    expect(fs.existsSync(marker)).toBe(true);
    expect((await e.stack.destroy()).summary.result).toBe("succeeded");
    expect(await e.client.endpoints.list()).toEqual([]);
    expect(await e.client.networkVolumes.list()).toEqual([]);
    expect(await e.client.templates.list()).toEqual([]);
    expect(await e.client.containerRegistryAuth.list()).toEqual([]);
  });

  it("keeps working on a state written by 0.1.0, whose serialized providers were closures: no diff, refresh, destroy", async () => {
    e = await createE2EStack("stack", { "e2e:volumeSize": { value: "10" } }, { label: "upgrade-0.1.0" });
    await e.stack.up();
    // 0.1.0 serialized each provider with Pulumi's closure serializer (seven wrapped functions that
    // call `require("pulumi-runpod/impl").<volume|endpoint>.<method>`); put that text back into the state.
    const old: Record<string, string> = JSON.parse(
      fs.readFileSync(path.join(__dirname, "fixtures", "serialized-providers-0.1.0.json"), "utf8"),
    );
    await rewriteStoredProviders(e.stack, (type) => old[type]);
    // 0.1.0 was pulumi-runpod too: the same upgrade step as from 0.2.0.
    installPackageCopy(e.workDir, "pulumi-runpod", path.join(e.workDir, "alias-provider-loaded"));
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
