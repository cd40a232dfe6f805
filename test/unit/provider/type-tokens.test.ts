import { describe, expect, it } from "vitest";
import { RESOURCE_TYPES, type ResourceKind } from "../../../policy/resource-types";
import { NetworkVolume, ServerlessEndpoint } from "../../../provider";
import { typeToken } from "../../../provider/runpod-resource";

describe("type tokens", () => {
  it("are the documented tokens (docs/design.md), and the policy pack matches resources by the same ones", () => {
    expect(NetworkVolume.__pulumiType).toBe("pulumi-nodejs:dynamic/runpod:NetworkVolume");
    expect(ServerlessEndpoint.__pulumiType).toBe("pulumi-nodejs:dynamic/runpod:ServerlessEndpoint");
    expect(RESOURCE_TYPES.NetworkVolume).toBe(NetworkVolume.__pulumiType);
    expect(RESOURCE_TYPES.ServerlessEndpoint).toBe(ServerlessEndpoint.__pulumiType);
    // Every kind the pack knows, including those whose classes arrive later (Template, ContainerRegistryAuth).
    for (const kind of Object.keys(RESOURCE_TYPES) as ResourceKind[])
      expect(RESOURCE_TYPES[kind]).toBe(typeToken(kind));
  });
});
