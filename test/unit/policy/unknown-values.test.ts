import * as policyProxy from "@pulumi/policy/proxy";
import { describe, expect, it } from "vitest";
import { formatValue } from "../../../policy/format";
import { isSet, isUnknownValue, rawProp, UNKNOWN, UNKNOWN_SENTINELS } from "../../../policy/unknown-values";

const proxy = policyProxy as unknown as Record<string, unknown> & {
  unknownCheckingProxy<T extends object>(props: T): T;
};

describe("values unknown during preview", () => {
  it("are recognised by the same sentinels @pulumi/policy's proxy refuses to read", () => {
    const theirs = Object.entries(proxy)
      .filter(([key]) => /^unknown[A-Z]\w*Value$/.test(key))
      .map(([, value]) => value);
    expect([...theirs].sort()).toEqual([...UNKNOWN_SENTINELS].sort());
    expect(UNKNOWN_SENTINELS).toContain(UNKNOWN);
  });

  it("are read raw through the proxy without throwing, where a plain read throws", () => {
    const props = proxy.unknownCheckingProxy({ networkVolumeId: UNKNOWN, ids: [UNKNOWN, "v"], size: 5 });
    expect(() => props.networkVolumeId).toThrow("can't be known during preview");
    expect(rawProp(props, "networkVolumeId")).toBe(UNKNOWN);
    expect(rawProp(props, "ids")).toEqual([UNKNOWN, "v"]);
    expect(rawProp(props, "size")).toBe(5);
    expect(rawProp(props, "missing")).toBeUndefined();
  });

  it("count as set; absent, null and empty lists do not", () => {
    const props = { a: UNKNOWN, b: [UNKNOWN], c: [], d: null, e: 0, f: "" };
    expect(["a", "b", "c", "d", "e", "f", "g"].map((k) => isSet(props, k))).toEqual([
      true,
      true,
      false,
      false,
      true,
      true,
      false,
    ]);
  });

  it("are told apart from ordinary strings", () => {
    expect(isUnknownValue(UNKNOWN)).toBe(true);
    expect(isUnknownValue("vol-123")).toBe(false);
    expect(isUnknownValue([UNKNOWN])).toBe(false);
  });

  it("are rendered as unknown in messages, never as the sentinel", () => {
    expect(formatValue(UNKNOWN)).toBe("<unknown until pulumi up>");
    expect(formatValue([UNKNOWN, "v"])).toBe('["<unknown until pulumi up>","v"]');
  });
});
