import { describe, expect, it } from "vitest";
import { RESOURCE_TYPES } from "../../../policy/resource-types";
import { NetworkVolume, ServerlessEndpoint } from "../../../provider";

describe("type tokens", () => {
  it("are DESIGN.md's tokens, and the policy pack matches resources by the same ones", () => {
    expect(NetworkVolume.__pulumiType).toBe("pulumi-nodejs:dynamic/runpod:NetworkVolume");
    expect(ServerlessEndpoint.__pulumiType).toBe("pulumi-nodejs:dynamic/runpod:ServerlessEndpoint");
    expect(Object.values(RESOURCE_TYPES).sort()).toEqual(
      [NetworkVolume.__pulumiType, ServerlessEndpoint.__pulumiType].sort(),
    );
  });
});
