import { describe, expect, it } from "vitest";
import { resolveClientConfig } from "../../../sdk/config";
import { ConfigurationError } from "../../../sdk/errors";
import { MAX_PARTS, partSizeFor } from "../../../sdk/s3/multipart-upload";
import { isTransient, toS3Error } from "../../../sdk/s3/s3-calls";
import { requireS3Credentials, resolveS3Settings } from "../../../sdk/s3/s3-settings";
import { normalizePrefix } from "../../../sdk/s3/sync-plan";
import { matchesListing, setHash, writtenEntry } from "../../../sdk/s3/volume-manifest";
import { DEFAULT_S3_URL, s3EndpointOf, VOLUME_FILE_LIMITS, volumeKeyProblem } from "../../../sdk/schemas/volume-files";

describe("what a volume can store (sdk/schemas/volume-files.ts)", () => {
  it.each([
    ["models/llama/weights.bin", undefined],
    ["a b#c%d+é.txt", undefined],
    ["", "must not be empty"],
    ["/abs", "must not start with /"],
    ["a//b", "must not contain an empty path segment"],
    ["a/./b", 'must not contain the path segment "."'],
    ["../x", 'must not contain the path segment ".."'],
    ["dir/", "must not end with /"],
    [".s3compat_uploads/x", "must not lie under .s3compat_uploads/"],
    ["nul\u0000", "must not contain a NUL"],
    [`${"é".repeat(128)}/x`, "each path segment must be at most 255 bytes"],
    [`${"a/".repeat(512)}b`, "must be at most 1024 bytes"],
  ])("%j: %s", (key, problem) => {
    const found = volumeKeyProblem(key);
    if (problem === undefined) expect(found).toBeUndefined();
    else expect(found).toContain(problem);
  });

  it("allows a folder key's trailing / only when asked", () => {
    expect(volumeKeyProblem("models/", true)).toBeUndefined();
    expect(volumeKeyProblem("models//", true)).toContain("must not end with /");
  });

  it("fills {dc} with the data center id in lower case", () => {
    expect(s3EndpointOf(DEFAULT_S3_URL, "EUR-IS-1")).toBe("https://s3api-eur-is-1.runpod.io");
    expect(s3EndpointOf("http://127.0.0.1:8787/s3api-{dc}/", "EU-RO-1")).toBe("http://127.0.0.1:8787/s3api-eu-ro-1");
  });

  it("sizes parts to the configured size, raised to fit 10,000 parts, and refuses beyond the platform's part", () => {
    expect(partSizeFor(10 * 2 ** 20, 2 ** 20)).toBe(2 ** 20);
    expect(partSizeFor(VOLUME_FILE_LIMITS.fileBytes, 64 * 2 ** 20)).toBe(
      Math.ceil(VOLUME_FILE_LIMITS.fileBytes / MAX_PARTS),
    );
    expect(() => partSizeFor(VOLUME_FILE_LIMITS.partBytes * MAX_PARTS + 1, 1)).toThrow(/largest file/);
  });
});

describe("the manifest and the set hash", () => {
  it("normalizes the prefix and names a bad one", () => {
    expect(normalizePrefix("/models/llama/")).toEqual({ prefix: "models/llama/" });
    expect(normalizePrefix(undefined)).toEqual({ prefix: "" });
    expect(normalizePrefix("a/../b").problem).toMatchObject({ field: "prefix", value: '"a/../b"' });
  });

  it("keeps the MD5 only when the ETag is not it, and matches a listing by size and either", () => {
    const single = writtenEntry(5, "s", "abc", '"ABC"');
    expect(single).toEqual({ size: 5, sha256: "s", etag: "abc" });
    const parts = writtenEntry(5, "s", "abc", '"def-2"');
    expect(parts).toEqual({ size: 5, sha256: "s", etag: "def-2", md5: "abc" });
    expect(matchesListing(parts, 5, '"def-2"')).toBe(true);
    expect(matchesListing(parts, 5, '"abc"')).toBe(true);
    expect(matchesListing(parts, 6, '"def-2"')).toBe(false);
    expect(matchesListing(single, 5, '"ffff"')).toBe(false);
  });

  it("changes the set hash exactly when a name, content or size changes", () => {
    const base = { a: { sha256: "1", size: 1 }, b: { sha256: "2", size: 2 } };
    const hash = setHash(base);
    expect(setHash({ b: base.b, a: base.a })).toBe(hash);
    expect(setHash({ ...base, a: { sha256: "9", size: 1 } })).not.toBe(hash);
    expect(setHash({ c: base.a, b: base.b })).not.toBe(hash);
    expect(setHash({ a: base.a })).not.toBe(hash);
  });
});

