import { rm, writeFile } from "node:fs/promises";
import * as path from "node:path";
import { describe, expect, it } from "vitest";
import { takeUndeliveredNotices } from "../../../provider/engine-notice";
import { volumeFilesProvider as provider } from "../../../provider/volume-files-provider";
import { decodeManifest } from "../../../provider/volume-files-state";
import { planSync } from "../../../sdk/s3/sync-plan";
import { createVolume } from "../emulator/s3-helpers";
import {
  folder,
  folderArchive,
  hashOnly,
  listing,
  takeRequestCounts,
  URN,
  useVolumeFilesEmulator,
} from "./volume-files-fixture";

/*
 * The VolumeFiles provider against the emulator over real HTTP: what `pulumi up`, `preview`,
 * `refresh` and `destroy` call, in the order the engine calls them. The engine's hash of the
 * archive is played by the test ("h1", "h2", ...), changed whenever the folder's files change.
 */

const big = Buffer.alloc(200 * 1024, 7);

describe("the VolumeFiles provider against the emulator, on v2", () => {
  const ctx = useVolumeFilesEmulator("v2");

  it("creates, updates only what changed, leaves other files alone, repairs drift, serves a worker, and deletes only its own", async () => {
    const { s3, t } = ctx;
    const volumeId = await createVolume(t.api, 100);
    const volume = { dataCenterId: "EU-RO-1", volumeId };
    await s3.putBytes(volume, "other/keep.txt", "not the resource's");
    await s3.putBytes(volume, "models/tiny/notes.txt", "not the resource's either");
    const src = await folder(ctx.dir, "weights", {
      "config.json": '{"layers": 2}',
      "weights.bin": big,
      "tokenizer/vocab.txt": "a b c",
    });
    const inputs = (hash: string) => ({
      networkVolumeId: volumeId,
      prefix: "models/tiny",
      files: folderArchive(src, hash),
      __urn: URN,
    });

    // pulumi up: check, then create, with progress and a closing word under the resource.
    expect((await provider.check({}, inputs("h1"))).failures).toEqual([]);
    await takeRequestCounts(t);
    const created = await provider.create(inputs("h1"));
    expect(created.id).toBe(`${volumeId}/models/tiny`);
    const plan = await planSync({ source: { folder: src }, prefix: "models/tiny" });
    expect(created.outs).toMatchObject({
      networkVolumeId: volumeId,
      prefix: "models/tiny",
      dataCenterId: "EU-RO-1",
      fileCount: 3,
      totalBytes: plan.totalBytes,
      hash: plan.hash,
      __sourceHash: "h1",
    });
    const notices = takeUndeliveredNotices();
    expect(notices[0]).toMatchObject({ urn: URN, severity: "info", ephemeral: true });
    expect(notices[0]!.message).toMatch(/^uploading: \d+ of 3 files, .* of 204\.8 kB$/);
    expect(notices.at(-1)).toEqual({
      urn: URN,
      message: "uploaded 3 files (204.8 kB)",
      severity: "info",
      ephemeral: false,
    });
    expect(await listing(s3, volume, "models/")).toEqual({
      "models/tiny/config.json": 13,
      "models/tiny/notes.txt": 25,
      "models/tiny/tokenizer/vocab.txt": 5,
      "models/tiny/weights.bin": big.length,
    });
    // The volume's record once (its data center and size), then S3 alone.
    expect(Object.keys(await takeRequestCounts(t)).filter((r) => !r.includes("/s3api-"))).toEqual([
      "GET /v2/network-volumes/:id",
    ]);

    // A worker of an endpoint with the volume reads an uploaded file.
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
    const job = await t.api.post(`/v2/${endpoint.body.id}/runsync`, { input: { path: "models/tiny/config.json" } });
    expect(job.body.output).toEqual({ text: '{"layers": 2}' });

    // One file changed, one added, one removed: the preview says so, the update sends only those.
    await writeFile(path.join(src, "config.json"), '{"layers": 3}');
    await writeFile(path.join(src, "extra.txt"), "new");
    await rm(path.join(src, "tokenizer"), { recursive: true });
    await takeRequestCounts(t);
    expect((await provider.check(inputs("h1"), inputs("h2"))).failures).toEqual([]);
    expect(await provider.diff(created.id, created.outs!, { ...inputs("h2"), files: hashOnly("h2") })).toMatchObject({
      changes: true,
      replaces: [],
    });
    expect(takeUndeliveredNotices().map((n) => n.message)).toEqual([
      "uploads 2 files (16 B): config.json, extra.txt; removes 1 file (5 B): tokenizer/vocab.txt; 1 unchanged",
    ]);
    expect(await takeRequestCounts(t)).toEqual({});
    const updated = await provider.update(created.id, created.outs!, inputs("h2"));
    expect(takeUndeliveredNotices().at(-1)?.message).toBe("uploaded 2 files (16 B); removed 1 file (5 B)");
    const counts = await takeRequestCounts(t);
    expect(counts["PUT /s3api-:dc/:bucket/*"]).toBe(2);
    // The removed file, and the folder it leaves empty (a volume is a file system: it would stay).
    expect(counts["DELETE /s3api-:dc/:bucket/*"]).toBe(2);
    expect(await listing(s3, volume)).toEqual({
      "other/keep.txt": 18,
      "models/tiny/config.json": 13,
      "models/tiny/extra.txt": 3,
      "models/tiny/notes.txt": 25,
      "models/tiny/weights.bin": big.length,
    });
    expect(updated.outs).toMatchObject({ fileCount: 3, __sourceHash: "h2" });

    // Drift: a file changed by hand and one removed. Refresh finds both from one listing; the
    // next preview says they will be written again, and the update does.
    await s3.putBytes(volume, "models/tiny/config.json", "edited by hand");
    await s3.delete(volume, "models/tiny/extra.txt");
    await takeRequestCounts(t);
    const refreshed = await provider.read(created.id, updated.outs!);
    expect(await takeRequestCounts(t)).toEqual({ "GET /s3api-:dc/:bucket": 1 });
    const marked = decodeManifest(refreshed.props!.manifest);
    expect([marked["config.json"]?.drifted, marked["extra.txt"]?.drifted, marked["weights.bin"]?.drifted]).toEqual([
      true,
      true,
      undefined,
    ]);
    expect((await provider.check(inputs("h2"), inputs("h2"))).failures).toEqual([]);
    expect(await provider.diff(created.id, refreshed.props!, inputs("h2"))).toMatchObject({ changes: true });
    expect(takeUndeliveredNotices().map((n) => n.message)).toEqual([
      "uploads 2 files (16 B): config.json, extra.txt: changed or removed on the volume since written (seen by refresh)",
    ]);
    const repaired = await provider.update(created.id, refreshed.props!, inputs("h2"));
    expect(takeUndeliveredNotices().at(-1)?.message).toBe("uploaded 2 files (16 B)");
    expect((await s3.getBytes(volume, "models/tiny/config.json")).toString()).toBe('{"layers": 3}');
    expect((await s3.getBytes(volume, "models/tiny/extra.txt")).toString()).toBe("new");
    expect(repaired.outs!.hash).toBe(updated.outs!.hash);
    expect((await provider.read(created.id, repaired.outs!)).props!.manifest).toEqual(repaired.outs!.manifest);

    // An unchanged preview: nothing sent, nothing said.
    await takeRequestCounts(t);
    expect((await provider.check(inputs("h2"), inputs("h2"))).failures).toEqual([]);
    expect(await provider.diff(created.id, repaired.outs!, { ...inputs("h2"), files: hashOnly("h2") })).toMatchObject({
      changes: false,
    });
    expect(await takeRequestCounts(t)).toEqual({});
    expect(takeUndeliveredNotices()).toEqual([]);

    // Delete removes the resource's files and nothing else.
    await provider.delete(created.id, { ...repaired.outs!, __urn: URN });
    expect(await listing(s3, volume)).toEqual({ "other/keep.txt": 18, "models/tiny/notes.txt": 25 });
    // A volume already gone holds nothing to delete; refresh drops the resource.
    expect((await t.api.del(`/v1/endpoints/${endpoint.body.id}`)).status).toBeLessThan(300);
    expect((await t.api.del(`/v1/networkvolumes/${volumeId}`)).status).toBeLessThan(300);
    expect(await provider.read(created.id, repaired.outs!)).toEqual({});
    await expect(provider.delete(created.id, repaired.outs!)).resolves.toBeUndefined();
  });

  it("imports owning no file, and the next update takes the files already there without sending them", async () => {
    const { s3, t } = ctx;
    const volumeId = await createVolume(t.api, 10);
    const volume = { dataCenterId: "EU-RO-1", volumeId };
    const src = await folder(ctx.dir, "imported", { "a.txt": "alpha", "b.txt": "bravo" });
    await s3.putBytes(volume, "data/a.txt", "alpha");
    const read = await provider.read(`${volumeId}/data`, { dataCenterId: "EU-RO-1" });
    expect(read.props).toMatchObject({ networkVolumeId: volumeId, prefix: "data", fileCount: 0, manifest: "{}" });
    const inputs = { networkVolumeId: volumeId, prefix: "data", files: folderArchive(src, "i1") };
    await takeRequestCounts(t);
    const up = await provider.update(read.id!, read.props!, inputs);
    expect((await takeRequestCounts(t))["PUT /s3api-:dc/:bucket/*"]).toBe(1);
    expect(up.outs).toMatchObject({ fileCount: 2, __sourceHash: "i1" });
  });
});

describe("the VolumeFiles provider against the emulator, on v1", () => {
  const ctx = useVolumeFilesEmulator("v1");

  it("finds the volume's data center through management API v1, and writes, reads and deletes the same way", async () => {
    const { s3, t } = ctx;
    const volumeId = await createVolume(t.api, 10, "US-TX-3");
    const src = await folder(ctx.dir, "v1", { "hello.txt": "hello" });
    const inputs = { networkVolumeId: volumeId, files: folderArchive(src, "v1") };
    await takeRequestCounts(t);
    const created = await provider.create(inputs);
    expect((await takeRequestCounts(t))["GET /v1/networkvolumes/:networkVolumeId"]).toBe(1);
    expect(created).toMatchObject({ id: volumeId, outs: { dataCenterId: "US-TX-3", fileCount: 1 } });
    const volume = { dataCenterId: "US-TX-3", volumeId };
    expect((await s3.getBytes(volume, "hello.txt")).toString()).toBe("hello");
    expect((await provider.read(created.id, created.outs!)).props!.manifest).toEqual(created.outs!.manifest);
    await provider.delete(created.id, created.outs!);
    expect(await listing(s3, volume)).toEqual({});
  });
});
