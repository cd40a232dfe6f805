import { describe, expect, it } from "vitest";
import {
  APIError,
  AuthenticationError,
  BadRequestError,
  ConfigurationError,
  DEFAULT_API_URL,
  DEFAULT_QUEUE_URL,
  InternalServerError,
  NotFoundError,
  PayloadTooLargeError,
  RateLimitError,
  UnsupportedOperationError,
} from "../../../sdk";
import {
  apiErrorCode,
  apiVersionOf,
  requireApiKey,
  resolveClientConfig,
  versionFieldProblems,
} from "../../../sdk/internal";

describe("APIError.fromResponse", () => {
  const req = { method: "GET", path: "/v1/networkvolumes/x" };
  it.each([
    [400, BadRequestError, "bad_request"],
    [401, AuthenticationError, "unauthorized"],
    [404, NotFoundError, "not_found"],
    [413, PayloadTooLargeError, "payload_too_large"],
    [429, RateLimitError, "rate_limited"],
    [500, InternalServerError, "server_error"],
    [503, InternalServerError, "server_error"],
    [418, APIError, "api_error"],
  ])("maps %s to %s with code %s", (status, cls, code) => {
    const err = APIError.fromResponse(status, req, "why", "req-1");
    expect(err).toBeInstanceOf(cls);
    expect(err.code).toBe(code);
    expect(err.name).toBe(cls.name);
    expect(err.status).toBe(status);
    expect(err.method).toBe("GET");
    expect(err.path).toBe("/v1/networkvolumes/x");
    expect(err.requestId).toBe("req-1");
    expect(err.message).toBe(`GET /v1/networkvolumes/x failed with ${status}: why (request id req-1)`);
  });

  it("keeps the Retry-After hint on a 429 and on a 503", () => {
    const err = APIError.fromResponse(429, req, undefined, undefined, 2_000) as RateLimitError;
    expect(err.retryAfterMs).toBe(2_000);
    expect(APIError.fromResponse(503, req, undefined, undefined, 1_000).retryAfterMs).toBe(1_000);
  });

  it("gives a subclass constructed directly the code of its status", () => {
    const err = new NotFoundError(404, req, undefined, undefined);
    expect([err.code, err.name, err.message]).toEqual([
      "not_found",
      "NotFoundError",
      "GET /v1/networkvolumes/x failed with 404",
    ]);
    expect(apiErrorCode(502)).toBe("server_error");
    expect(apiErrorCode(409)).toBe("api_error");
  });
});

describe("resolveClientConfig", () => {
  it("prefers options, then the environment, then the defaults", () => {
    const env = { RUNPOD_API_KEY: "env-key", RUNPOD_API_URL: "http://env/v1", RUNPOD_QUEUE_URL: "http://env/v2" };
    expect(resolveClientConfig({ apiKey: "opt-key", apiUrl: "http://opt/v1/" }, env)).toMatchObject({
      apiKey: "opt-key",
      apiUrl: "http://opt/v1",
      queueUrl: "http://env/v2",
    });
    expect(resolveClientConfig({}, env)).toMatchObject({ apiKey: "env-key", apiUrl: "http://env/v1" });
    expect(resolveClientConfig({}, {})).toMatchObject({
      apiKey: undefined,
      apiUrl: DEFAULT_API_URL,
      queueUrl: DEFAULT_QUEUE_URL,
    });
  });

  it("refuses a URL that is not http(s) or that carries credentials", () => {
    expect(() => resolveClientConfig({ apiUrl: "ftp://x/v1" }, {})).toThrow(ConfigurationError);
    expect(() => resolveClientConfig({ apiUrl: "not a url" }, {})).toThrow(/apiUrl = "not a url" is not a valid URL/);
    expect(() => resolveClientConfig({ queueUrl: "https://u:p@x/v2" }, {})).toThrow(/must not carry credentials/);
  });

  it("selects the management API version from the URL's last path segment, v2 by default", () => {
    expect(resolveClientConfig({}, {})).toMatchObject({ apiUrl: "https://api.runpod.io/v2", apiVersion: "v2" });
    expect(resolveClientConfig({ apiUrl: "https://rest.runpod.io/v1" }, {}).apiVersion).toBe("v1");
    expect(resolveClientConfig({ apiUrl: "http://127.0.0.1:8787/v2/" }, {}).apiVersion).toBe("v2");
    expect(apiVersionOf("http://proxy.internal/runpod/v1")).toBe("v1");
    expect(() => resolveClientConfig({ apiUrl: "http://127.0.0.1:8787" }, {})).toThrow(
      'apiUrl = "http://127.0.0.1:8787" must end in /v1 or /v2, the management API version (default https://api.runpod.io/v2)',
    );
    expect(() => apiVersionOf("https://api.runpod.io/v3")).toThrow(ConfigurationError);
  });

  it("reports a missing key with every place it can come from", () => {
    expect(() => requireApiKey(resolveClientConfig({}, {}))).toThrow(/runpod:apiKey.*RUNPOD_API_KEY/);
  });
});

describe("versionFieldProblems", () => {
  it("names an input only the other version has, its value, and how to select that version", () => {
    expect(versionFieldProblems("networkVolume", "v1", { name: "v", type: "HIGH_PERFORMANCE" })).toEqual([
      {
        field: "type",
        value: '"HIGH_PERFORMANCE"',
        rule: "storage tiers (STANDARD, HIGH_PERFORMANCE) exist only on management API v2, and the API URL names v1: point runpod:apiUrl (or RUNPOD_API_URL) at a .../v2 URL, or remove type",
      },
    ]);
    expect(versionFieldProblems("networkVolume", "v2", { type: "HIGH_PERFORMANCE" })).toEqual([]);
    expect(versionFieldProblems("networkVolume", "v1", { name: "v" })).toEqual([]);
  });
});

describe("UnsupportedOperationError", () => {
  it("names the operation, the version the client talks and the one that has it", () => {
    const err = new UnsupportedOperationError("pods.reset", "v2", "PATCH the pod instead");
    expect(err).toMatchObject({ code: "unsupported_operation", operation: "pods.reset", version: "v2" });
    expect(err.message).toBe(
      "pods.reset is not available on management API v2 (only on v1); this client talks v2 because its apiUrl ends in /v2: PATCH the pod instead",
    );
  });
});
