import { Readable } from "node:stream";
import { text } from "node:stream/consumers";
import { SignatureV4 } from "@smithy/signature-v4";
import { createHash, createHmac } from "node:crypto";
import { describe, expect, it } from "vitest";
import { CliUsageError, parseCliArgs } from "../../../emulator/cli-args";
import { AwsChunkedDecoder } from "../../../emulator/s3/aws-chunked";
import { listingPage } from "../../../emulator/s3/s3-listing";
import { parseByteSize, parseS3KeySpec, s3Settings } from "../../../emulator/s3/s3-options";
import { checkSignature, parseQuery } from "../../../emulator/s3/sigv4-check";
import type { ObjectInfo } from "../../../emulator/s3/volume-dir";

const objects = (...keys: string[]): ObjectInfo[] =>
  keys.map((key) => ({ key, size: 1, mtimeMs: 0, etag: '""', folder: key.endsWith("/") }));

describe("listing pages (emulator/s3/s3-listing.ts)", () => {
  const all = objects("a", "b/1", "b/2", "b/c/3", "c/", "d");
  it("rolls keys beyond the delimiter up into common prefixes, each counting once", () => {
    const page = listingPage(all, { prefix: "", delimiter: "/", maxKeys: 1000, after: "" });
    expect([page.contents.map((o) => o.key), page.commonPrefixes]).toEqual([
      ["a", "d"],
      ["b/", "c/"],
    ]);
    const under = listingPage(all, { prefix: "b/", delimiter: "/", maxKeys: 1000, after: "" });
    expect([under.contents.map((o) => o.key), under.commonPrefixes]).toEqual([["b/1", "b/2"], ["b/c/"]]);
  });

  it("ends a page at max-keys and continues after its last key or common prefix", () => {
    const first = listingPage(all, { prefix: "", delimiter: "/", maxKeys: 2, after: "" });
    expect([first.truncated, first.last]).toEqual([true, "b/"]);
    const second = listingPage(all, { prefix: "", delimiter: "/", maxKeys: 2, after: first.last! });
    expect([second.contents.map((o) => o.key), second.commonPrefixes, second.truncated]).toEqual([
      ["d"],
      ["c/"],
      false,
    ]);
  });
});

describe("aws-chunked bodies (emulator/s3/aws-chunked.ts)", () => {
  const decode = (raw: string) => text(Readable.from([Buffer.from(raw)]).pipe(new AwsChunkedDecoder()));
  it("passes the payload of signed and unsigned chunks, dropping the trailing checksums", async () => {
    expect(
      await decode("5;chunk-signature=ab\r\nhello\r\n6;chunk-signature=cd\r\n world\r\n0;chunk-signature=ef\r\n\r\n"),
    ).toBe("hello world");
    expect(await decode("3\r\nabc\r\n0\r\nx-amz-checksum-crc32:AAAAAA==\r\n\r\n")).toBe("abc");
  });
  it("refuses a body cut short", async () => {
    await expect(decode("5\r\nhel")).rejects.toMatchObject({ code: "IncompleteBody" });
  });
});

describe("S3 keys and flags (emulator/s3/s3-options.ts, --s3-key, --s3-put-limit)", () => {
  it("reads API_KEY=ACCESS_KEY_ID:SECRET, the secret may hold colons, and never repeats a secret", () => {
    expect(parseS3KeySpec("k1=user_a:rps:with:colons")).toEqual({
      apiKey: "k1",
      accessKeyId: "user_a",
      secretAccessKey: "rps:with:colons",
    });
    expect(() => parseS3KeySpec("k1=rps_only_secret")).toThrow("--s3-key k1=...: must be API_KEY=ACCESS_KEY_ID:SECRET");
    expect(() => parseS3KeySpec("k1=rps_only_secret")).not.toThrow(/rps_only_secret/);
  });

  it("gives the first account the documented pair by default, and checks given keys", () => {
    expect(s3Settings({}, ["a", "b"]).keys).toEqual([
      { apiKey: "a", accessKeyId: "user_emulator", secretAccessKey: "rps_emulator_secret" },
    ]);
    expect(() => s3Settings({ keys: [{ apiKey: "zz", accessKeyId: "u", secretAccessKey: "s" }] }, ["a"])).toThrow(
      "is not one of the emulator's API keys",
    );
    const twice = [
      { apiKey: "a", accessKeyId: "u", secretAccessKey: "s" },
      { apiKey: "a", accessKeyId: "u", secretAccessKey: "t" },
    ];
    expect(() => s3Settings({ keys: twice }, ["a"])).toThrow("given twice");
  });

  it("parses the flags into options", () => {
    expect(parseByteSize("8MiB")).toBe(8 * 2 ** 20);
    expect(parseByteSize("500MB")).toBe(500_000_000);
    expect(parseByteSize("0")).toBeUndefined();
    const { options } = parseCliArgs(["--api-key", "k", "--s3-key", "k=user_k:rps_k", "--s3-put-limit", "8MiB"]);
    expect(options.s3).toEqual({
      keys: [{ apiKey: "k", accessKeyId: "user_k", secretAccessKey: "rps_k" }],
      putObjectLimit: 8 * 2 ** 20,
    });
    expect(() => parseCliArgs(["--s3-put-limit", "lots"])).toThrow(CliUsageError);
  });
});

