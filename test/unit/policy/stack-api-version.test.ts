import { describe, expect, it, vi } from "vitest";
import { ENDPOINT_DEFAULTS_BY_VERSION } from "../../../sdk/schemas/endpoint-defaults";
import { endpointDefaults, formatEndpointSetting, stackApiVersion } from "../../../policy/stack-api-version";
import { currentStackContext } from "../../../policy/stack-context";
import { checkWorkerBounds, workerBoundsPolicy } from "../../../policy/worker-bounds";
import { runPolicies } from "./engine-harness";

/** The pack reads the management API version the stack talks from RUNPOD_API_URL, for the defaults it fills in. */
describe("the stack's management API version", () => {
  it("is the one RUNPOD_API_URL names", () => {
    expect(stackApiVersion({ RUNPOD_API_URL: "https://rest.runpod.io/v1" })).toBe("v1");
    expect(stackApiVersion({ RUNPOD_API_URL: "http://127.0.0.1:8787/v1/" })).toBe("v1");
    expect(stackApiVersion({ RUNPOD_API_URL: " https://api.runpod.io/v2 " })).toBe("v2");
  });

  it("is not named without it, or with a URL that names no version: the default, v2, applies", () => {
    expect(stackApiVersion({})).toBeUndefined();
    expect(stackApiVersion({ RUNPOD_API_URL: "" })).toBeUndefined();
    expect(stackApiVersion({ RUNPOD_API_URL: "https://example.com/api" })).toBeUndefined();
    expect(endpointDefaults({})).toBe(ENDPOINT_DEFAULTS_BY_VERSION.v2);
    expect(endpointDefaults({ apiVersion: "v1" })).toBe(ENDPOINT_DEFAULTS_BY_VERSION.v1);
  });

  it("is part of the stack context a policy gets", () => {
    const context = currentStackContext(new Map(), undefined, { RUNPOD_API_URL: "https://rest.runpod.io/v1" });
    expect(context.apiVersion).toBe("v1");
  });

  it("is named in a message showing a default only where the two versions' defaults differ", () => {
    expect(formatEndpointSetting(undefined, "workersMax", { apiVersion: "v1" })).toBe("unset (platform default 3)");
    expect(formatEndpointSetting(undefined, "idleTimeout", { apiVersion: "v1" })).toBe(
      "unset (platform default 5 on management API v1)",
    );
    expect(formatEndpointSetting(undefined, "idleTimeout", {})).toBe(
      "unset (platform default 10 on management API v2)",
    );
    expect(formatEndpointSetting(30, "idleTimeout", {})).toBe("30");
  });

  it("gives the worker bounds policy the stack's idle timeout default", () => {
    const settings = { idleTimeoutMax: 8 };
    const v1 = { stackName: "dev", stackTags: new Map<string, string>(), apiVersion: "v1" as const };
    expect(checkWorkerBounds("api", {}, settings, v1)).toEqual([]);
    expect(checkWorkerBounds("api", {}, settings, { ...v1, apiVersion: "v2" })).toEqual([
      'ServerlessEndpoint "api": idleTimeout = unset (platform default 10 on management API v2): must be at most 8 seconds (idleTimeoutMax)',
    ]);
  });

  it("is read by the pack in the analyzer from its environment", async () => {
    const resources = [{ type: "ServerlessEndpoint" as const, name: "api", props: {} }];
    const config = { "runpod-worker-bounds": { idleTimeoutMax: 8 } };
    try {
      vi.stubEnv("RUNPOD_API_URL", "https://rest.runpod.io/v1");
      expect((await runPolicies([workerBoundsPolicy], { resources, config })).mandatory).toEqual([]);
      vi.stubEnv("RUNPOD_API_URL", "");
      expect((await runPolicies([workerBoundsPolicy], { resources, config })).mandatory).toHaveLength(1);
    } finally {
      vi.unstubAllEnvs();
    }
  });
});
