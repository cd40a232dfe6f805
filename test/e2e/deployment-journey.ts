import * as fs from "node:fs";
import * as path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { REPO_ROOT } from "../../scripts/pulumi-cli";
import { type BackendKind, openStateBackend, type StateBackend } from "../backends/state-backend";
import { copyExample, createE2EStack, defaultE2EApiVersion, type E2EApiVersion, type E2EStack } from "./harness";

/**
 * A whole deployment (registry credential -> template -> volume -> endpoint -> a job)
 * through the real engine against the emulator, one stack through its life: the quickstart
 * program (examples/quickstart), as `npm start` deploys it. The steps build on each other, so
 * they run in order. Every secret of the program is searched for afterwards, in everything the
 * backend stores. `deployment.test.ts` runs it on a file backend; the shared backends' test files
 * (test/resilience/backend-*.test.ts) on PostgreSQL and S3, without the two steps a backend
 * cannot change (drift found by refresh, the policy pack's refusal at preview).
 */
const PASSWORD = "rpg_PASSWORD_one_7f3c1a";
const ROTATED = "rpg_PASSWORD_two_91bd44";
const API_TOKEN = "tok_ENV_SECRET_5e8d02";
const SECRETS = [PASSWORD, ROTATED, API_TOKEN];

/**
 * Declares the journey's tests on a fresh backend of `kind`, the stack on management API
 * `apiVersion` (default: the harness's, v2 unless RUNPOD_E2E_API_VERSION says otherwise).
 */
