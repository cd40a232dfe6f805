import { spawn } from "node:child_process";
import { createHash } from "node:crypto";
import { readFile, truncate, writeFile } from "node:fs/promises";
import * as path from "node:path";
import { describe, expect, it } from "vitest";
import { takeUndeliveredNotices } from "../../../provider/engine-notice";
import { PartialCreateError } from "../../../provider/errors";
import { configureDirect } from "../../../provider/provider-config";
import { volumeFilesProvider as provider } from "../../../provider/volume-files-provider";
import { decodeManifest } from "../../../provider/volume-files-state";
import { createVolume, S3_KEY } from "../emulator/s3-helpers";
import {
  BYTES_PER_GB,
  folder,
  folderArchive,
  LIMIT,
  listing,
  takeRequestCounts,
  URN,
  useVolumeFilesEmulator,
} from "./volume-files-fixture";

/*
 * What goes wrong, against the emulator: input refused before anything is sent, a refused S3 key,
 * a volume that fills up part way (the state keeps what was written), and a provider process
 * killed in the middle of a large upload (nothing half-written is visible; the next run completes).
 */

const CHILD = path.join(__dirname, "fixtures", "volume-files-create.cjs");

describe("VolumeFiles when things go wrong", () => {
  const ctx = useVolumeFilesEmulator("v2");

  it("refuses a total over the volume, a missing volume and a wrong S3 secret at up, sending no file", async () => {
    const { t, s3 } = ctx;
    const volumeId = await createVolume(t.api, 10);
    const src = await folder(ctx.dir, "too-big", { "small.txt": "s" });
    // A sparse file: 11 GB by its size, nothing on disk, never read (sizes are checked first).
    await writeFile(path.join(src, "huge.bin"), "");
    await truncate(path.join(src, "huge.bin"), 11_000_000_000);
    await takeRequestCounts(t);
    await expect(provider.create({ networkVolumeId: volumeId, files: folderArchive(src, "b1") })).rejects.toThrow(
      "VolumeFiles: files = 11000000001 bytes in 2 files: must fit in the volume's 10 GB (10000000000 bytes)",
    );
    expect(Object.keys(await takeRequestCounts(t)).filter((r) => r.includes("/s3api-"))).toEqual([]);

    const ok = await folder(ctx.dir, "fine", { "a.txt": "a" });
    await expect(provider.create({ networkVolumeId: "nope", files: folderArchive(ok, "b2") })).rejects.toThrow(
      'networkVolumeId = "nope": no network volume with this id in this account',
    );

    configureDirect({ ...ctx.options, s3SecretAccessKey: "rps_WRONG_SECRET_1234" });
    const refused = await provider
      .create({ networkVolumeId: volumeId, files: folderArchive(ok, "b3") })
      .catch((e: unknown) => e as Error);
    expect(refused).not.toBeInstanceOf(PartialCreateError);
    expect(refused.message).toContain('the S3 key was refused (access key id "user_emulator")');
    expect(refused.message).not.toContain("rps_WRONG_SECRET_1234");
    expect(refused.message).not.toContain("<Error>");
    expect(await listing(s3, { dataCenterId: "EU-RO-1", volumeId })).toEqual({});
  });

  it("records what was written when the volume fills up part way, and the next update sends only the rest", async () => {
    const { t, s3 } = ctx;
    // 10 "GB" hold 10 MB in these tests: a file by hand takes most of it.
    const volumeId = await createVolume(t.api, 10);
    const volume = { dataCenterId: "EU-RO-1", volumeId };
    const filler = await folder(ctx.dir, "filler", { "fill.bin": Buffer.alloc(10 * BYTES_PER_GB - 30_000, 1) });
    await s3.putFile(volume, "by-hand/fill.bin", path.join(filler, "fill.bin"));
    const files = Object.fromEntries(Array.from({ length: 8 }, (_, i) => [`f${i}.bin`, Buffer.alloc(10_000, i)]));
    const src = await folder(ctx.dir, "eight", files);
    const inputs = { networkVolumeId: volumeId, prefix: "data", files: folderArchive(src, "q1"), __urn: URN };

    const failure = await provider.create(inputs).catch((e: unknown) => e);
    expect(failure).toBeInstanceOf(PartialCreateError);
    const partial = failure as PartialCreateError;
    expect(partial.id).toBe(`${volumeId}/data`);
    expect(partial.message).toContain("QuotaExceeded");
    const written = Object.keys(decodeManifest(partial.properties.manifest)).sort();
    // What the state records is exactly what the volume holds of the resource's files.
    const onVolume = Object.keys(await listing(s3, volume, "data/")).map((k) => k.slice("data/".length));
    expect(written).toEqual(onVolume.sort());
    expect(written.length).toBeGreaterThan(0);
    expect(written.length).toBeLessThan(8);
    // Not the whole source: the next preview compares again.
    expect(partial.properties.__sourceHash).toBeUndefined();

    await s3.delete(volume, "by-hand/fill.bin");
    await takeRequestCounts(t);
    const done = await provider.update(partial.id, partial.properties, inputs);
    expect((await takeRequestCounts(t))["PUT /s3api-:dc/:bucket/*"]).toBe(8 - written.length);
    expect(done.outs).toMatchObject({ fileCount: 8, totalBytes: 80_000, __sourceHash: "q1" });
  });

  it("loses nothing when the provider is killed during a large upload: nothing half-written shows, the next run completes it", async () => {
    const { t, s3 } = ctx;
    const volumeId = await createVolume(t.api, 100);
    const volume = { dataCenterId: "EU-RO-1", volumeId };
    const big = Buffer.alloc(16 * 2 ** 20);
    for (let i = 0; i < big.length; i += 4096) big.writeUInt32LE(i, i);
    const src = await folder(ctx.dir, "killed", { "config.json": "{}", "tokenizer.json": "[]", "model.bin": big });
    const inputs = { networkVolumeId: volumeId, prefix: "m", files: folderArchive(src, "k1"), __urn: URN };

    // A `pulumi up`'s provider process, killed once the large file's multipart upload has begun.
    const child = spawn(process.execPath, [CHILD, JSON.stringify({ options: ctx.options, inputs })], {
      env: {
        ...process.env,
        RUNPOD_S3_SECRET_ACCESS_KEY: S3_KEY.secretAccessKey,
        RUNPOD_S3_PUT_LIMIT: String(LIMIT),
      },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let output = "";
    child.stdout.on("data", (d) => (output += d));
    child.stderr.on("data", (d) => (output += d));
    const exited = new Promise<void>((resolve) => child.on("exit", () => resolve()));
    const deadline = Date.now() + 60_000;
    for (;;) {
      const uploads = await s3.listUploads(volume, "m/");
      if (uploads.length > 0) break;
      if (Date.now() > deadline || child.exitCode !== null) throw new Error(`no upload in progress seen: ${output}`);
      await new Promise((r) => setTimeout(r, 5));
    }
    child.kill("SIGKILL");
    await exited;
    expect(output).not.toContain("created");
    // Nothing half-written under the large file's key; its upload is left in progress.
    expect(await s3.head(volume, "m/model.bin")).toBeUndefined();
    expect((await s3.listUploads(volume, "m/")).map((u) => u.key)).toEqual(["m/model.bin"]);

    // The next `pulumi up` (or `runpod-iac recover --run up`): the create runs again.
    takeUndeliveredNotices();
    const created = await provider.create(inputs);
    const said = takeUndeliveredNotices().at(-1)?.message ?? "";
    expect(said).toContain("aborted 1 unfinished multipart upload a stopped run had left");
    expect(said).toMatch(/^uploaded [123] files? /);
    expect(await s3.listUploads(volume, "m/")).toEqual([]);
    const md5 = createHash("md5")
      .update(await readFile(path.join(src, "model.bin")))
      .digest("hex");
    expect(decodeManifest(created.outs!.manifest)["model.bin"]).toMatchObject({ size: big.length, md5 });
    expect((await s3.getBytes(volume, "m/model.bin")).equals(big)).toBe(true);
    expect(await listing(s3, volume, "m/")).toEqual({
      "m/config.json": 2,
      "m/model.bin": big.length,
      "m/tokenizer.json": 2,
    });
  });
});
