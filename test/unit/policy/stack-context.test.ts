import { describe, expect, it } from "vitest";
import {
  currentStackContext,
  matchesPattern,
  resolveStackSettings,
  settingLabel,
  stackNameFromEnvironment,
  stackNameFromUrn,
  stackPatternMatches,
  stackTagMatches,
} from "../../../policy/stack-context";

describe("stack name", () => {
  it("comes from PULUMI_STACK, which the engine sets for policy packs", () => {
    expect(stackNameFromEnvironment({ PULUMI_STACK: "dev", PULUMI_NODEJS_STACK: "other" })).toBe("dev");
  });

  it("falls back to PULUMI_NODEJS_STACK", () => {
    expect(stackNameFromEnvironment({ PULUMI_NODEJS_STACK: "prod" })).toBe("prod");
  });

  it("is unknown when neither is set or both are empty", () => {
    expect(stackNameFromEnvironment({})).toBeUndefined();
    expect(stackNameFromEnvironment({ PULUMI_STACK: "", PULUMI_NODEJS_STACK: "" })).toBeUndefined();
  });

  it("joins the stack's tags into the context", () => {
    const tags = new Map([["env", "dev"]]);
    expect(currentStackContext(tags, undefined, { PULUMI_STACK: "dev" })).toEqual({
      stackName: "dev",
      stackTags: tags,
    });
  });

  it("takes the stack name from the checked resource's URN first", () => {
    const urn = "urn:pulumi:dev-alice::proj::pulumi-nodejs:dynamic/runpod:ServerlessEndpoint::api";
    expect(stackNameFromUrn(urn)).toBe("dev-alice");
    expect(currentStackContext(new Map(), urn, { PULUMI_STACK: "other" }).stackName).toBe("dev-alice");
    expect(stackNameFromUrn("not-a-urn")).toBeUndefined();
    expect(stackNameFromUrn(undefined)).toBeUndefined();
  });
});

describe("stack patterns", () => {
  it.each([
    ["dev*", "dev", true],
    ["dev*", "dev-alice", true],
    ["dev*", "my-dev", false],
    ["*-eu", "prod-eu", true],
    ["dev-?", "dev-1", true],
    ["dev-?", "dev-12", false],
    ["prod", "prod", true],
    ["prod", "production", false],
    ["prod.eu", "prodXeu", false],
    ["prod.eu", "prod.eu", true],
    ["a+b(c)", "a+b(c)", true],
    ["*", "anything", true],
    ["Dev*", "dev", false],
  ])("pattern %s matches %s: %s", (pattern, text, expected) => {
    expect(matchesPattern(pattern, text)).toBe(expected);
  });

  it("matches a fully qualified stack name by its last segment too", () => {
    expect(stackPatternMatches("dev*", "acme/project/dev-1")).toBe(true);
    expect(stackPatternMatches("acme/*/dev-1", "acme/project/dev-1")).toBe(true);
  });

  it("never matches when the stack name is unknown", () => {
    expect(stackPatternMatches("*", undefined)).toBe(false);
  });
});

describe("stack tag keys", () => {
  const tags = new Map([
    ["env", "dev-eu"],
    ["team", "ml"],
  ]);

  it("match a tag's presence by name", () => {
    expect(stackTagMatches("team", tags)).toBe(true);
    expect(stackTagMatches("owner", tags)).toBe(false);
  });

  it("match a tag's value by pattern", () => {
    expect(stackTagMatches("env=dev*", tags)).toBe(true);
    expect(stackTagMatches("env=dev", tags)).toBe(false);
    expect(stackTagMatches("owner=*", tags)).toBe(false);
  });
});

describe("per-stack settings", () => {
  interface Caps {
    a: number;
    b: number;
  }
  const overrides = {
    byStack: { "dev*": { a: 1 }, "dev-big": { a: 2, b: 20 } },
    byStackTag: { "env=dev*": { b: 5 } },
  };

  it("are the base settings when nothing matches", () => {
    expect(resolveStackSettings<Caps>({ a: 10 }, overrides, { stackName: "prod", stackTags: new Map() })).toEqual({
      values: { a: 10 },
      sources: {},
    });
  });

  it("apply stack patterns in order, then tags, and remember which override set each value", () => {
    const settings = resolveStackSettings<Caps>({ a: 10, b: 100 }, overrides, {
      stackName: "dev-big",
      stackTags: new Map([["env", "dev"]]),
    });
    expect(settings.values).toEqual({ a: 2, b: 5 });
    expect(settingLabel(settings, "a")).toBe('a from byStack "dev-big" for stack "dev-big"');
    expect(settingLabel(settings, "b")).toBe('b from byStackTag "env=dev*"');
  });

  it("ignore an override's undefined values", () => {
    const settings = resolveStackSettings<Caps>(
      { a: 10 },
      { byStack: { dev: { a: undefined } } },
      {
        stackName: "dev",
        stackTags: new Map(),
      },
    );
    expect(settings.values).toEqual({ a: 10 });
    expect(settingLabel(settings, "a")).toBe("a");
  });
});
