import requireFromString from "require-from-string";
import { describe, expect, it } from "vitest";
import { providerReference, type RunpodResourceType } from "../../../provider/runpod-resource";

/** The serialized provider is one small module reference (target: at most 1,000 bytes). */
const BUDGET_BYTES = 1000;
const METHODS = ["configure", "check", "diff", "create", "read", "update", "delete"];
const TYPES: RunpodResourceType[] = ["NetworkVolume", "ServerlessEndpoint", "Cluster", "Secret"];

describe.each(TYPES)("the serialized %s provider", (type) => {
  it("is one module reference by package name, far under the budget, holding no code or configuration", () => {
    const text = providerReference(type);
    expect(Buffer.byteLength(text)).toBeLessThanOrEqual(BUDGET_BYTES);
    expect(text).toMatch(/^exports\.handler = \(\) => require\("runpod-iac\/impl"\)\.[a-zA-Z]+;\n$/);
  });

  it("loads the installed implementation with every provider method, as the engine's dynamic provider host does", () => {
    // The Node.js dynamic provider host evaluates `__provider` with require-from-string and calls
    // `handler()`; module lookup starts at the working directory, here the repository, whose
    // node_modules links `runpod-iac` to itself (scripts/link-self.js).
    const provider = (
      requireFromString(providerReference(type)) as { handler: () => Record<string, unknown> }
    ).handler();
    for (const method of METHODS) expect(typeof provider[method], method).toBe("function");
  });
});