describe("SigV4 as the platform checks it (emulator/s3/sigv4-check.ts)", () => {
  const secret = "rps_unit_secret";
  class Sha256 {
    private h;
    constructor(private readonly key?: string | Uint8Array) {
      this.h = key === undefined ? createHash("sha256") : createHmac("sha256", Buffer.from(key as string));
    }
    update(d: string | Uint8Array) {
      this.h.update(d);
    }
    digest() {
      return Promise.resolve(new Uint8Array(this.h.digest()));
    }
    reset() {
      this.h = this.key === undefined ? createHash("sha256") : createHmac("sha256", Buffer.from(this.key as string));
    }
  }
  /** A request signed by the AWS SDK's signer, as a client sends it. */
  async function signed(region: string, at: Date, query = "list-type=2&prefix=a%20b") {
    const signer = new SignatureV4({
      credentials: { accessKeyId: "user_u", secretAccessKey: secret },
      region,
      service: "s3",
      sha256: Sha256,
      uriEscapePath: false,
    });
    const request = await signer.sign(
      {
        method: "GET",
        protocol: "http:",
        hostname: "127.0.0.1",
        port: 8787,
        path: "/s3api-eu-ro-1/vol",
        query: parseQuery(query),
        headers: { host: "127.0.0.1:8787", "x-amz-content-sha256": "UNSIGNED-PAYLOAD" },
      },
      { signingDate: at },
    );
    return { method: "GET", rawPath: "/s3api-eu-ro-1/vol", rawQuery: query, headers: request.headers };
  }
  const rules = (now: number, key = secret) => ({
    secretOf: (id: string) => (id === "user_u" ? key : undefined),
    dataCenterId: "EU-RO-1",
    now: () => now,
    maxClockSkewMs: 3_600_000,
  });
  const at = new Date("2026-12-01T12:00:00Z");

  it("accepts what the SDK signed, for the data center's region in either case", async () => {
    await expect(checkSignature(await signed("EU-RO-1", at), rules(at.getTime()))).resolves.toEqual({
      accessKeyId: "user_u",
      contentSha256: "UNSIGNED-PAYLOAD",
    });
    await expect(checkSignature(await signed("eu-ro-1", at), rules(at.getTime() + 3_500_000))).resolves.toMatchObject({
      accessKeyId: "user_u",
    });
  });

  it("refuses another secret, a changed query, another region and a clock over an hour off", async () => {
    const ok = await signed("EU-RO-1", at);
    await expect(checkSignature(ok, rules(at.getTime(), "rps_other"))).rejects.toMatchObject({
      code: "SignatureDoesNotMatch",
      status: 403,
    });
    await expect(
      checkSignature({ ...ok, rawQuery: "list-type=2&prefix=b" }, rules(at.getTime())),
    ).rejects.toMatchObject({ code: "SignatureDoesNotMatch" });
    await expect(checkSignature(await signed("US-KS-2", at), rules(at.getTime()))).rejects.toMatchObject({
      code: "AuthorizationHeaderMalformed",
      status: 400,
    });
    await expect(checkSignature(ok, rules(at.getTime() + 3_600_001))).rejects.toMatchObject({
      code: "RequestTimeTooSkewed",
      status: 403,
    });
  });
});
