import { describe, expect, it } from "vitest";
import { COLLECTION_NAMES } from "../../../emulator/store/collections";
import * as plugin from "../../../plugin";
import { PLUGIN_RESOURCES } from "../../../plugin/plugin-resources";
import * as policy from "../../../policy/resource-types";
import * as dynamic from "../../../provider";
import { FIELD_RULES } from "../../../provider/field-rules";
import * as impl from "../../../provider/impl";
import { providerReference } from "../../../provider/runpod-resource";
import {
  DYNAMIC_TYPE_TOKENS,
  kindsOfFace,
  onlyApiVersionOf,
  PLUGIN_TYPE_TOKENS,
  RESOURCE_KIND_NAMES,
  RESOURCE_KINDS,
  type ResourceKind,
} from "../../../sdk/resource-kinds";

/*
 * The table of kinds (sdk/resource-kinds.ts) is what every face derives its list of kinds from. A
 * row without its class, provider object, field table or pack stub, or any of those without a
 * row, fails here, naming the kind.
 */

const KINDS = RESOURCE_KIND_NAMES;
type Statics = { __pulumiType?: unknown; isInstance?: unknown };

describe("the table of resource kinds", () => {
  it("holds the eight kinds, each impl key and emulator collection once", () => {
    expect([...KINDS].sort()).toEqual(
      [
        "Cluster",
        "ContainerRegistryAuth",
        "NetworkVolume",
        "Pod",
        "Secret",
        "ServerlessEndpoint",
        "Template",
        "VolumeFiles",
      ].sort(),
    );
    const impls = KINDS.map((k) => RESOURCE_KINDS[k].impl);
    expect(new Set(impls).size).toBe(impls.length);
    const collections = KINDS.map((k) => (RESOURCE_KINDS[k] as { collection?: string }).collection).filter(Boolean);
    expect(new Set(collections).size).toBe(collections.length);
  });

  it("gives the type tokens the contracts name (docs/design.md)", () => {
    for (const kind of KINDS) {
      expect(DYNAMIC_TYPE_TOKENS[kind]).toBe(`pulumi-nodejs:dynamic/runpod:${kind}`);
      expect(PLUGIN_TYPE_TOKENS[kind]).toBe(`runpod-iac:index:${kind}`);
    }
  });

  it("says which kinds only management API v2 carries: Secret and Cluster", () => {
    expect(KINDS.filter((k) => onlyApiVersionOf(k) !== undefined).sort()).toEqual(["Cluster", "Secret"]);
    expect(onlyApiVersionOf("Secret")).toBe("v2");
  });

  it.each(KINDS)("%s: a dynamic class, a provider object under its impl key, a field table", (kind: ResourceKind) => {
    const cls = (dynamic as Record<string, Statics>)[kind];
    expect(cls?.__pulumiType).toBe(DYNAMIC_TYPE_TOKENS[kind]);
    const provider = (impl as Record<string, Record<string, unknown>>)[RESOURCE_KINDS[kind].impl];
    for (const method of ["configure", "check", "diff", "create", "read", "delete", "fetch"])
      expect(typeof provider?.[method], `${kind}: ${method}`).toBe("function");
    expect(provider?.inputSchema).toBeDefined();
    expect(providerReference(kind)).toBe(
      `exports.handler = () => require("runpod-iac/impl").${RESOURCE_KINDS[kind].impl};\n`,
    );
    expect(FIELD_RULES[kind]).toBeDefined();
  });

  it.each(kindsOfFace("plugin"))("%s: a plugin-backed class and a plugin entry", (kind) => {
    const cls = (plugin as unknown as Record<string, Statics>)[kind];
    expect(cls?.__pulumiType).toBe(PLUGIN_TYPE_TOKENS[kind]);
    expect(typeof cls?.isInstance).toBe("function");
    expect(PLUGIN_RESOURCES[kind].provider).toBe((impl as Record<string, unknown>)[RESOURCE_KINDS[kind].impl]);
  });

  it.each(KINDS)("%s: the pack's stub matches both of its type tokens", (kind) => {
    const stub = (policy as unknown as Record<string, { __pulumiTypes?: readonly string[] }>)[`${kind}Resource`];
    expect(stub?.__pulumiTypes).toEqual([DYNAMIC_TYPE_TOKENS[kind], PLUGIN_TYPE_TOKENS[kind]]);
    expect(policy.RESOURCE_TYPES[kind]).toBe(DYNAMIC_TYPE_TOKENS[kind]);
    expect(policy.PLUGIN_RESOURCE_TYPES[kind]).toBe(PLUGIN_TYPE_TOKENS[kind]);
  });

  it.each(KINDS.filter((k) => "collection" in RESOURCE_KINDS[k]))(
    "%s: the emulator keeps its records in the collection the table names",
    (kind) => {
      expect(COLLECTION_NAMES).toContain((RESOURCE_KINDS[kind] as { collection?: string }).collection);
    },
  );
});
