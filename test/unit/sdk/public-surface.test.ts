import { createRequire } from "node:module";
import { describe, expect, it } from "vitest";
import * as sdk from "../../../sdk";
import * as internal from "../../../sdk/internal";

/**
 * Names of classes before each ended in its API version, never in a release of the package (no
 * version of it was published before they went), so no program depends on them.
 */
const NEVER_RELEASED = [
  "NetworkVolumes",
  "Endpoints",
  "Templates",
  "ContainerRegistryAuths",
  "Pods",
  "NetworkVolumesOnV2",
  "EndpointsOnV2",
  "TemplatesOnV2",
  "ContainerRegistryAuthsOnV2",
  "PodsOnV2",
  "BillingOnV2",
];

describe("runpod-iac/sdk's public surface", () => {
  const exported = sdk as unknown as Record<string, unknown>;

  it("is what a program constructs, calls, catches or validates with: at most 60 runtime names", () => {
    expect(typeof exported.RunpodClient).toBe("function");
    expect(Object.keys(exported).length).toBeLessThanOrEqual(60);
  });

  it("keeps no alias of a class that never shipped under that name", () => {
    expect(NEVER_RELEASED.filter((name) => name in exported)).toEqual([]);
  });

  it("exports the classes reached through the client as types only", () => {
    expect(
      ["EndpointsV1", "PodsV2", "NeutralEndpointsOverV2", "ManagementV2", "EndpointJobs"].filter(
        (name) => name in exported,
      ),
    ).toEqual([]);
  });

  it("exports none of the client's internals", () => {
    expect(Object.keys(internal).length).toBeGreaterThan(0);
    expect(Object.keys(internal).filter((name) => name in exported)).toEqual([]);
  });

  it("gives programs no path to the internals: package.json's exports do not reach them", () => {
    // The repository links itself as node_modules/runpod-iac (scripts/link-self.js), so this
    // resolves the way a program that installed the package does.
    const require = createRequire(__filename);
    expect(() => require.resolve("runpod-iac/sdk/internal")).toThrow(
      expect.objectContaining({ code: "ERR_PACKAGE_PATH_NOT_EXPORTED" }),
    );
  });
});

describe("the package's entry points", () => {
  it("has no ./provider entry: the root entry is the resources", () => {
    const require = createRequire(__filename);
    expect(() => require.resolve("runpod-iac/provider")).toThrow(
      expect.objectContaining({ code: "ERR_PACKAGE_PATH_NOT_EXPORTED" }),
    );
  });
});