describe("the S3 settings", () => {
  it("reads the environment, then the defaults; the client's config carries them", () => {
    const env = {
      RUNPOD_S3_ACCESS_KEY_ID: "user_x",
      RUNPOD_S3_SECRET_ACCESS_KEY: "rps_y",
      RUNPOD_S3_URL: "http://h/s3api-{dc}/",
    };
    expect(resolveS3Settings({}, env)).toMatchObject({
      accessKeyId: "user_x",
      secretAccessKey: "rps_y",
      url: "http://h/s3api-{dc}",
    });
    expect(resolveS3Settings({ s3AccessKeyId: "user_o" }, env).accessKeyId).toBe("user_o");
    expect(resolveS3Settings({}, {})).toMatchObject({
      url: DEFAULT_S3_URL,
      putObjectLimit: 500_000_000,
      partSize: 64 * 2 ** 20,
      maxAttempts: 10,
      completeTimeoutMs: 7_200_000,
    });
    expect(resolveS3Settings({ putObjectLimit: 8 * 2 ** 20 }, {}).partSize).toBe(8 * 2 ** 20);
    // An emulator's smaller limit (`--s3-put-limit`), from the environment; the option wins.
    expect(resolveS3Settings({}, { RUNPOD_S3_PUT_LIMIT: "65536" })).toMatchObject({
      putObjectLimit: 65536,
      partSize: 65536,
    });
    expect(resolveS3Settings({ putObjectLimit: 1024 }, { RUNPOD_S3_PUT_LIMIT: "65536" }).putObjectLimit).toBe(1024);
    expect(() => resolveS3Settings({}, { RUNPOD_S3_PUT_LIMIT: "64KiB" })).toThrow(
      'RUNPOD_S3_PUT_LIMIT = "64KiB": must be a whole number of bytes above 0',
    );
    expect(resolveClientConfig({}, env)).toMatchObject({
      s3AccessKeyId: "user_x",
      s3SecretAccessKey: "rps_y",
      s3Url: "http://h/s3api-{dc}",
    });
  });

  it("refuses a bad URL or part size, naming the setting", () => {
    expect(() => resolveS3Settings({ s3Url: "ftp://x/{dc}" }, {})).toThrow(
      's3Url = "ftp://x/{dc}" must be an http(s) URL',
    );
    expect(() => resolveS3Settings({}, { RUNPOD_S3_URL: "https://u:p@h/{dc}" })).toThrow(
      "RUNPOD_S3_URL must not carry credentials",
    );
    expect(() => resolveS3Settings({ partSize: 600_000_000 }, {})).toThrow(
      "partSize = 600000000: must be at most 500000000 bytes",
    );
  });

  it("names each missing credential and where to set it, never a value", () => {
    const both = () => requireS3Credentials(resolveS3Settings({}, {}));
    expect(both).toThrow(ConfigurationError);
    expect(both).toThrow(
      /s3AccessKeyId option or RUNPOD_S3_ACCESS_KEY_ID, and .*s3SecretAccessKey option \(as a secret\) or RUNPOD_S3_SECRET_ACCESS_KEY/,
    );
    const secretOnly = () => requireS3Credentials(resolveS3Settings({}, { RUNPOD_S3_SECRET_ACCESS_KEY: "rps_shh" }));
    expect(secretOnly).toThrow(/set the client's s3AccessKeyId option or RUNPOD_S3_ACCESS_KEY_ID\. An S3 API key/);
    expect(secretOnly).not.toThrow(/rps_shh/);
  });
});

describe("the S3 client's errors and retries", () => {
  const request = {
    operation: "PutObject",
    dataCenterId: "EU-RO-1",
    volumeId: "vol1",
    key: "a.txt",
    accessKeyId: "user_1",
  };
  const answered = (name: string, status: number, message = name) =>
    Object.assign(new Error(message), { name, $metadata: { httpStatusCode: status } });

  it("retries the platform's 502s, other 5xx and broken connections, not refusals", () => {
    for (const status of [500, 502, 503, 504]) expect(isTransient(answered("Unknown", status))).toBe(true);
    expect(isTransient(Object.assign(new Error("reset"), { code: "ECONNRESET" }))).toBe(true);
    expect(isTransient(answered("SlowDown", 503))).toBe(true);
    for (const [name, status] of [
      ["NotImplemented", 501],
      ["SignatureDoesNotMatch", 403],
      ["NoSuchBucket", 404],
      ["EntityTooLarge", 400],
    ] as const) {
      expect(isTransient(answered(name, status))).toBe(false);
    }
  });

  it("says 'the S3 key was refused' for a refused signature, with the access key id and never the XML", () => {
    const e = toS3Error(
      answered("SignatureDoesNotMatch", 403, "The request signature we calculated does not match"),
      request,
    );
    expect([e.code, e.s3Code, e.status, e.operation, e.volumeId, e.key]).toEqual([
      "unauthorized",
      "SignatureDoesNotMatch",
      403,
      "PutObject",
      "vol1",
      "a.txt",
    ]);
    expect(e.message).toMatch(
      /^PutObject on EU-RO-1 volume vol1 key "a\.txt": the S3 key was refused \(access key id "user_1"\)/,
    );
    const xml = toS3Error(answered("Forbidden", 403, "<?xml version='1.0'?><Error/>"), request);
    expect(xml.message).not.toContain("<");
  });

  it("names a volume that is not in the data center, a skewed clock, a refused operation, and a lost connection", () => {
    expect(toS3Error(answered("NoSuchBucket", 404), request).message).toContain(
      "network volume vol1 is not a volume of this account in data center EU-RO-1",
    );
    expect(toS3Error(answered("NotFound", 404), { ...request, operation: "HeadBucket" }).s3Code).toBe("NoSuchBucket");
    expect(toS3Error(answered("RequestTimeTooSkewed", 403), request).message).toContain(
      "this machine's clock is more than an hour off",
    );
    expect(toS3Error(answered("NotImplemented", 501), request).code).toBe("unsupported_operation");
    const lost = toS3Error(Object.assign(new Error("socket hang up"), { code: "ECONNRESET" }), request, 10);
    expect([lost.code, lost.status, lost.message]).toEqual([
      "connection_error",
      undefined,
      expect.stringContaining("(after 10 attempts)"),
    ]);
  });
});

describe("the S3 secret in memory", () => {
  it("is not shown when the settings or a client holding them are printed or serialized", async () => {
    const { VolumeS3Client } = await import("../../../sdk/s3/volume-s3-client");
    const { inspect } = await import("node:util");
    const settings = resolveS3Settings({ s3AccessKeyId: "user_p", s3SecretAccessKey: "rps_printed_never" }, {});
    expect(settings.secretAccessKey).toBe("rps_printed_never");
    const client = new VolumeS3Client({ s3AccessKeyId: "user_p", s3SecretAccessKey: "rps_printed_never" });
    for (const shown of [
      JSON.stringify(settings),
      inspect(settings),
      inspect(client, { depth: 5 }),
      JSON.stringify({ ...settings }),
    ]) {
      expect(shown).toContain("user_p");
      expect(shown).not.toContain("rps_printed_never");
    }
    client.close();
  });
});
