import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import * as path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ConfigurationError, RequestValidationError, S3Error, VolumeS3Client } from "../../../sdk";
import { HashCache } from "../../../sdk/s3/content-hash";
import { detectDrift } from "../../../sdk/s3/sync-drift";
import { planSync } from "../../../sdk/s3/sync-plan";
import { runSync, type SyncProgress, VolumeSyncError } from "../../../sdk/s3/sync-run";
import type { VolumeManifest } from "../../../sdk/s3/volume-manifest";
import { createVolume, S3_KEY } from "../emulator/s3-helpers";
import { type TestEmulator, startTestEmulator } from "../emulator/helpers";

/*
 * The S3 client and the volume-sync library (sdk/s3/) over real HTTP against the emulator's
 * S3-compatible API: what the VolumeFiles resource does at create, update, refresh and delete.
 * PutObject is limited to 64 KiB here, so a 200 KiB file goes in 16 KiB parts.
 */

const LIMIT = 64 * 1024;
const HANDLERS = path.join(__dirname, "..", "emulator", "fixtures", "handlers");
let t: TestEmulator;
let dir: string;
let s3: VolumeS3Client;

beforeAll(async () => {
  t = await startTestEmulator({ s3: { putObjectLimit: LIMIT }, handlersDir: HANDLERS, timeScale: 1 });
  dir = await mkdtemp(path.join(os.tmpdir(), "volume-sync-"));
  s3 = clientFor(t.emu.s3Url);
});
afterAll(async () => {
  s3.close();
  await t.emu.close();
  await rm(dir, { recursive: true, force: true });
});

function clientFor(s3Url: string, secret = S3_KEY.secretAccessKey): VolumeS3Client {
  return new VolumeS3Client({
    s3Url,
    s3AccessKeyId: S3_KEY.accessKeyId,
    s3SecretAccessKey: secret,
    putObjectLimit: LIMIT,
    partSize: 16 * 1024,
    retryBaseDelayMs: 1,
  });
}

/** A folder of `files` (name to content) under the test's temporary folder. */
async function folder(name: string, files: Record<string, string | Buffer>): Promise<string> {
  const root = path.join(dir, name);
  for (const [file, content] of Object.entries(files)) {
    await mkdir(path.dirname(path.join(root, file)), { recursive: true });
    await writeFile(path.join(root, file), content);
  }
  return root;
}

/** Every key under `prefix` with its size (folders as `<path>/`). */
async function listing(
  volume: { dataCenterId: string; volumeId: string },
  prefix = "",
): Promise<Record<string, number>> {
  const out: Record<string, number> = {};
  for await (const o of s3.list(volume, prefix)) out[o.key] = o.size;
  return out;
}

const big = Buffer.alloc(200 * 1024, 3);

