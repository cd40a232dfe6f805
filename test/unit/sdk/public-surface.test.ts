import { createRequire } from "node:module";
import { describe, expect, it } from "vitest";
import * as sdk from "../../../sdk";
import * as internal from "../../../sdk/internal";

/** Every name `runpod-iac/sdk` exported before classes ended in their version, and its new name. */
const RENAMED: Readonly<Record<string, string>> = {
  NetworkVolumes: "NetworkVolumesV1",
  Endpoints: "EndpointsV1",
  Templates: "TemplatesV1",
  ContainerRegistryAuths: "ContainerRegistryAuthsV1",
  Pods: "PodsV1",
  NetworkVolumesOnV2: "NeutralNetworkVolumesOverV2",
  EndpointsOnV2: "NeutralEndpointsOverV2",
  TemplatesOnV2: "NeutralTemplatesOverV2",
  ContainerRegistryAuthsOnV2: "NeutralContainerRegistryAuthsOverV2",
  PodsOnV2: "NeutralPodsOverV2",
  BillingOnV2: "NeutralBillingOverV2",
};

describe("runpod-iac/sdk's public surface", () => {
  const exported = sdk as unknown as Record<string, unknown>;

  it("keeps each renamed class under its old name, as the very same class", () => {
    for (const [old, current] of Object.entries(RENAMED)) {
      expect(typeof exported[current], current).toBe("function");
      expect(exported[old], old).toBe(exported[current]);
    }
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
