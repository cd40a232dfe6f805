import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { afterAll, beforeEach, describe, expect, it } from "vitest";
import { takeUndeliveredNotices } from "../../../provider/engine-notice";
import { configureDirect } from "../../../provider/provider-config";
import { volumeFilesProvider as provider } from "../../../provider/volume-files-provider";
import { filesInput } from "../../../provider/volume-files-source";
import {
  decodeManifest,
  encodeManifest,
  marksDrift,
  partsOfId,
  planText,
  volumeFilesId,
} from "../../../provider/volume-files-state";
import { defaultHashCache } from "../../../sdk/s3/content-hash";

/*
 * The pure logic of VolumeFiles: `files` as the engine hands it over (its property struct, with
 * the engine's hash of the archive), the compact manifest in state, and check and diff, which read
 * files only when the source changed and send nothing.
 */

const SIG = "4dabf18193072939515e22adb298388d";
const ASSET = "c44067f5952c0a294b673a41bacd8c17";
const ARCHIVE = "0def7320c3a5731c473e5ecbe6d01bc7";
const archive = (fields: Record<string, unknown>) => ({ [SIG]: ARCHIVE, ...fields });
const asset = (fields: Record<string, unknown>) => ({ [SIG]: ASSET, ...fields });
const URN = "urn:pulumi:dev::p::pulumi-nodejs:dynamic/runpod:VolumeFiles::weights";

const work = mkdtempSync(path.join(os.tmpdir(), "volume-files-unit-"));
afterAll(() => rmSync(work, { recursive: true, force: true }));

/** A folder of `files` (name: content) under the work dir. */
function folder(name: string, files: Record<string, string>): string {
  const dir = path.join(work, name);
  for (const [file, content] of Object.entries(files)) {
    mkdirSync(path.dirname(path.join(dir, file)), { recursive: true });
    writeFileSync(path.join(dir, file), content);
  }
  return dir;
}

describe("files as the engine hands them over", () => {
  it("reads a folder archive, and an asset archive of files, strings, folders and nested archives", () => {
    expect(filesInput(archive({ path: "./weights", hash: "h1" }))).toEqual({
      source: { folder: "./weights" },
      engineHash: "h1",
      problems: [],
    });
    const named = filesInput(
      archive({
        hash: "h2",
        assets: {
          "config.json": asset({ path: "cfg/config.json", hash: "a" }),
          "README.md": asset({ text: "", hash: "b" }),
          tokenizer: archive({ path: "./tok" }),
          extra: archive({ assets: { "a.txt": asset({ text: "a" }) } }),
        },
      }),
    );
    expect(named).toEqual({
      source: {
        entries: {
          "config.json": { path: "cfg/config.json" },
          "README.md": { text: "" },
          tokenizer: { folder: "./tok" },
          "extra/a.txt": { text: "a" },
        },
      },
      engineHash: "h2",
      problems: [],
    });
  });

  it("takes diff's form, the engine's hash without the contents", () => {
    expect(filesInput(archive({ hash: "h3" }))).toEqual({ engineHash: "h3", problems: [] });
  });

  it("refuses what it cannot put on a volume, naming the field, the value and the rule", () => {
    const rules = (value: unknown) => filesInput(value).problems.map((p) => `${p.field} = ${p.value}: ${p.rule}`);
    expect(rules(archive({ path: "weights.tar.gz" }))[0]).toMatch(
      /^files = "weights.tar.gz": is a zip or tar file: .*unpack it into a folder$/,
    );
    expect(rules(archive({ uri: "https://example.com/w.zip" }))[0]).toMatch(
      /^files = "https:\/\/example.com\/w.zip": is a RemoteArchive: .*fetch it into a folder first$/,
    );
    expect(rules(asset({ path: "w.bin" }))[0]).toMatch(/^files = asset "w.bin": is a single asset, which has no name/);
    expect(rules("./weights")[0]).toMatch(/^files = "\.\/weights": must be a Pulumi archive/);
    expect(rules(archive({ assets: { "w.bin": asset({ uri: "https://x/w.bin" }), n: 3 } }))).toEqual([
      'files.w.bin = asset "https://x/w.bin": is a RemoteAsset: VolumeFiles reads files from this machine, it downloads nothing; fetch it first',
      "files.n = 3: must be a FileAsset, a StringAsset or a FileArchive",
    ]);
    // A string asset's text may hold anything: it is never repeated.
    expect(rules(asset({ text: "tok_SECRET" }))[0]).not.toContain("tok_SECRET");
  });
});