describe("syncing a folder onto a volume (sdk/s3: planSync, runSync, detectDrift)", () => {
  it("creates, updates only what changed, removes only its own files, and finds and repairs drift", async () => {
    const volume = { dataCenterId: "EU-RO-1", volumeId: await createVolume(t.api) };
    const src = await folder("weights", { "config.json": "{}", "tokenizer/vocab.txt": "a b c", "model.bin": big });
    await s3.putBytes(volume, "models/llama/notes-by-hand.txt", "not the sync's");
    const progress: SyncProgress[] = [];

    // Create: every file, the large one in parts.
    const plan = await planSync({ source: { folder: src }, prefix: "/models/llama/" });
    expect([plan.prefix, plan.upload.length, plan.uploadBytes, plan.remove]).toEqual([
      "models/llama/",
      3,
      big.length + 7,
      [],
    ]);
    const created = await runSync(s3, volume, plan, undefined, {
      onProgress: (p) => progress.push(p),
      progressIntervalMs: 0,
    });
    expect(progress.at(-1)).toMatchObject({
      filesDone: 3,
      filesTotal: 3,
      bytesDone: big.length + 7,
      bytesTotal: big.length + 7,
    });
    expect(await listing(volume)).toEqual({
      "models/llama/config.json": 2,
      "models/llama/model.bin": big.length,
      "models/llama/notes-by-hand.txt": 14,
      "models/llama/tokenizer/vocab.txt": 5,
    });
    expect(created.manifest["model.bin"]).toMatchObject({
      etag: expect.stringMatching(/-13$/),
      md5: expect.any(String),
    });
    expect(created.manifest["config.json"]).toEqual({
      size: 2,
      sha256: plan.files[0]!.sha256,
      etag: plan.files[0]!.md5,
    });

    // Update: one file changed, one added, one removed; the rest is not sent, the hand-made file stays.
    await writeFile(path.join(src, "config.json"), '{"v":2}');
    await writeFile(path.join(src, "extra.txt"), "new");
    await rm(path.join(src, "tokenizer"), { recursive: true });
    const update = await planSync({ source: { folder: src }, prefix: "models/llama", previous: created.manifest });
    expect(update.upload.map((f) => f.name)).toEqual(["config.json", "extra.txt"]);
    expect(update.unchanged.map((f) => f.name)).toEqual(["model.bin"]);
    expect(update.remove.map((f) => f.key)).toEqual(["models/llama/tokenizer/vocab.txt"]);
    expect(update.hash).not.toBe(plan.hash);
    const updated = await runSync(s3, volume, update, created.manifest);
    expect(Object.keys(updated.manifest).sort()).toEqual(["config.json", "extra.txt", "model.bin"]);
    expect((await s3.getBytes(volume, "models/llama/config.json")).toString()).toBe('{"v":2}');
    expect(Object.keys(await listing(volume))).toEqual([
      "models/llama/config.json",
      "models/llama/extra.txt",
      "models/llama/model.bin",
      "models/llama/notes-by-hand.txt",
      "models/llama/tokenizer/",
    ]);

    // Drift: a file changed and one removed by hand, found from a listing; the next sync repairs both.
    await s3.putBytes(volume, "models/llama/extra.txt", "edited by hand");
    await s3.delete(volume, "models/llama/model.bin");
    const drift = await detectDrift(s3, volume, "models/llama/", updated.manifest);
    expect([drift.changed, drift.missing]).toEqual([["extra.txt"], ["model.bin"]]);
    const repair = await planSync({ source: { folder: src }, prefix: "models/llama", previous: drift.manifest });
    expect(repair.upload.map((f) => f.name)).toEqual(["extra.txt", "model.bin"]);
    const repaired = await runSync(s3, volume, repair, drift.manifest);
    expect((await detectDrift(s3, volume, "models/llama/", repaired.manifest)).changed).toEqual([]);
    expect((await s3.getBytes(volume, "models/llama/extra.txt")).toString()).toBe("new");
    expect(repair.hash).toBe(update.hash);
  });

  it("completes a file whose upload a killed run left half-sent, aborting the abandoned upload first", async () => {
    const volume = { dataCenterId: "EU-RO-1", volumeId: await createVolume(t.api) };
    const src = await folder("resume", { "model.bin": big });
    const plan = await planSync({ source: { folder: src } });

    // A run stopped in the middle of the large file: no object under its key, its upload left open.
    const stop = new AbortController();
    const stopped = runSync(s3, volume, plan, undefined, {
      signal: stop.signal,
      progressIntervalMs: 0,
      onProgress: (p) => p.bytesDone > 20 * 1024 && stop.abort(),
    });
    const failure = await stopped.catch((e: unknown) => e);
    expect(failure).toBeInstanceOf(VolumeSyncError);
    expect((failure as VolumeSyncError).code).toBe("aborted");
    expect((failure as VolumeSyncError).manifest).toEqual({});
    expect(await s3.head(volume, "model.bin")).toBeUndefined();
    // What a process killed outright leaves: an upload with a part, never completed.
    const leftover = await openUpload(volume, "model.bin");

    const resumed = await runSync(s3, volume, plan, (failure as VolumeSyncError).manifest);
    expect(resumed.abortedUploads).toBe(1);
    expect(await s3.listUploads(volume)).toEqual([]);
    expect((await s3.head(volume, "model.bin"))?.size).toBe(big.length);
    expect(leftover).not.toBe("");
  });

  it("retries the platform's 502s during transfer with a fresh body each time", async () => {
    const volume = { dataCenterId: "EU-RO-1", volumeId: await createVolume(t.api) };
    const proxy = await flakyProxy(t.emu.url, 3);
    const flaky = clientFor(proxy.s3Url);
    try {
      const src = await folder("flaky", { "a.txt": "alpha", "model.bin": big });
      const plan = await planSync({ source: { folder: src } });
      const progress: SyncProgress[] = [];
      await runSync(flaky, volume, plan, undefined, { onProgress: (p) => progress.push(p), progressIntervalMs: 0 });
      expect(proxy.refused()).toBe(3);
      expect(progress.at(-1)?.bytesDone).toBe(big.length + 5);
      expect((await s3.getBytes(volume, "model.bin")).equals(big)).toBe(true);
    } finally {
      flaky.close();
      await proxy.close();
    }
  });

  it("lets a worker of an endpoint with the volume read a synced file", async () => {
    const volumeId = await createVolume(t.api);
    const src = await folder("served", { "prompt.txt": "You are helpful." });
    await runSync(
      s3,
      { dataCenterId: "EU-RO-1", volumeId },
      await planSync({ source: { folder: src }, prefix: "cfg" }),
      undefined,
    );
    const template = await t.api.post("/v1/templates", {
      name: "reader",
      imageName: "ghcr.io/acme/volume-read:1",
      isServerless: true,
    });
    const endpoint = await t.api.post("/v1/endpoints", {
      name: "reader",
      templateId: template.body.id,
      networkVolumeId: volumeId,
    });
    const done = await t.api.post(`/v2/${endpoint.body.id}/runsync`, { input: { path: "cfg/prompt.txt" } });
    expect(done.body.output).toEqual({ text: "You are helpful." });
  });

  it("takes named files and strings (an AssetArchive) and reads each file once per process", async () => {
    const src = await folder("assets", { "w.bin": "weights", "dir/x": "x" });
    const hashes = new HashCache();
    const source = {
      entries: {
        "weights/w.bin": { path: path.join(src, "w.bin") },
        "README.md": { text: "# hi" },
        extra: { folder: path.join(src, "dir") },
      },
    };
    const first = await planSync({ source, hashes });
    const again = await planSync({ source, hashes, previous: manifestOf(first.files) });
    expect(first.files.map((f) => f.key)).toEqual(["README.md", "extra/x", "weights/w.bin"]);
    expect([again.upload.length, again.unchanged.length, hashes.reads]).toEqual([0, 3, 2]);
  });
});

