import { createRequire } from "node:module";
import { describe, expect, it } from "vitest";
import * as policy from "../../../policy/index";

describe("runpod-iac/policy's public surface", () => {
  const exported = policy as unknown as Record<string, unknown>;

  it("is the pack and its configuration: at most 20 runtime names", () => {
    expect(Array.isArray(exported.runpodPolicies)).toBe(true);
    expect(Object.keys(exported).length).toBeLessThanOrEqual(20);
  });

  it("holds the configuration schema of each of the pack's policies", () => {
    const schemas = Object.keys(exported).filter((name) => name.endsWith("ConfigSchema"));
    expect(schemas).toHaveLength(policy.runpodPolicies.length);
  });

  it("exports no rule: they are the pack's own modules, which programs have no path to", () => {
    expect(Object.keys(exported).filter((name) => name.startsWith("check"))).toEqual([]);
    // The repository links itself as node_modules/runpod-iac (scripts/link-self.js), so this
    // resolves the way a program that installed the package does.
    const require = createRequire(__filename);
    expect(() => require.resolve("runpod-iac/policy/worker-bounds")).toThrow(
      expect.objectContaining({ code: "ERR_PACKAGE_PATH_NOT_EXPORTED" }),
    );
  });
});