describe("what state keeps", () => {
  it("keeps each file as one short string, and reads it back", () => {
    const manifest = {
      "a.bin": { size: 5, sha256: "ab".repeat(32), etag: "0".repeat(32) },
      "big.bin": { size: 9, sha256: "cd".repeat(32), etag: `${"1".repeat(32)}-2`, md5: "2".repeat(32) },
      "gone.txt": { size: 1, sha256: "ef".repeat(32), etag: "3".repeat(32), drifted: true as const },
    };
    const text = encodeManifest(manifest);
    const encoded = JSON.parse(text) as Record<string, string>;
    expect(encoded["a.bin"]).toBe(`5 ${Buffer.from("ab".repeat(32), "hex").toString("base64url")} ${"0".repeat(32)}`);
    expect(encoded["gone.txt"]!.endsWith(" !")).toBe(true);
    // About 80 bytes a file besides its name: 43 for the SHA-256, 32 for the ETag.
    expect(encoded["a.bin"]!.length).toBeLessThan(80);
    expect(decodeManifest(text)).toEqual(manifest);
    // An entry edited by hand is left out: its file is written again rather than trusted.
    expect(decodeManifest(JSON.stringify({ ...encoded, "x.bin": "not an entry" }))).toEqual(manifest);
    expect(decodeManifest("not JSON")).toEqual({});
    // Whether a refresh marked any file, read from the text alone (a name ending in " !" is no mark).
    expect(marksDrift(text)).toBe(true);
    expect(marksDrift(encodeManifest({ "a !": manifest["a.bin"] }))).toBe(false);
  });

  it("names a resource by its volume and prefix, and reads them back", () => {
    expect(volumeFilesId("vol1", "")).toBe("vol1");
    expect(volumeFilesId("vol1", "models/llama/")).toBe("vol1/models/llama");
    expect(partsOfId("vol1/models/llama")).toEqual({ volumeId: "vol1", prefix: "models/llama/" });
    expect(partsOfId("vol1")).toEqual({ volumeId: "vol1", prefix: "" });
  });

  it("says what a sync does in counts and bytes, with the names when few", () => {
    const f = (name: string, size: number) => ({ name, size });
    expect(planText({ upload: [f("a.bin", 1500), f("b.bin", 2)], remove: [f("old.txt", 3)], unchanged: [1, 2] })).toBe(
      "uploads 2 files (1.5 kB): a.bin, b.bin; removes 1 file (3 B): old.txt; 2 unchanged",
    );
    const many = Array.from({ length: 6 }, (_, i) => f(`f${i}`, 1_000_000));
    expect(planText({ upload: many, remove: [], unchanged: [] })).toBe("uploads 6 files (6.0 MB); 0 unchanged");
    expect(planText({ upload: [], remove: [], unchanged: [1] })).toBeUndefined();
  });
});

