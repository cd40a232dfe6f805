import { afterEach, describe, expect, it } from "vitest";
import { takeUndeliveredNotices } from "../../../provider/engine-notice";
import { SECRET_FIELDS } from "../../../provider/field-rules";
import { UNKNOWN } from "../../../provider/property-values";
import { configureDirect } from "../../../provider/provider-config";
import { secretProvider as secrets } from "../../../provider/secret-provider";

const VALUE = "hf_providerUnitValue0123456789abcdef";
const inputs = { name: "hf-token-abc1234", __autoNamed: true, value: VALUE, description: "read token" };

afterEach(() => configureDirect({}));

describe("Secret check", () => {
  it("accepts valid inputs and hands them on unchanged", async () => {
    expect(await secrets.check({}, inputs)).toEqual({ inputs, failures: [] });
  });

  it.each([
    ["name", "9-lives", "must start with a letter or _ and hold only letters, digits and _ . - /"],
    ["name", "runpod-key", "must not begin with RUNPOD, in any case: the platform reserves that prefix"],
    ["name", "n".repeat(192), "must be at most 191 characters"],
    ["value", "", "must not be empty"],
    ["value", "v".repeat(16 * 1024 * 1024), "must be smaller than 16 MiB of UTF-8 (strictly under 16777216 bytes)"],
    ["description", "€".repeat(21_846), "must be at most 65535 bytes of UTF-8; it has 65538"],
    ["adoptId", "", "must be the id of an existing resource (a non-empty string)"],
  ])("fails on %s, naming the rule and never the value", async (property, value, reason) => {
    const { failures } = await secrets.check({}, { ...inputs, __autoNamed: undefined, [property]: value });
    expect(failures).toEqual([{ property, reason: expect.stringContaining(reason) }]);
    expect(JSON.stringify(failures)).not.toContain(VALUE);
    if (property === "value" && value !== "") expect(JSON.stringify(failures)).not.toContain("vvvv");
  });

  it("explains a made-up name that breaks the rules: the logical name does not fit, so set one", async () => {
    const { failures } = await secrets.check({}, { ...inputs, name: "runpod-token-abc1234", __autoNamed: true });
    expect(failures).toEqual([
      {
        property: "name",
        reason:
          'the name made from the logical name, "runpod-token-abc1234", must not begin with RUNPOD, in any case: the platform reserves that prefix; set name to one that does',
      },
    ]);
  });

  it("does not judge values unknown during preview", async () => {
    expect((await secrets.check({}, { ...inputs, value: UNKNOWN, description: UNKNOWN })).failures).toEqual([]);
  });

  it("fails at preview on management API v1, naming the version and how to switch", async () => {
    configureDirect({ apiUrl: "https://rest.runpod.io/v1" });
    expect((await secrets.check({}, inputs)).failures).toEqual([
      {
        property: "",
        reason:
          "Secret exists only on management API v2, and the API URL names v1: point runpod:apiUrl (or RUNPOD_API_URL) at a .../v2 URL, or remove the Secret",
      },
    ]);
  });
});

describe("Secret diff", () => {
  const state = {
    name: "hf-token-abc1234",
    value: VALUE,
    description: "read token",
    reference: "{{ RUNPOD_SECRET_hf-token-abc1234 }}",
    valueLastUpdatedAt: "2026-09-01T00:00:00.000Z",
  };

  it("replaces on a new name, rotates a new value in place, updates a description in place", async () => {
    expect(SECRET_FIELDS).toEqual({
      name: { replaces: true },
      value: {},
      description: { meaning: expect.any(Function) },
    });
    expect(await secrets.diff("id", state, inputs)).toEqual({
      changes: false,
      replaces: [],
      deleteBeforeReplace: false,
    });
    expect(await secrets.diff("id", state, { ...inputs, name: "hf-token-2" })).toEqual({
      changes: true,
      replaces: ["name"],
      deleteBeforeReplace: false,
    });
    expect(await secrets.diff("id", state, { ...inputs, value: `${VALUE}!` })).toMatchObject({
      changes: true,
      replaces: [],
    });
    expect(await secrets.diff("id", state, { ...inputs, description: "x" })).toMatchObject({
      changes: true,
      replaces: [],
    });
  });

  it("takes no description, null and an empty one as the same", async () => {
    const none = { ...state, description: undefined };
    expect((await secrets.diff("id", none, { ...inputs, description: "" })).changes).toBe(false);
    expect((await secrets.diff("id", { ...state, description: null }, { ...inputs, description: "" })).changes).toBe(
      false,
    );
  });

  it("shows a value refresh lost (rotated outside Pulumi) as a change, with a notice on the resource", async () => {
    takeUndeliveredNotices();
    const refreshed = { ...state, value: undefined, valueLastUpdatedAt: "2026-09-02T00:00:00.000Z" };
    const urn = "urn:pulumi:dev::p::pulumi-nodejs:dynamic/runpod:Secret::hf-token";
    expect(await secrets.diff("id", refreshed, { ...inputs, __urn: urn })).toMatchObject({
      changes: true,
      replaces: [],
    });
    expect(takeUndeliveredNotices()).toEqual([
      {
        urn,
        message:
          "the value was set outside Pulumi (at 2026-09-02T00:00:00.000Z, seen by refresh); this update sets it back to the program's value, and pods and workers get it when they next start",
      },
    ]);
  });
});