describe("refusals", () => {
  it("refuses bad input before any request, naming field, value and rule", async () => {
    const src = await folder("bad", { "ok.txt": "x", "big.bin": Buffer.alloc(2000) });
    const refused = (input: Parameters<typeof planSync>[0]) =>
      planSync(input).then(
        () => undefined,
        (e: unknown) => e,
      );
    const missing = await refused({ source: { folder: path.join(dir, "nope") } });
    expect(missing).toBeInstanceOf(RequestValidationError);
    expect((missing as RequestValidationError).problems).toEqual([
      { field: "files", value: JSON.stringify(path.join(dir, "nope")), rule: "does not exist" },
    ]);
    const keys = (await refused({
      source: { entries: { "a/../b": { text: "x" }, a: { text: "1" }, "a/c": { text: "2" } } },
    })) as RequestValidationError;
    expect(keys.problems.map((p) => p.field)).toEqual(["files.a/../b", "files.a", "files.a"]);
    expect(keys.message).toContain(
      'files.a/../b = "a/../b": is not a key the platform can store: must not contain the path segment ".."',
    );
    const full = (await refused({ source: { folder: src }, volumeSizeGb: 0.000001 })) as RequestValidationError;
    expect(full.message).toContain("files = 2001 bytes in 2 files: must fit in the volume's 0.000001 GB (1000 bytes)");
    expect(
      ((await refused({ source: { folder: src }, prefix: "a//b" })) as RequestValidationError).problems[0]!.field,
    ).toBe("prefix");
  });

  it("refuses missing credentials naming the settings, and a wrong secret as 'the S3 key was refused', never the secret", async () => {
    const volume = { dataCenterId: "EU-RO-1", volumeId: await createVolume(t.api) };
    const none = new VolumeS3Client({ s3Url: t.emu.s3Url, s3AccessKeyId: "", s3SecretAccessKey: "" });
    const noKey = await none.head(volume, "x").catch((e: unknown) => e);
    expect(noKey).toBeInstanceOf(ConfigurationError);
    expect((noKey as Error).message).toMatch(
      /s3AccessKeyId option or RUNPOD_S3_ACCESS_KEY_ID.*s3SecretAccessKey option \(as a secret\) or RUNPOD_S3_SECRET_ACCESS_KEY/,
    );
    const secret = "rps_definitely_wrong_0123456789";
    const wrong = clientFor(t.emu.s3Url, secret);
    const refused = (await wrong.putBytes(volume, "x", "y").catch((e: unknown) => e)) as S3Error;
    wrong.close();
    expect(refused).toBeInstanceOf(S3Error);
    expect([refused.code, refused.s3Code, refused.status]).toEqual(["unauthorized", "SignatureDoesNotMatch", 403]);
    expect(refused.message).toContain("the S3 key was refused");
    expect(refused.message).not.toContain(secret);
    expect(refused.message).not.toContain("<");
    const elsewhere = (await s3
      .head({ dataCenterId: "US-KS-2", volumeId: volume.volumeId }, "x")
      .catch((e: unknown) => e)) as S3Error;
    expect([elsewhere.code, elsewhere.s3Code]).toEqual(["not_found", "NoSuchBucket"]);
    expect(elsewhere.message).toContain(
      `network volume ${volume.volumeId} is not a volume of this account in data center US-KS-2`,
    );
  });
});

