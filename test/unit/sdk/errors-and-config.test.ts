import { describe, expect, it } from "vitest";
import {
  APIError,
  apiErrorCode,
  AuthenticationError,
  BadRequestError,
  ConfigurationError,
  DEFAULT_API_URL,
  DEFAULT_QUEUE_URL,
  InternalServerError,
  NotFoundError,
  PayloadTooLargeError,
  RateLimitError,
  requireApiKey,
  resolveClientConfig,
} from "../../../sdk";

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

  it("reports a missing key with every place it can come from", () => {
    expect(() => requireApiKey(resolveClientConfig({}, {}))).toThrow(/runpod:apiKey.*RUNPOD_API_KEY/);
  });
});
