import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import * as path from "node:path";
import { afterAll, beforeAll, beforeEach } from "vitest";
import type { ApiVersion } from "../../../sdk/config";
import { configureDirect } from "../../../provider/provider-config";
import { takeUndeliveredNotices } from "../../../provider/engine-notice";
import { VolumeS3Client } from "../../../sdk/s3/volume-s3-client";
import { KEY, startTestEmulator, type TestEmulator } from "../emulator/helpers";
import { S3_KEY } from "../emulator/s3-helpers";

/*
 * The fixture of the VolumeFiles provider tests: one emulator for the file (PutObject limited to
 * 64 KiB, so larger files go in parts; 1 GB of a volume's size holding 1 MB, so a volume fills up
 * in a test), the provider configured for it (S3 key, URL, and the same PutObject limit through
 * RUNPOD_S3_PUT_LIMIT), a client to look at the volume with, and `files` as the engine hands it over.
 */

/** The emulator's PutObject limit in these tests. */
export const LIMIT = 64 * 1024;
/** What one GB of a volume's size holds in these tests. */
export const BYTES_PER_GB = 1_000_000;
export const URN = "urn:pulumi:dev::p::pulumi-nodejs:dynamic/runpod:VolumeFiles::weights";
const HANDLERS = path.join(__dirname, "..", "emulator", "fixtures", "handlers");

const SIG = "4dabf18193072939515e22adb298388d";
/** A `FileArchive` of `folder` as the engine hands it to a provider, with its hash of the archive. */
export const folderArchive = (folder: string, hash: string) => ({
  [SIG]: "0def7320c3a5731c473e5ecbe6d01bc7",
  path: folder,
  hash,
});
/** The same archive as `diff` gets it: the hash alone. */
export const hashOnly = (hash: string) => ({ [SIG]: "0def7320c3a5731c473e5ecbe6d01bc7", hash });

/** Starts the emulator for the file and configures the provider for it before each test, on `version`. */
export function useVolumeFilesEmulator(version: ApiVersion = "v2") {
  const ctx = {} as {
    t: TestEmulator;
    dir: string;
    s3: VolumeS3Client;
    /** The provider's settings (the S3 secret given separately). */
    options: Record<string, string>;
  };
  beforeAll(async () => {
    ctx.t = await startTestEmulator({
      s3: { putObjectLimit: LIMIT, bytesPerGb: BYTES_PER_GB },
      handlersDir: HANDLERS,
      timeScale: 1,
    });
    ctx.dir = await mkdtemp(path.join(os.tmpdir(), "volume-files-provider-"));
    ctx.s3 = new VolumeS3Client({
      s3Url: ctx.t.emu.s3Url,
      s3AccessKeyId: S3_KEY.accessKeyId,
      s3SecretAccessKey: S3_KEY.secretAccessKey,
      putObjectLimit: LIMIT,
    });
    ctx.options = {
      apiKey: KEY,
      apiUrl: version === "v1" ? ctx.t.emu.apiUrlV1 : ctx.t.emu.apiUrlV2,
      queueUrl: ctx.t.emu.queueUrl,
      s3AccessKeyId: S3_KEY.accessKeyId,
      s3Url: ctx.t.emu.s3Url,
    };
    process.env.RUNPOD_S3_PUT_LIMIT = String(LIMIT);
  });
  beforeEach(() => {
    configureDirect({ ...ctx.options, s3SecretAccessKey: S3_KEY.secretAccessKey });
    takeUndeliveredNotices();
  });
  afterAll(async () => {
    delete process.env.RUNPOD_S3_PUT_LIMIT;
    ctx.s3?.close();
    await ctx.t?.emu.close();
    if (ctx.dir) await rm(ctx.dir, { recursive: true, force: true });
  });
  return ctx;
}

/** A folder of `files` (name to content) under `dir`. */
export async function folder(dir: string, name: string, files: Record<string, string | Buffer>): Promise<string> {
  const root = path.join(dir, name);
  for (const [file, content] of Object.entries(files)) {
    await mkdir(path.dirname(path.join(root, file)), { recursive: true });
    await writeFile(path.join(root, file), content);
  }
  return root;
}

/** Every key under `prefix` with its size. */
export async function listing(s3: VolumeS3Client, volume: { dataCenterId: string; volumeId: string }, prefix = "") {
  const out: Record<string, number> = {};
  for await (const o of s3.list(volume, prefix)) out[o.key] = o.size;
  return out;
}

/** Requests the emulator answered for the test account by route since the last call (S3 ones included), which resets them. */
export async function takeRequestCounts(t: TestEmulator): Promise<Record<string, number>> {
  const headers = { authorization: `Bearer ${KEY}` };
  const stats = (await (await fetch(`${t.emu.url}/_emulator/stats`, { headers })).json()) as {
    requests: { byRoute: Record<string, number> };
  };
  await fetch(`${t.emu.url}/_emulator/stats/reset`, { method: "POST", headers });
  return stats.requests.byRoute;
}