/** A manifest as a finished sync of `files` would have written it. */
function manifestOf(files: readonly { name: string; size: number; sha256: string; md5: string }[]): VolumeManifest {
  return Object.fromEntries(files.map((f) => [f.name, { size: f.size, sha256: f.sha256, etag: f.md5 }]));
}

/** Starts a multipart upload of `key` and sends one part, as a killed process would leave it; answers its id. */
async function openUpload(volume: { dataCenterId: string; volumeId: string }, key: string): Promise<string> {
  const { S3Client, CreateMultipartUploadCommand, UploadPartCommand } = await import("@aws-sdk/client-s3");
  const raw = new S3Client({
    endpoint: s3.endpointOf(volume.dataCenterId),
    region: volume.dataCenterId,
    forcePathStyle: true,
    credentials: S3_KEY,
  });
  const { UploadId } = await raw.send(new CreateMultipartUploadCommand({ Bucket: volume.volumeId, Key: key }));
  await raw.send(
    new UploadPartCommand({ Bucket: volume.volumeId, Key: key, UploadId, PartNumber: 1, Body: big.subarray(0, 1000) }),
  );
  raw.destroy();
  return UploadId!;
}

/**
 * A proxy in front of the emulator that answers the first `failures` requests carrying a body
 * (PutObject, UploadPart) with 502 after reading it, as the platform's gateway may during a
 * transfer, and forwards everything else as it came (the Host header too, which is signed).
 */
async function flakyProxy(target: string, failures: number) {
  const http = await import("node:http");
  let refused = 0;
  const server = http.createServer((req, res) => {
    const body = req.method === "PUT" && refused < failures;
    if (body) {
      refused++;
      req.resume();
      req.on("end", () => res.writeHead(502, { "content-type": "text/html" }).end("<html>bad gateway</html>"));
      return;
    }
    const url = new URL(req.url ?? "/", target);
    const upstream = http.request(url, { method: req.method, headers: req.headers }, (answer) => {
      res.writeHead(answer.statusCode ?? 500, answer.headers);
      answer.pipe(res);
    });
    upstream.on("error", () => res.destroy());
    req.pipe(upstream);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as { port: number };
  return {
    s3Url: `http://127.0.0.1:${port}/s3api-{dc}`,
    refused: () => refused,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
