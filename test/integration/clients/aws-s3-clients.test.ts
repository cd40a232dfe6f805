import { createHash } from "node:crypto";
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import * as path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { useTestEmulator } from "../emulator/helpers";
import { createVolume, S3_KEY } from "../emulator/s3-helpers";
import { pythonBin, runProcess, runPythonJson } from "./python-runner";

/**
 * boto3 and the AWS CLI (both from PyPI, pinned in requirements.txt), unchanged, against the
 * emulator's S3-compatible API of one data center: `--endpoint-url <origin>/s3api-eu-ro-1`, the data
 * center as the region, the documented default S3 key, path-style addressing. The PutObject limit
 * is 1 MiB here, so an 11 MiB file must go multipart.
 */
const LIMIT = 1024 * 1024;
const ctx = useTestEmulator({ s3: { putObjectLimit: LIMIT }, timeScale: 1 }, "file");

type Result = Record<string, unknown> & { error?: string };
let work: string;
let bucket: string;

beforeAll(async () => {
  work = await mkdtemp(path.join(os.tmpdir(), "aws-s3-clients-"));
  bucket = await createVolume(ctx.api);
});
afterAll(() => rm(work, { recursive: true, force: true }));

const endpointUrl = () => `${ctx.emu.url}/s3api-eu-ro-1`;

describe("boto3 against the emulator's S3-compatible API", () => {
  let results: Record<string, Result>;
  beforeAll(async () => {
    const plan = {
      endpointUrl: endpointUrl(),
      region: "EU-RO-1",
      bucket,
      ...S3_KEY,
      workDir: work,
      putObjectLimit: LIMIT,
    };
    results = await runPythonJson<Record<string, Result>>("s3_boto3.py", [JSON.stringify(plan)], {
      timeoutMs: 120_000,
    });
  }, 150_000);

  const scenario = (name: string) => {
    expect(results[name]?.error, `boto3 raised in ${name}`).toBeUndefined();
    return results[name]!;
  };

  it("uploads a file, its ETag the MD5 of its content", () => {
    const r = scenario("upload");
    expect(r.etag).toBe(r.md5);
  });

  it("is refused a PutObject over the limit, and uploads the file in parts with upload_file", () => {
    // s3transfer raises a part to its 5 MiB minimum: 11 MiB go in three parts.
    expect(scenario("multipart")).toEqual({
      tooBig: { code: "EntityTooLarge", status: 400 },
      size: 11 * LIMIT + 7 * 256,
      etag: expect.stringMatching(/^"[0-9a-f]{32}-3"$/),
      same: true,
    });
  });

  it("lists, gets and heads", () => {
    expect(scenario("listGetHead")).toEqual({
      keys: ["boto/big.bin", "boto/hello.txt"],
      body: "hello from boto3",
      size: 16,
    });
  });

  it("copies and deletes", () => {
    expect(scenario("copyDelete")).toEqual({ copied: "hello from boto3", afterDelete: { code: "404", status: 404 } });
  });

  it("is refused DeleteObjects, CreateBucket and a presigned URL, and a wrong secret", () => {
    expect(scenario("refusals")).toEqual({
      deleteObjects: { code: "NotImplemented", status: 501 },
      createBucket: { code: "NotImplemented", status: 501 },
      presigned: { status: 501, code: "NotImplemented" },
      stillThere: 16,
    });
    expect(scenario("wrongSecret")).toEqual({ code: "SignatureDoesNotMatch", status: 403 });
  });
});

