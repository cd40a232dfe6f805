import * as fs from "node:fs";
import * as path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createLanguageStack, type Language, type LanguageStack, PROJECT } from "./language-stack";

/** The secret env value the programs put into their template (config `apiToken`). */
const API_TOKEN = "tok_LANG_SECRET_3b9e71";
/** The envelope the engine stores a secret in: its signature key. */
const SECRET_SIG = "4dabf18193072939515e22adb298388d";

/** Every file under `dir` as text, for the secret search (the plugin's own copy left out: it holds no state). */
function filesText(dir: string, skip: (rel: string) => boolean = () => false): string {
  let text = "";
  const walk = (rel: string) => {
    for (const entry of fs.readdirSync(path.join(dir, rel), { withFileTypes: true })) {
      const child = path.join(rel, entry.name);
      if (skip(child)) continue;
      if (entry.isDirectory()) walk(child);
      else if (entry.isFile()) text += `${child}\n${fs.readFileSync(path.join(dir, child), "utf8")}\n`;
    }
  };
  walk("");
  return text;
}

/**
 * A whole deployment in `language` through the provider plugin, on the real engine against the
 * emulator: the program of test/e2e/languages/<language> (the one docs/languages.md shows) deploys
 * a volume, a template with a secret env value and an endpoint; grows the volume in place;
 * previews no change; is refused a shrink at preview; destroys to nothing. Then no credential or
 * secret env value may be in plaintext in the state, the stack's files or anything printed.
 */
