import { describe, expect, it } from "vitest";
import { parseRateLimit, parseRateLimitPolicy } from "../../../sdk/rate-limit/rate-limit-headers";

describe("parseRateLimit", () => {
  it.each<[string, string | string[] | undefined, ReturnType<typeof parseRateLimit>]>([
    [
      "the OpenAPI's example",
      '"minute";r=0;t=12, "hour";r=2800;t=1812, "day";r=49500;t=45012',
      [
        { window: "minute", remaining: 0, resetSeconds: 12 },
        { window: "hour", remaining: 2800, resetSeconds: 1812 },
        { window: "day", remaining: 49500, resetSeconds: 45012 },
      ],
    ],
    [
      "a token for a name, parameters in any order",
      "minute;t=5;r=7",
      [{ window: "minute", remaining: 7, resetSeconds: 5 }],
    ],
    [
      "parameters it does not know, ignored",
      '"minute";r=1;t=2;pk=:AQI=:',
      [{ window: "minute", remaining: 1, resetSeconds: 2 }],
    ],
    [
      "several field lines, joined as one list",
      ['"minute";r=1;t=2', '"hour";r=3;t=4'],
      [
        { window: "minute", remaining: 1, resetSeconds: 2 },
        { window: "hour", remaining: 3, resetSeconds: 4 },
      ],
    ],
    [
      "a window named twice: the first member",
      '"minute";r=1;t=2, "minute";r=9;t=9',
      [{ window: "minute", remaining: 1, resetSeconds: 2 }],
    ],
    ["no header", undefined, []],
    ["an empty header", "  ", []],
  ])("reads %s", (_, value, expected) => {
    expect(parseRateLimit(value)).toEqual(expected);
  });

  it.each([
    ["an unterminated string", '"minute;r=1;t=2'],
    ["a trailing comma", '"minute";r=1;t=2,'],
    ["an upper-case parameter key", '"minute";R=1;t=2'],
    ["a JSON object", '{"minute": {"r": 1}}'],
  ])("ignores a field that is not a structured list: %s", (_, value) => {
    expect(parseRateLimit(value)).toEqual([]);
  });

  it.each([
    ["without r", '"minute";t=2'],
    ["without t", '"minute";r=1'],
    ["a negative count", '"minute";r=-1;t=2'],
    ["a decimal", '"minute";r=1.5;t=2'],
    ["a string count", '"minute";r="1";t=2'],
    ["a boolean count", '"minute";r;t=2'],
    ["a number for a name", "5;r=1;t=2"],
    ["an inner list for a name", '("minute" "hour");r=1;t=2'],
  ])("skips a member %s and keeps the others", (_, member) => {
    expect(parseRateLimit(`${member}, "hour";r=3;t=4`)).toEqual([{ window: "hour", remaining: 3, resetSeconds: 4 }]);
  });
});

describe("parseRateLimitPolicy", () => {
  it("reads the OpenAPI's example policy", () => {
    expect(parseRateLimitPolicy('"minute";q=60;w=60, "hour";q=3000;w=3600, "day";q=50000;w=86400')).toEqual([
      { window: "minute", quota: 60, windowSeconds: 60 },
      { window: "hour", quota: 3000, windowSeconds: 3600 },
      { window: "day", quota: 50000, windowSeconds: 86400 },
    ]);
  });

  it("skips members without a whole q and w, and ignores a malformed field", () => {
    expect(parseRateLimitPolicy('"minute";q=60, "burst";q=5;w=1')).toEqual([
      { window: "burst", quota: 5, windowSeconds: 1 },
    ]);
    expect(parseRateLimitPolicy('"minute";q=60;w=60;')).toEqual([]);
  });
});