describe("check and diff", () => {
  beforeEach(() => {
    configureDirect({
      apiUrl: "http://127.0.0.1:1/v2",
      s3AccessKeyId: "user_unit",
      s3SecretAccessKey: "rps_UNIT_SECRET",
    });
    takeUndeliveredNotices();
  });

  const inputs = (files: unknown, over: Record<string, unknown> = {}) => ({
    networkVolumeId: "vol1",
    files,
    __urn: URN,
    ...over,
  });

  it("refuses missing S3 credentials at preview, naming the settings and never a value", async () => {
    configureDirect({ apiUrl: "http://127.0.0.1:1/v2", s3AccessKeyId: "user_unit" });
    const dir = folder("creds", { "a.txt": "a" });
    const { failures } = await provider.check({}, inputs(archive({ path: dir, hash: "c1" })));
    expect(failures).toEqual([
      {
        property: "",
        reason: expect.stringContaining(
          "set the stack config `runpod:s3SecretAccessKey` (as a secret) or RUNPOD_S3_SECRET_ACCESS_KEY",
        ),
      },
    ]);
    expect(JSON.stringify(failures)).not.toContain("user_unit:");
  });

  it("refuses a missing folder, a file at a key the platform cannot store and a bad prefix, sending nothing", async () => {
    const { failures } = await provider.check({}, inputs(archive({ path: path.join(work, "nowhere"), hash: "m1" })));
    expect(failures).toEqual([
      { property: "files", reason: `${JSON.stringify(path.join(work, "nowhere"))}: does not exist` },
    ]);
    const bad = await provider.check(
      {},
      inputs(archive({ hash: "m2", assets: { "a/../b.txt": asset({ text: "x" }) } }), { prefix: "models//x" }),
    );
    expect(bad.failures).toEqual(
      expect.arrayContaining([
        { property: "prefix", reason: '"models//x": must not contain an empty path segment (//)' },
      ]),
    );
    const key = await provider.check(
      {},
      inputs(archive({ hash: "m3", assets: { "a/../b.txt": asset({ text: "x" }) } })),
    );
    expect(key.failures).toEqual([
      {
        property: "files",
        reason:
          'files.a/../b.txt = "a/../b.txt": is not a key the platform can store: must not contain the path segment ".."',
      },
    ]);
  });

  it("refuses files larger in total than volumeSizeGb at preview", async () => {
    const dir = folder("total", { "a.bin": "x".repeat(10) });
    const check = await provider.check({}, inputs(archive({ path: dir, hash: "t1" }), { volumeSizeGb: 1 }));
    expect(check.failures).toEqual([]);
    // Sizes come from the file system, never by reading: a sparse file claims 2 GB.
    writeFileSync(path.join(dir, "huge.bin"), "");
    const { truncateSync } = await import("node:fs");
    truncateSync(path.join(dir, "huge.bin"), 2_000_000_000);
    const over = await provider.check({}, inputs(archive({ path: dir, hash: "t2" }), { volumeSizeGb: 1 }));
    expect(over.failures).toEqual([
      {
        property: "files",
        reason: "2000000010 bytes in 2 files: must fit in the volume's 1 GB (1000000000 bytes)",
      },
    ]);
  });

  it("reads no file for an unchanged source, hashes a changed one once, and diff reuses that plan", async () => {
    const dir = folder("weights", { "a.bin": "aaaa", "b.bin": "bbbb", "sub/c.bin": "cc" });
    const first = archive({ path: dir, hash: "w1" });
    const reads = () => defaultHashCache.reads;
    const before = reads();
    // A new source: planned (each file read once).
    expect((await provider.check({}, inputs(first))).failures).toEqual([]);
    expect(reads() - before).toBe(3);
    // The state after a create of it.
    const { planSync } = await import("../../../sdk/s3/sync-plan");
    const plan = await planSync({ source: { folder: dir } });
    const manifest = encodeManifest(
      Object.fromEntries(plan.files.map((f) => [f.name, { size: f.size, sha256: f.sha256, etag: f.md5 }])),
    );
    const olds = { networkVolumeId: "vol1", dataCenterId: "EU-RO-1", manifest, __sourceHash: "w1" };
    // Unchanged: check reads nothing, diff (which gets the hash alone) says no change.
    const same = reads();
    expect((await provider.check(inputs(first), inputs(first))).failures).toEqual([]);
    expect(await provider.diff("vol1", olds, inputs(archive({ hash: "w1" })))).toMatchObject({ changes: false });
    expect(reads()).toBe(same);
    expect(takeUndeliveredNotices()).toEqual([]);

    // One file changed, one added, one removed: check hashes what changed, diff reads nothing more.
    writeFileSync(path.join(dir, "a.bin"), "AAAA");
    writeFileSync(path.join(dir, "d.bin"), "d");
    rmSync(path.join(dir, "b.bin"));
    const changed = archive({ path: dir, hash: "w2" });
    const mid = reads();
    expect((await provider.check(inputs(first), inputs(changed))).failures).toEqual([]);
    expect(reads() - mid).toBe(2);
    const diff = await provider.diff("vol1", olds, inputs(archive({ hash: "w2" })));
    expect(reads() - mid).toBe(2);
    expect(diff).toMatchObject({ changes: true, replaces: [], detailedDiff: { files: { kind: "update" } } });
    expect(takeUndeliveredNotices()).toEqual([
      {
        urn: URN,
        message: "uploads 2 files (5 B): a.bin, d.bin; removes 1 file (4 B): b.bin; 1 unchanged",
        severity: "info",
      },
    ]);
  });

  it("says what a refresh found will be written again, reading nothing", async () => {
    const sha = "ab".repeat(32);
    const manifest = encodeManifest({
      "a.bin": { size: 4, sha256: sha, etag: "0".repeat(32), drifted: true },
      "b.bin": { size: 2, sha256: sha, etag: "1".repeat(32) },
    });
    const olds = { networkVolumeId: "vol1", dataCenterId: "EU-RO-1", manifest, __sourceHash: "r1" };
    const diff = await provider.diff("vol1", olds, inputs(archive({ hash: "r1" })));
    expect(diff).toMatchObject({ changes: true, replaces: [] });
    expect(takeUndeliveredNotices()).toEqual([
      {
        urn: URN,
        message: "uploads 1 file (4 B): a.bin: changed or removed on the volume since written (seen by refresh)",
        severity: "info",
      },
    ]);
  });

  it("replaces on a new volume or prefix (a respelled prefix is the same), removing first on the same volume", async () => {
    const olds = { networkVolumeId: "vol1", prefix: "models/llama", manifest: "{}", __sourceHash: "p1" };
    const files = archive({ hash: "p1" });
    expect(await provider.diff("vol1/models/llama", olds, inputs(files, { prefix: "/models/llama/" }))).toMatchObject({
      changes: false,
    });
    expect(await provider.diff("vol1/models/llama", olds, inputs(files, { prefix: "models/qwen" }))).toMatchObject({
      changes: true,
      replaces: ["prefix"],
      deleteBeforeReplace: true,
      detailedDiff: { prefix: { kind: "update-replace" } },
    });
    expect(
      await provider.diff(
        "vol1/models/llama",
        olds,
        inputs(files, { networkVolumeId: "vol2", prefix: "models/llama" }),
      ),
    ).toMatchObject({ changes: true, replaces: ["networkVolumeId"], deleteBeforeReplace: false });
  });
});