describe("the AWS CLI against the emulator's S3-compatible API", () => {
  let config: string;
  beforeAll(async () => {
    // Path-style, and the CLI's multipart threshold under the emulator's PutObject limit.
    config = path.join(work, "aws-config");
    await writeFile(
      config,
      "[default]\ns3 =\n  addressing_style = path\n  multipart_threshold = 512KB\n  multipart_chunksize = 512KB\n",
    );
  });

  /** `aws --endpoint-url <url> ARGS` with the default S3 key and the data center as the region (a few seconds each: the CLI's start). */
  const aws = (...args: string[]) =>
    runProcess(path.join(path.dirname(pythonBin()), "aws"), ["--endpoint-url", endpointUrl(), ...args], {
      env: {
        AWS_ACCESS_KEY_ID: S3_KEY.accessKeyId,
        AWS_SECRET_ACCESS_KEY: S3_KEY.secretAccessKey,
        AWS_DEFAULT_REGION: "EU-RO-1",
        AWS_CONFIG_FILE: config,
        AWS_SHARED_CREDENTIALS_FILE: path.join(work, "no-credentials"),
        AWS_MAX_ATTEMPTS: "1",
      },
      cwd: work,
      timeoutMs: 60_000,
    });
  const ok = async (...args: string[]) => {
    const r = await aws(...args);
    expect(r.code, `aws ${args.join(" ")}\n${r.stdout}\n${r.stderr}`).toBe(0);
    return r.stdout;
  };

  it("uploads, uploads in parts over the limit, lists, downloads, heads, copies and deletes", async () => {
    const small = path.join(work, "small.txt");
    const big = path.join(work, "big.bin");
    await writeFile(small, "from the cli");
    // Over 10 MiB: the CLI's parts are at least 5 MiB (its own minimum, whatever the config asks), so three.
    const bytes = Buffer.alloc(11 * LIMIT + 5, 9);
    await writeFile(big, bytes);
    await ok("s3", "cp", small, `s3://${bucket}/cli/small.txt`);
    const tooBig = await aws("s3api", "put-object", "--bucket", bucket, "--key", "cli/too-big.bin", "--body", big);
    expect([tooBig.code, tooBig.stderr]).toEqual([255, expect.stringContaining("EntityTooLarge")]);
    await ok("s3", "cp", big, `s3://${bucket}/cli/big.bin`);
    const listed = await ok("s3", "ls", `s3://${bucket}/cli/`);
    expect(listed).toMatch(/ 11534341 big\.bin/);
    expect(listed).toMatch(/ 12 small\.txt/);
    await ok("s3", "cp", `s3://${bucket}/cli/big.bin`, path.join(work, "down.bin"));
    expect(
      createHash("sha256")
        .update(await readFile(path.join(work, "down.bin")))
        .digest("hex"),
    ).toBe(createHash("sha256").update(bytes).digest("hex"));
    const head = JSON.parse(await ok("s3api", "head-object", "--bucket", bucket, "--key", "cli/big.bin"));
    expect([head.ContentLength, head.ETag]).toEqual([bytes.length, expect.stringMatching(/^"[0-9a-f]{32}-3"$/)]);
    await ok("s3", "cp", `s3://${bucket}/cli/small.txt`, `s3://${bucket}/cli/copy.txt`);
    await ok("s3", "rm", `s3://${bucket}/cli/copy.txt`);
    expect(await ok("s3", "ls", `s3://${bucket}/cli/`)).not.toContain("copy.txt");
  }, 240_000);

  it("is refused DeleteObjects (and so `s3 rm --recursive`), a bucket made with `mb`, and a presigned URL", async () => {
    await ok("s3", "cp", path.join(work, "small.txt"), `s3://${bucket}/cli/keep.txt`);
    // The AWS CLI v1 exits 255 when the service answered with an error.
    const many = await aws(
      "s3api",
      "delete-objects",
      "--bucket",
      bucket,
      "--delete",
      '{"Objects":[{"Key":"cli/keep.txt"}]}',
    );
    expect([many.code, many.stderr]).toEqual([255, expect.stringContaining("NotImplemented")]);
    const mb = await aws("s3", "mb", "s3://cli-new-volume");
    expect([mb.code, mb.stderr]).toEqual([1, expect.stringContaining("NotImplemented")]);
    const url = (await ok("s3", "presign", `s3://${bucket}/cli/keep.txt`)).trim();
    const res = await fetch(url);
    expect([res.status, await res.text()]).toEqual([501, expect.stringContaining("<Code>NotImplemented</Code>")]);
    expect(await ok("s3", "ls", `s3://${bucket}/cli/keep.txt`)).toContain("keep.txt");
  }, 240_000);
});
