import * as fs from "node:fs";
import * as path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DEFAULT_S3_ACCESS_KEY_ID, DEFAULT_S3_SECRET_ACCESS_KEY } from "../../../emulator/s3/s3-options";
import { VolumeS3Client } from "../../../sdk/s3/volume-s3-client";
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
 * a volume, the files of `./weights` on it (`VolumeFiles`), a template with a secret env value and
 * an endpoint; grows the volume in place; sends only a changed weight file; previews no change
 * (no request, the S3 API's included); is refused a shrink at preview; destroys to nothing. Then no credential or
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
    let weightsHash: unknown;
    /** The volume's files, read through its S3-compatible API. */
    const file = async (key: string) => {
      const s3 = new VolumeS3Client({
        s3Url: s.emulator.s3Url,
        s3AccessKeyId: DEFAULT_S3_ACCESS_KEY_ID,
        s3SecretAccessKey: DEFAULT_S3_SECRET_ACCESS_KEY,
      });
      try {
        return (await s3.getBytes({ dataCenterId: "EU-RO-1", volumeId }, key)).toString();
      } finally {
        s3.close();
      }
    };

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
      // The weights, on the volume under models/.
      expect(up.outputs.weightsFiles?.value).toBe(2);
      weightsHash = up.outputs.weightsHash?.value;
      expect(weightsHash).toMatch(/^[0-9a-f]{64}$/);
      expect(await file("models/tokenizer/vocab.txt")).toBe("a b c");
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

    it("sends only a changed weight file: one update, the new content on the volume, a new hash", async () => {
      fs.writeFileSync(path.join(s.workDir, "weights", "config.json"), '{"layers": 3}');
      const up = await s.step("up");
      expect(up.error).toBeUndefined();
      expect(up.changes).toMatchObject({ update: 1 });
      expect(await file("models/config.json")).toBe('{"layers": 3}');
      expect(up.outputs.weightsFiles?.value).toBe(2);
      expect(up.outputs.weightsHash?.value).not.toBe(weightsHash);
      // What the engine showed under the resource: the preview's words, then what the update did.
      expect(s.log()).toContain("uploads 1 file (13 B): config.json; 1 unchanged");
      expect(s.log()).toContain("uploaded 1 file (13 B)");
    });

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
      for (const secret of [s.apiKey, API_TOKEN, DEFAULT_S3_SECRET_ACCESS_KEY, ...generated]) {
        expect(stored, "a secret in the stored state or files").not.toContain(secret);
        expect(log, "a secret in the engine's or the program's output").not.toContain(secret);
      }
    });
  });
}
