import { describe, expect, it } from "vitest";
import {
  APIError,
  ConnectionError,
  RequestValidationError,
  ResponseValidationError,
  TimeoutError,
} from "../../../sdk/errors";
import { classifyReadFailure, classifySubmitFailure, retryAfterOf } from "../../../sdk/jobs/batch-failures";

const request = { method: "POST", path: "/v2/ep/run" };
const api = (status: number, retryAfterMs?: number) =>
  APIError.fromResponse(status, request, undefined, undefined, retryAfterMs);

describe("what a failed request means for its input", () => {
  it.each([
    ["a 429", api(429, 2000), "rate-limited", "rate-limited"],
    ["a 502", api(502), "not-delivered", "not-delivered"],
    ["a 503", api(503), "not-delivered", "not-delivered"],
    ["a 504", api(504), "not-delivered", "not-delivered"],
    ["a connection that never opened", new ConnectionError(request, false), "not-delivered", "maybe-delivered"],
    ["a connection dropped after sending", new ConnectionError(request, true), "maybe-delivered", "maybe-delivered"],
    ["a timeout", new TimeoutError(request, 30_000), "maybe-delivered", "maybe-delivered"],
    ["a 500", api(500), "maybe-delivered", "maybe-delivered"],
    ["a 2xx body we cannot read", new ResponseValidationError(request, 200, []), "maybe-delivered", "rejected"],
    ["a 401", api(401), "fatal", "fatal"],
    ["a 404", api(404), "fatal", "rejected"],
    ["a 400", api(400), "rejected", "rejected"],
    ["a 413", api(413), "rejected", "rejected"],
    ["an input refused before sending", new RequestValidationError([]), "rejected", "rejected"],
  ])("%s: /run %s, a read %s", (_what, error, submit, read) => {
    expect(classifySubmitFailure(error)).toBe(submit);
    expect(classifyReadFailure(error)).toBe(read);
  });

  it("takes the server's Retry-After hint from the error, when there is one", () => {
    expect(retryAfterOf(api(429, 2000))).toBe(2000);
    expect(retryAfterOf(api(429))).toBeUndefined();
    expect(retryAfterOf(new TimeoutError(request, 1))).toBeUndefined();
  });
});
