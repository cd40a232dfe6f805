import * as pulumi from "@pulumi/pulumi";
import { describe, expect, it } from "vitest";
import { configureDirect } from "../../../provider/provider-config";
import { networkVolumeShim, serverlessEndpointShim } from "../../../provider/serialized-providers";

/** DESIGN.md / issue 4: each serialized provider stays small. */
const BUDGET_BYTES = 2048;
const SECRET = "rpa_SERIALIZATION_TEST_SECRET";

describe.each([
  ["NetworkVolume", networkVolumeShim],
  ["ServerlessEndpoint", serverlessEndpointShim],
])("the serialized %s provider", (_name, shim) => {
  it("is under the size budget, holds no credential and loads its implementation by package name", async () => {
    // Even with a key configured in this process, nothing of it may be captured.
    process.env.RUNPOD_API_KEY = SECRET;
    configureDirect({ apiKey: SECRET, apiUrl: "http://127.0.0.1:1/v1" });
    const serialized = await pulumi.runtime.serializeFunction(() => shim, { allowSecrets: false });
    delete process.env.RUNPOD_API_KEY;
    expect(serialized.containsSecrets).toBe(false);
    expect(Buffer.byteLength(serialized.text)).toBeLessThan(BUDGET_BYTES);
    expect(serialized.text).not.toContain(SECRET);
    expect(serialized.text).not.toMatch(/127\.0\.0\.1|apiKey|undici|zod/);
    expect(serialized.text).toContain('require("pulumi-runpod/impl")');
  });

  it("serializes to the same text every time, so upgrades do not diff", async () => {
    const a = await pulumi.runtime.serializeFunction(() => shim);
    const b = await pulumi.runtime.serializeFunction(() => shim);
    expect(a.text).toBe(b.text);
  });
});