export function describeDeploymentJourney(kind: BackendKind, apiVersion: E2EApiVersion = defaultE2EApiVersion()): void {
  let backend: StateBackend;
  let e: E2EStack;
  /** Everything the engine printed in this journey's operations, searched for secrets at the end. */
  let engineOutput = "";
  const onOutput = (s: string) => {
    engineOutput += s;
  };
  const out = (outputs: Record<string, { value: unknown }>, key: string) => outputs[key]?.value;
  /** Secrets the platform generated (v2's Jupyter password), searched for with the program's. */
  const generatedSecrets: string[] = [];

  async function runEcho(endpointId: string, input: Record<string, unknown>) {
    return e.client.jobs(endpointId).runSync({ input }, { wait: 30_000 });
  }

  const on = kind === "file" ? "" : ` on a ${kind} backend`;
  /** The image an endpoint runs: v1 links it to its template; v2 holds its own copy. */
  async function endpointImage(endpointId: string, templateId: string): Promise<string | undefined> {
    if (apiVersion === "v1") return (await e.client.templates.get(templateId)).imageName;
    return (await e.client.v2.serverless.get(endpointId)).image;
  }
  describe(`a whole deployment through the real Pulumi engine${on}, on ${apiVersion}`, { timeout: 240_000 }, () => {
    beforeAll(async () => {
      backend = await openStateBackend(kind);
      e = await createE2EStack(
        "quickstart",
        {
          "quickstart:registryPassword": { value: PASSWORD, secret: true },
          "quickstart:apiToken": { value: API_TOKEN, secret: true },
        },
        { workDir: copyExample("quickstart"), typescript: true, backend, apiVersion },
      );
      // A backend's start (a cluster, a server) and a stack's set-up: minutes on a busy 2-core machine.
    }, 300_000);
    afterAll(async () => {
      await e?.dispose();
      await backend?.close();
    });

    let registryId: string;
    let templateId: string;
    let endpointId: string;

    it("creates the credential, the template that uses it, the volume and the endpoint, and runs a job on the declared image", async () => {
      const up = await e.stack.up({ onOutput, diff: true });
      expect(up.summary.resourceChanges).toMatchObject({ create: 5 });
      registryId = String(out(up.outputs, "registryId"));
      templateId = String(out(up.outputs, "templateId"));
      endpointId = String(out(up.outputs, "endpointId"));
      expect(await e.client.containerRegistryAuth.list()).toEqual([
        { id: registryId, name: out(up.outputs, "registryName") },
      ]);
      expect(await e.client.templates.get(templateId)).toMatchObject({
        imageName: "ghcr.io/acme/echo:1.0",
        isServerless: true,
        containerRegistryAuthId: registryId,
        env: { GREETING: "hello", API_TOKEN },
      });
      // v1 links the endpoint to its template; v2 copies the template's settings and keeps no link.
      expect((await e.client.endpoints.get(endpointId)).templateId).toBe(apiVersion === "v1" ? templateId : undefined);
      expect(await endpointImage(endpointId, templateId)).toBe("ghcr.io/acme/echo:1.0");
      // The template's image names the emulator's built-in `echo` handler.
      const job = await runEcho(endpointId, { hello: "world" });
      expect(job).toMatchObject({ status: "COMPLETED", output: { hello: "world" } });
      // The state holds both secrets, as ciphertext: only --show-secrets decrypts them.
      const plain = await e.cli(["stack", "export"]);
      const shown = await e.cli(["stack", "export", "--show-secrets"]);
      for (const secret of [PASSWORD, API_TOKEN]) {
        expect(plain.stdout, secret).not.toContain(secret);
        expect(shown.stdout, secret).toContain(secret);
      }
      // The template's whole env output and the credential's password output are secret values.
      const SECRET_SIG = "4dabf18193072939515e22adb298388d";
      const outputsOf = (type: string) =>
        JSON.parse(plain.stdout).deployment.resources.find((r: { type: string }) => r.type.endsWith(type)).outputs;
      expect(outputsOf(":Template").env).toHaveProperty(SECRET_SIG);
      if (apiVersion === "v2") {
        // v2 started Jupyter (its default) with a password it generated: a secret output of its own.
        const generated = (await e.client.templates.get(templateId)).env?.JUPYTER_PASSWORD;
        expect(generated).toEqual(expect.any(String));
        expect(outputsOf(":Template").injectedEnv).toHaveProperty(SECRET_SIG);
        expect(plain.stdout).not.toContain(generated);
        generatedSecrets.push(generated as string);
      }
      expect(outputsOf(":ContainerRegistryAuth").password).toHaveProperty(SECRET_SIG);
    });

    it("bumps the image in place: same template, same endpoint, rolled onto the new image, jobs run on it", async () => {
      await e.stack.setConfig("quickstart:imageName", { value: "ghcr.io/acme/echo:1.1" });
      const up = await e.stack.up({ onOutput, diff: true });
      // One update, the template's: v1's platform rolls the linked endpoint, v2's provider re-applies the template to it.
      expect(up.summary.resourceChanges).toMatchObject({ update: 1, same: 4 });
      expect(out(up.outputs, "templateId")).toBe(templateId);
      expect(out(up.outputs, "endpointId")).toBe(endpointId);
      expect(await e.client.templates.get(templateId)).toMatchObject({ imageName: "ghcr.io/acme/echo:1.1" });
      expect(await endpointImage(endpointId, templateId)).toBe("ghcr.io/acme/echo:1.1");
      expect(await runEcho(endpointId, { n: 2 })).toMatchObject({ status: "COMPLETED", output: { n: 2 } });
    });

    it("rotates the password: a new credential, the template repointed to it, the old one gone", async () => {
      await e.stack.setConfig("quickstart:registryPassword", { value: ROTATED, secret: true });
      const up = await e.stack.up({ onOutput, diff: true });
      expect(up.summary.resourceChanges).toMatchObject({ replace: 1, update: 1 });
      const rotatedId = String(out(up.outputs, "registryId"));
      expect(rotatedId).not.toBe(registryId);
      expect(String(out(up.outputs, "registryName"))).toMatch(/^registry-[0-9a-z]{7}-1$/);
      expect((await e.client.containerRegistryAuth.list()).map((a) => a.id)).toEqual([rotatedId]);
      expect(await e.client.templates.get(templateId)).toMatchObject({ containerRegistryAuthId: rotatedId });
      // On v2 the endpoint holds its own copy of the credential: the template was re-applied to it.
      if (apiVersion === "v2") expect((await e.client.v2.serverless.get(endpointId)).registry).toBe(rotatedId);
      expect(out(up.outputs, "templateId")).toBe(templateId);
      expect(out(up.outputs, "endpointId")).toBe(endpointId);
      expect((await e.stack.preview({ onOutput })).changeSummary).toEqual({ same: 5 });
    });

    // What a backend cannot change (the provider's refresh and the pack's refusal) runs on files
    // only: the shared backends run the steps whose state or secrets they store, in less CI time.
    if (kind === "file") {
      it("sees an image changed outside Pulumi on refresh, and the next up restores the declared one", async () => {
        await e.client.templates.update(templateId, { imageName: "ghcr.io/acme/fail:9" });
        // v1 rolls the linked endpoint onto the wrong image; v2 changes only the template.
        const broken = await runEcho(endpointId, { message: "pulled the wrong image" });
        expect(broken).toMatchObject({ status: apiVersion === "v1" ? "FAILED" : "COMPLETED" });
        const refresh = await e.stack.refresh({ onOutput });
        expect(refresh.summary.resourceChanges).toMatchObject({ update: 1 });
        const up = await e.stack.up({ onOutput, diff: true });
        expect(up.summary.resourceChanges).toMatchObject({ update: 1 });
        expect(await e.client.templates.get(templateId)).toMatchObject({ imageName: "ghcr.io/acme/echo:1.1" });
        expect(await endpointImage(endpointId, templateId)).toBe("ghcr.io/acme/echo:1.1");
        expect(await runEcho(endpointId, { n: 3 })).toMatchObject({ status: "COMPLETED", output: { n: 3 } });
      });

      it("refuses a `latest` image at preview with the policy pack, naming the template, and changes nothing", async () => {
        await e.stack.setConfig("quickstart:imageName", { value: "ghcr.io/acme/echo:latest" });
        await e.takeRequestCounts();
        const refused = await e.stack.preview({ onOutput, policyPacks: [path.join(REPO_ROOT, "policy")] }).then(
          () => undefined,
          (err: Error) => err,
        );
        expect(refused).toBeInstanceOf(Error);
        engineOutput += refused?.message ?? "";
        expect(engineOutput).toContain('Template "worker": imageName = "ghcr.io/acme/echo:latest"');
        // The provider sent nothing; the pack's runpod-live-catalog read the catalog (its environment
        // has the key and the emulator's URL), and nothing else was asked.
        const asked = Object.keys(await e.takeRequestCounts());
        expect(asked.filter((route) => !route.includes("/v2/catalog/"))).toEqual([]);
        expect(await e.client.templates.get(templateId)).toMatchObject({ imageName: "ghcr.io/acme/echo:1.1" });
        await e.stack.setConfig("quickstart:imageName", { value: "ghcr.io/acme/echo:1.1" });
      });
    }

    it("destroys everything, leaving the emulator empty", async () => {
      const result = await e.stack.destroy({ onOutput });
      expect(result.summary.result).toBe("succeeded");
      expect(await e.client.endpoints.list()).toEqual([]);
      expect(await e.client.networkVolumes.list()).toEqual([]);
      expect(await e.client.templates.list()).toEqual([]);
      expect(await e.client.containerRegistryAuth.list()).toEqual([]);
    });

    it("never wrote a secret in plaintext: not in anything the backend stores, the stack config or the engine's output", async () => {
      // Every checkpoint of the stack's history (backups, history) and the stack's config.
      const stored = `${await e.backend.storedText()}\n${fs.readFileSync(path.join(e.workDir, "Pulumi.e2e.yaml"), "utf8")}`;
      expect(stored).toContain(".pulumi/backups/");
      // The search can find what the state holds in plaintext: the template's image.
      expect(stored).toContain("ghcr.io/acme/echo:1.1");
      for (const secret of [...SECRETS, ...generatedSecrets, ...e.backend.credentials]) {
        expect(engineOutput, secret).not.toContain(secret);
        expect(stored, `${secret} stored in the ${kind} backend`).not.toContain(secret);
      }
    });
  });
}