export function describeLanguageJourney(language: Language): void {
  describe(`a whole deployment in ${language} through the plugin runpod-iac`, { timeout: 600_000 }, () => {
    let s: LanguageStack;
    /** Secrets the platform generated (v2's Jupyter password), searched for with the program's. */
    const generated: string[] = [];
    let volumeId: string;
    let templateId: string;
    let endpointId: string;

    // Cold: the Python environment or the Go build (minutes on 2 cores); warm: seconds.
    beforeAll(async () => {
      s = await createLanguageStack(language, API_TOKEN);
    }, 1_200_000);
    afterAll(async () => {
      await s?.dispose();
    });

    it("deploys the volume, a template with a secret env value and the endpoint", async () => {
      s.setConfig(`${PROJECT}:volumeSize`, { value: "20" });
      const up = await s.step("up");
      expect(up.error).toBeUndefined();
      expect(up.changes).toMatchObject({ create: expect.any(Number) });
      volumeId = String(up.outputs.volumeId?.value);
      templateId = String(up.outputs.templateId?.value);
      endpointId = String(up.outputs.endpointId?.value);
      expect(up.outputs.volumeSize).toEqual({ value: 20, secret: false });
      expect(await s.client.networkVolumes.get(volumeId)).toMatchObject({ size: 20, dataCenterId: "EU-RO-1" });
      const template = await s.client.templates.get(templateId);
      expect(template).toMatchObject({
        imageName: "ghcr.io/acme/echo:1.0",
        isServerless: true,
        env: expect.objectContaining({ GREETING: "hello", API_TOKEN }),
      });
      if (typeof template.env?.JUPYTER_PASSWORD === "string") generated.push(template.env.JUPYTER_PASSWORD);
      const endpoint = await s.client.v2.serverless.get(endpointId);
      expect(endpoint).toMatchObject({
        image: "ghcr.io/acme/echo:1.0",
        networkVolumes: [volumeId],
        dataCenterIds: ["EU-RO-1"],
        workers: expect.objectContaining({ max: 2, idleTimeout: 5 }),
      });
      expect(String(up.outputs.endpointUrl?.value)).toContain(endpointId);
      // The env is stored, as ciphertext: only --show-secrets decrypts it.
      const plain = await s.cli(["stack", "export"]);
      const shown = await s.cli(["stack", "export", "--show-secrets"]);
      expect(plain).not.toContain(API_TOKEN);
      expect(shown).toContain(API_TOKEN);
      const resources = (
        JSON.parse(plain) as { deployment: { resources: { type: string; outputs?: Record<string, unknown> }[] } }
      ).deployment.resources;
      expect(resources.find((r) => r.type === "runpod-iac:index:Template")?.outputs?.env).toHaveProperty(SECRET_SIG);
    });

    it("grows the volume in place: same id, the new size on the platform", async () => {
      s.setConfig(`${PROJECT}:volumeSize`, { value: "40" });
      const up = await s.step("up");
      expect(up.error).toBeUndefined();
      expect(up.changes).toMatchObject({ update: 1 });
      expect(up.changes).not.toHaveProperty("replace");
      expect(up.changes).not.toHaveProperty("create");
      expect(up.outputs.volumeId?.value).toBe(volumeId);
      expect(up.outputs.volumeSize?.value).toBe(40);
      expect(await s.client.networkVolumes.get(volumeId)).toMatchObject({ size: 40 });
    });

    // The Python and Go programs read imageName and workersMin (docs/languages.md); YAML's shows no rollout.
    if (language !== "yaml") {
      it("bumps the image: up returns once the worker serves it; a crashing image fails, rolled back", async () => {
        s.setConfig(`${PROJECT}:workersMin`, { value: "1" });
        s.setConfig(`${PROJECT}:imageName`, { value: "ghcr.io/acme/echo:1.1" });
        const up = await s.step("up");
        expect(up.error).toBeUndefined();
        const served = async () =>
          (await s.client.v2.serverless.workers(endpointId)).workers.map((w) => `${w.status} ${w.image}`);
        expect(await served()).toEqual(["IDLE ghcr.io/acme/echo:1.1"]);

        s.setConfig(`${PROJECT}:imageName`, { value: "ghcr.io/acme/crash:2" });
        const failed = await s.step("up");
        expect(failed.error).toMatch(
          new RegExp(`endpoint ${endpointId} did not roll out release \\w+: .*CUDA error: out of memory`),
        );
        expect(failed.error).toContain(`Rolled back: template ${templateId}`);
        expect((await s.client.templates.get(templateId)).imageName).toBe("ghcr.io/acme/echo:1.1");
        const job = await s.client.jobs(endpointId).runSync({ input: { after: "rollback" } }, { wait: 30_000 });
        expect(job).toMatchObject({ status: "COMPLETED", output: { after: "rollback" } });
        // Back to what is deployed, so the preview below has nothing to change.
        s.setConfig(`${PROJECT}:imageName`, { value: "ghcr.io/acme/echo:1.1" });
      });
    }

    it("previews no change, asking the platform nothing", async () => {
      const before = await s.requestCount();
      const preview = await s.step("preview");
      expect(preview.error).toBeUndefined();
      expect(Object.keys(preview.changes)).toEqual(["same"]);
      expect(await s.requestCount()).toBe(before);
    });

    it("is refused a shrink (and, in YAML, a size under v2's bound) at preview, naming the field, the values and the rule, with nothing sent", async () => {
      s.setConfig(`${PROJECT}:volumeSize`, { value: "10" });
      const before = await s.requestCount();
      const preview = await s.step("preview");
      expect(preview.ok).toBe(false);
      expect(preview.error).toContain(
        "size can only grow: the volume has 40 GB and 10 GB was requested; network volumes cannot shrink",
      );
      if (language === "yaml") {
        // The stack talks management API v2, whose volumes are 10 to 4096 GB (v1's 0 to 4000 do
        // not apply). One language shows what the engine prints; the check is the same for all.
        s.setConfig(`${PROJECT}:volumeSize`, { value: "5" });
        const small = await s.step("preview");
        expect(small.ok).toBe(false);
        expect(small.error).toContain("property size value {5} has a problem: ");
        expect(small.error).toContain("must be at least 10 GB (on management API v2)");
      }
      expect(await s.requestCount()).toBe(before);
      expect(await s.client.networkVolumes.get(volumeId)).toMatchObject({ size: 40 });
      s.setConfig(`${PROJECT}:volumeSize`, { value: "40" });
    });

    it("destroys to nothing", async () => {
      const destroy = await s.step("destroy");
      expect(destroy.error).toBeUndefined();
      expect(destroy.changes).toMatchObject({ delete: expect.any(Number) });
      expect(await s.client.networkVolumes.list()).toEqual([]);
      expect(await s.client.templates.list()).toEqual([]);
      expect(await s.client.endpoints.list()).toEqual([]);
      const state = JSON.parse(await s.cli(["stack", "export"])) as { deployment: { resources?: unknown[] } };
      expect(state.deployment.resources ?? []).toEqual([]);
    });

    it("left no credential or secret env value in plaintext in the state, the stack's files or any log", async () => {
      const stored = [
        await s.backend.storedText(),
        filesText(s.workDir),
        // The Pulumi home, without the plugin's installed copy (code, no state).
        filesText(s.home, (rel) => rel.startsWith(`plugins${path.sep}`)),
      ].join("\n");
      const log = s.log();
      expect(log.length).toBeGreaterThan(0);
      for (const secret of [s.apiKey, API_TOKEN, ...generated]) {
        expect(stored, "a secret in the stored state or files").not.toContain(secret);
        expect(log, "a secret in the engine's or the program's output").not.toContain(secret);
      }
    });
  });
}
