import { createHash } from "node:crypto";
import {
  AbortMultipartUploadCommand,
  CompleteMultipartUploadCommand,
  CopyObjectCommand,
  CreateBucketCommand,
  CreateMultipartUploadCommand,
  DeleteBucketCommand,
  DeleteObjectCommand,
  DeleteObjectsCommand,
  GetBucketLocationCommand,
  GetObjectCommand,
  HeadBucketCommand,
  HeadObjectCommand,
  ListBucketsCommand,
  ListMultipartUploadsCommand,
  ListObjectsCommand,
  ListObjectsV2Command,
  ListPartsCommand,
  PutBucketVersioningCommand,
  PutObjectAclCommand,
  PutObjectCommand,
  PutObjectTaggingCommand,
  UploadPartCommand,
} from "@aws-sdk/client-s3";
import { request } from "undici";
import { describe, expect, it } from "vitest";
import { useTestEmulator } from "./helpers";
import { createVolume, s3Failure, s3Of } from "./s3-helpers";

const ctx = useTestEmulator({ s3: { putObjectLimit: 1000, bytesPerGb: 1000 } }, "file");
const { api, other } = ctx;

const md5 = (data: string | Buffer) => `"${createHash("md5").update(data).digest("hex")}"`;

describe("a volume's files through its data center's S3-compatible API (docs/emulator.md 'Volume files')", () => {
  it("puts, heads, gets, lists, copies and deletes files; ETags are MD5s; emptied folders stay listed", async () => {
    const bucket = await createVolume(api);
    const s3 = s3Of(ctx.emu, "EU-RO-1");
    const put = await s3.send(new PutObjectCommand({ Bucket: bucket, Key: "models/a b#.txt", Body: "hello" }));
    expect(put.ETag).toBe(md5("hello"));
    const head = await s3.send(new HeadObjectCommand({ Bucket: bucket, Key: "models/a b#.txt" }));
    expect([head.ContentLength, head.ETag]).toEqual([5, md5("hello")]);
    const got = await s3.send(new GetObjectCommand({ Bucket: bucket, Key: "models/a b#.txt", Range: "bytes=1-3" }));
    expect(await got.Body!.transformToString()).toBe("ell");
    await s3.send(
      new CopyObjectCommand({ Bucket: bucket, Key: "copy.txt", CopySource: `${bucket}/models/a%20b%23.txt` }),
    );
    const v2 = await s3.send(new ListObjectsV2Command({ Bucket: bucket }));
    expect(v2.Contents?.map((o) => [o.Key, o.Size, o.ETag])).toEqual([
      ["copy.txt", 5, md5("hello")],
      ["models/a b#.txt", 5, md5("hello")],
    ]);
    const v1 = await s3.send(new ListObjectsCommand({ Bucket: bucket, Delimiter: "/" }));
    expect([v1.Contents?.map((o) => o.Key), v1.CommonPrefixes?.map((p) => p.Prefix)]).toEqual([
      ["copy.txt"],
      ["models/"],
    ]);
    await s3.send(new DeleteObjectCommand({ Bucket: bucket, Key: "models/a b#.txt" }));
    await s3.send(new DeleteObjectCommand({ Bucket: bucket, Key: "never-there" }));
    const after = await s3.send(new ListObjectsV2Command({ Bucket: bucket }));
    expect(after.Contents?.map((o) => [o.Key, o.Size])).toEqual([
      ["copy.txt", 5],
      ["models/", 0],
    ]);
    expect((await s3Failure(s3.send(new GetObjectCommand({ Bucket: bucket, Key: "models/a b#.txt" })))).code).toBe(
      "NoSuchKey",
    );
  });

  it("pages a listing with continuation tokens and max-keys", async () => {
    const bucket = await createVolume(api);
    const s3 = s3Of(ctx.emu, "EU-RO-1");
    for (const key of ["a", "b/1", "b/2", "c", "d"])
      await s3.send(new PutObjectCommand({ Bucket: bucket, Key: key, Body: key }));
    const keys: string[] = [];
    let token: string | undefined;
    do {
      const page = await s3.send(new ListObjectsV2Command({ Bucket: bucket, MaxKeys: 2, ContinuationToken: token }));
      keys.push(...(page.Contents ?? []).map((o) => o.Key!));
      token = page.NextContinuationToken;
    } while (token);
    expect(keys).toEqual(["a", "b/1", "b/2", "c", "d"]);
  });

  it("lists only the account's volumes in the data center asked, and answers NoSuchBucket for any other", async () => {
    const mine = await createVolume(api);
    const elsewhere = await createVolume(api, 10, "US-KS-2");
    const theirs = await createVolume(other);
    const s3 = s3Of(ctx.emu, "EU-RO-1");
    const names = (await s3.send(new ListBucketsCommand({}))).Buckets?.map((b) => b.Name);
    expect(names).toContain(mine);
    expect(names).not.toContain(elsewhere);
    expect(names).not.toContain(theirs);
    await s3.send(new HeadBucketCommand({ Bucket: mine }));
    for (const bucket of [elsewhere, theirs, "no-such-volume"]) {
      expect(await s3Failure(s3.send(new ListObjectsV2Command({ Bucket: bucket })))).toMatchObject({
        code: "NoSuchBucket",
        status: 404,
      });
    }
    const inKansas = s3Of(ctx.emu, "US-KS-2");
    await inKansas.send(new PutObjectCommand({ Bucket: elsewhere, Key: "k", Body: "x" }));
  });

  it("refuses a PutObject at the limit, and takes the file in parts (ETag <md5 of md5s>-<n>), hiding the upload's folder", async () => {
    const bucket = await createVolume(api);
    const s3 = s3Of(ctx.emu, "EU-RO-1");
    const big = Buffer.alloc(1000, 7);
    expect(await s3Failure(s3.send(new PutObjectCommand({ Bucket: bucket, Key: "big", Body: big })))).toMatchObject({
      code: "EntityTooLarge",
      status: 400,
    });
    const { UploadId } = await s3.send(new CreateMultipartUploadCommand({ Bucket: bucket, Key: "big" }));
    const halves = [big.subarray(0, 600), big.subarray(600)];
    const etags: string[] = [];
    for (const [i, Body] of halves.entries()) {
      etags.push(
        (await s3.send(new UploadPartCommand({ Bucket: bucket, Key: "big", UploadId, PartNumber: i + 1, Body }))).ETag!,
      );
    }
    const uploads = await s3.send(new ListMultipartUploadsCommand({ Bucket: bucket }));
    expect(uploads.Uploads?.map((u) => [u.Key, u.UploadId])).toEqual([["big", UploadId]]);
    const parts = await s3.send(new ListPartsCommand({ Bucket: bucket, Key: "big", UploadId }));
    expect(parts.Parts?.map((p) => [p.PartNumber, p.Size, p.ETag])).toEqual([
      [1, 600, md5(halves[0]!)],
      [2, 400, md5(halves[1]!)],
    ]);
    expect((await s3.send(new ListObjectsV2Command({ Bucket: bucket }))).KeyCount).toBe(0);
    const done = await s3.send(
      new CompleteMultipartUploadCommand({
        Bucket: bucket,
        Key: "big",
        UploadId,
        MultipartUpload: { Parts: etags.map((ETag, i) => ({ ETag, PartNumber: i + 1 })) },
      }),
    );
    const both = Buffer.concat(halves.map((h) => createHash("md5").update(h).digest()));
    expect(done.ETag).toBe(`"${createHash("md5").update(both).digest("hex")}-2"`);
    const got = await s3.send(new GetObjectCommand({ Bucket: bucket, Key: "big" }));
    expect(Buffer.from(await got.Body!.transformToByteArray()).equals(big)).toBe(true);
    expect((await s3.send(new ListMultipartUploadsCommand({ Bucket: bucket }))).Uploads ?? []).toEqual([]);
    expect((await s3.send(new ListObjectsV2Command({ Bucket: bucket }))).Contents?.map((o) => o.Key)).toEqual(["big"]);
  });

  it("aborts an upload: its parts go, and nothing appears under its key", async () => {
    const bucket = await createVolume(api);
    const s3 = s3Of(ctx.emu, "EU-RO-1");
    const { UploadId } = await s3.send(new CreateMultipartUploadCommand({ Bucket: bucket, Key: "half" }));
    await s3.send(new UploadPartCommand({ Bucket: bucket, Key: "half", UploadId, PartNumber: 1, Body: "part" }));
    await s3.send(new AbortMultipartUploadCommand({ Bucket: bucket, Key: "half", UploadId }));
    expect((await s3.send(new ListMultipartUploadsCommand({ Bucket: bucket }))).Uploads ?? []).toEqual([]);
    expect((await s3Failure(s3.send(new HeadObjectCommand({ Bucket: bucket, Key: "half" })))).status).toBe(404);
    expect((await s3Failure(s3.send(new ListPartsCommand({ Bucket: bucket, Key: "half", UploadId })))).code).toBe(
      "NoSuchUpload",
    );
  });

  it("refuses what the platform does not implement with NotImplemented (501)", async () => {
    const bucket = await createVolume(api);
    const s3 = s3Of(ctx.emu, "EU-RO-1");
    await s3.send(new PutObjectCommand({ Bucket: bucket, Key: "f", Body: "x" }));
    const refused = [
      new DeleteObjectsCommand({ Bucket: bucket, Delete: { Objects: [{ Key: "f" }] } }),
      new CreateBucketCommand({ Bucket: "new-volume" }),
      new DeleteBucketCommand({ Bucket: bucket }),
      new GetBucketLocationCommand({ Bucket: bucket }),
      new PutBucketVersioningCommand({ Bucket: bucket, VersioningConfiguration: { Status: "Enabled" } }),
      new PutObjectAclCommand({ Bucket: bucket, Key: "f", ACL: "private" }),
      new PutObjectTaggingCommand({ Bucket: bucket, Key: "f", Tagging: { TagSet: [] } }),
    ];
    for (const command of refused) {
      expect(await s3Failure(s3.send(command as never)), command.constructor.name).toMatchObject({
        code: "NotImplemented",
        status: 501,
      });
    }
    // A presigned URL: refused whatever its signature, before any authentication.
    const url = `${ctx.emu.url}/s3api-eu-ro-1/${bucket}/f?X-Amz-Algorithm=AWS4-HMAC-SHA256&X-Amz-Credential=x&X-Amz-Signature=${"0".repeat(64)}`;
    const res = await request(url);
    expect([res.statusCode, await res.body.text()]).toEqual([
      501,
      expect.stringContaining("<Code>NotImplemented</Code>"),
    ]);
    expect((await s3.send(new GetObjectCommand({ Bucket: bucket, Key: "f" }))).ContentLength).toBe(1);
  });

  it("checks SigV4: a wrong secret, an unknown key, another region, no signature and a skewed clock are refused", async () => {
    const bucket = await createVolume(api);
    const list = new ListObjectsV2Command({ Bucket: bucket });
    const wrongSecret = s3Of(ctx.emu, "EU-RO-1", {
      credentials: { accessKeyId: "user_emulator", secretAccessKey: "rps_wrong" },
    });
    expect(await s3Failure(wrongSecret.send(list))).toMatchObject({ code: "SignatureDoesNotMatch", status: 403 });
    const unknown = s3Of(ctx.emu, "EU-RO-1", { credentials: { accessKeyId: "user_nobody", secretAccessKey: "rps_x" } });
    expect(await s3Failure(unknown.send(list))).toMatchObject({ code: "InvalidAccessKeyId", status: 403 });
    const region = s3Of(ctx.emu, "EU-RO-1", { region: "us-east-1" });
    expect(await s3Failure(region.send(list))).toMatchObject({ code: "AuthorizationHeaderMalformed", status: 400 });
    const anonymous = await request(`${ctx.emu.url}/s3api-eu-ro-1/${bucket}`);
    expect([anonymous.statusCode, await anonymous.body.text()]).toEqual([
      403,
      expect.stringContaining("<Code>AccessDenied</Code>"),
    ]);
    const late = s3Of(ctx.emu, "EU-RO-1");
    late.config.systemClockOffset = 61 * 60_000;
    expect(await s3Failure(late.send(list))).toMatchObject({ code: "RequestTimeTooSkewed", status: 403 });
    const early = s3Of(ctx.emu, "EU-RO-1");
    early.config.systemClockOffset = -59 * 60_000;
    expect((await early.send(list)).KeyCount).toBe(0);
  });

  it("bounds writes by the volume's size; growing the volume raises the bound", async () => {
    // bytesPerGb is 1000 in this file: a 10 GB volume holds 10,000 bytes.
    const bucket = await createVolume(api, 10);
    const s3 = s3Of(ctx.emu, "EU-RO-1");
    for (let i = 0; i < 11; i++) {
      const put = s3.send(new PutObjectCommand({ Bucket: bucket, Key: `f${i}`, Body: Buffer.alloc(999) }));
      if (i < 10) await put;
      else expect(await s3Failure(put)).toMatchObject({ code: "QuotaExceeded", status: 403 });
    }
    // Replacing a file frees what it held: a full volume takes a new version of the same size.
    await s3.send(new PutObjectCommand({ Bucket: bucket, Key: "f0", Body: Buffer.alloc(999, 1) }));
    const { UploadId } = await s3.send(new CreateMultipartUploadCommand({ Bucket: bucket, Key: "part" }));
    const part = s3.send(
      new UploadPartCommand({ Bucket: bucket, Key: "part", UploadId, PartNumber: 1, Body: Buffer.alloc(500) }),
    );
    expect(await s3Failure(part)).toMatchObject({ code: "QuotaExceeded" });
    expect((await api.patch(`/v1/networkvolumes/${bucket}`, { size: 11 })).status).toBe(200);
    await s3.send(new PutObjectCommand({ Bucket: bucket, Key: "f10", Body: Buffer.alloc(999) }));
    expect((await s3.send(new ListObjectsV2Command({ Bucket: bucket }))).KeyCount).toBe(11);
  });

  it("refuses keys a volume cannot store", async () => {
    const bucket = await createVolume(api);
    const s3 = s3Of(ctx.emu, "EU-RO-1");
    for (const Key of ["a/../b", ".s3compat_uploads/x", "a//b", `${"x".repeat(256)}/f`]) {
      expect(await s3Failure(s3.send(new PutObjectCommand({ Bucket: bucket, Key, Body: "x" }))), Key).toMatchObject({
        code: "InvalidArgument",
        status: 400,
      });
    }
  });
});
