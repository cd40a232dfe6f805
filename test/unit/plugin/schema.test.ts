import * as fs from "node:fs";
import { ROLLOUT_INPUTS } from "../../../provider/rollout-settings";
import { beforeAll, describe, expect, it } from "vitest";
import { FIELD_RULES } from "../../../provider/field-rules";
import { typeToken, type RunpodResourceType } from "../../../provider/runpod-resource";
import { resolveClientConfig } from "../../../sdk/config";
import { PLUGIN_CONFIG } from "../../../plugin/plugin-config";
import { PLUGIN_RESOURCES, type PluginResourceType } from "../../../plugin/plugin-resources";
import { schemaPath } from "../../../plugin/plugin-schema";
import { buildSchema, type ResourceFacts } from "../../../plugin/schema-gen/build-schema";
import { generatedFiles } from "../../../plugin/schema-gen/generate";
import type { PackageSchema } from "../../../plugin/schema-gen/schema-types";
import { pluginTypeToken } from "../../../plugin/type-tokens";

/** The types the plugin serves: every field table's but those only the dynamic resources serve yet. */
const TYPES = Object.keys(PLUGIN_RESOURCES) as PluginResourceType[];

/** A small resource's facts, as the generator reads them from the sources; tests change one fact at a time. */
function facts(change: (f: ResourceFacts) => void = () => undefined): ResourceFacts {
  const f: ResourceFacts = {
    type: "NetworkVolume",
    doc: "A volume.",
    inputs: [
      { name: "size", optional: false, doc: "Size in GB.", type: { kind: "number" } },
      {
        name: "tier",
        optional: true,
        doc: "Tier.",
        type: { kind: "string", values: ["A", "B"], open: false, alias: "Tier" },
      },
      { name: "adoptId", optional: true, doc: "Adopt.", type: { kind: "string", open: true } },
    ],
    outputs: [
      { name: "size", optional: false, doc: "Size.", type: { kind: "number" } },
      { name: "secretThing", optional: true, doc: "Secret.", type: { kind: "string", open: true } },
    ],
    secretOutputs: ["secretThing"],
    secretInputs: [],
    fields: { size: {}, tier: { replaces: true } },
    zod: {
      type: "object",
      properties: { size: { type: "integer", minimum: 0, maximum: 4000 }, tier: { type: "string", enum: ["A", "B"] } },
    },
  };
  change(f);
  return f;
}

const PKG = { version: "9.9.9", description: "d", license: "Apache-2.0", config: {} };

describe("the plugin schema generator", () => {
  let files: Record<string, string>;
  let generated: PackageSchema;
  beforeAll(() => {
    files = generatedFiles();
    generated = JSON.parse(files[schemaPath()]!) as PackageSchema;
  }, 120_000);

  it("wrote plugin/schema.json and plugin/enums.ts: the committed files are what the sources generate (else: npm run gen:schema)", () => {
    expect(Object.keys(files)).toContain(schemaPath());
    for (const [file, text] of Object.entries(files)) expect(fs.readFileSync(file, "utf8"), file).toBe(text);
  }, 120_000);

  it("gives no two properties of a resource one snake_case name: the Python SDK would not compile", () => {
    // The Python generator's camelCase to snake_case, acronyms included (minRAMPerGPU: min_ram_per_gpu).
    const snake = (name: string) =>
      name
        .replace(/([a-z0-9])([A-Z])/g, "$1_$2")
        .replace(/([A-Z]+)([A-Z][a-z])/g, "$1_$2")
        .toLowerCase();
    for (const [token, resource] of Object.entries(generated.resources)) {
      for (const properties of [resource.inputProperties, resource.properties]) {
        const names = Object.keys(properties ?? {}).map(snake);
        expect(
          names.filter((n, i) => names.indexOf(n) !== i),
          token,
        ).toEqual([]);
      }
    }
  });

  it("serves every resource type with a field table: all seven, Secret and Cluster included", () => {
    expect([...TYPES].sort()).toEqual(Object.keys(FIELD_RULES).sort());
    expect(TYPES).toHaveLength(7);
    expect(Object.keys(generated.resources)).toHaveLength(7);
  });

  it("serves the catalog functions as the schema's functions, inputs from their Args, outputs from their results", () => {
    expect(Object.keys(generated.functions).sort()).toEqual([
      "runpod-iac:index:getCpuFlavors",
      "runpod-iac:index:getDataCenters",
      "runpod-iac:index:getGpuTypes",
    ]);
    const gpus = generated.functions["runpod-iac:index:getGpuTypes"]!;
    expect(Object.keys(gpus.inputs.properties).sort()).toEqual([
      "cloud",
      "count",
      "countryCodes",
      "cudaVersions",
      "include",
      "minCudaVersion",
      "product",
    ]);
    expect(gpus.inputs.required).toBeUndefined();
    // Bounds from the arguments' zod schema, as a resource's inputs get theirs.
    expect(gpus.inputs.properties.count).toMatchObject({ type: "integer" });
    expect(gpus.inputs.properties.count!.description).toContain("Checked at preview: a whole number, at least 1.");
    expect(gpus.outputs).toMatchObject({
      properties: { gpuTypes: { type: "array", items: { $ref: "#/types/runpod-iac:index:CatalogGpuType" } } },
      required: ["gpuTypes"],
    });
    const gpuType = generated.types["runpod-iac:index:CatalogGpuType"]!;
    expect(gpuType.type).toBe("object");
    expect(gpuType.properties!.price).toEqual(
      expect.objectContaining({ $ref: "#/types/runpod-iac:index:CatalogGpuTypePrice" }),
    );
    expect(generated.functions["runpod-iac:index:getDataCenters"]!.inputs.properties.globalNetwork).toMatchObject({
      type: "boolean",
    });
    expect(gpus.description).toContain("GET /v2/catalog/gpus");
    // `pool: string | null` (null when serverless cannot rent the type): present, but not required,
    // so the Go SDK types it *string and the Python SDK Optional[str].
    expect(gpuType.properties!.pool).toMatchObject({ type: "string" });
    expect(gpuType.required).toEqual(expect.arrayContaining(["id", "name", "memory"]));
    expect(gpuType.required).not.toContain("pool");
  });

  it("gives every resource its type token, its inputs (its Args) and its dynamic type as an alias", () => {
    expect(Object.keys(generated.resources).sort()).toEqual(TYPES.map(pluginTypeToken).sort());
    for (const type of TYPES) {
      const r = generated.resources[pluginTypeToken(type)]!;
      // Bookkeeping inputs aside (`adoptId`, which a registry credential has not; the rollout
      // settings of endpoints and templates), the field table's.
      const bookkeeping = new Set<string>(["adoptId", ...ROLLOUT_INPUTS]);
      const inputs = Object.keys(r.inputProperties).filter((k) => !bookkeeping.has(k));
      expect(inputs.sort(), type).toEqual(Object.keys(FIELD_RULES[type]).sort());
      expect(r.aliases).toEqual([{ type: typeToken(type) }]);
    }
  });

  it("marks exactly the inputs that replace as replaceOnChanges, from the field tables", () => {
    for (const type of TYPES) {
      const r = generated.resources[pluginTypeToken(type)]!;
      const replacing = Object.entries(FIELD_RULES[type])
        .filter(([, rule]) => rule.replaces)
        .map(([k]) => k);
      const marked = Object.entries(r.inputProperties)
        .filter(([, p]) => p.replaceOnChanges)
        .map(([k]) => k);
      expect(marked.sort(), type).toEqual(replacing.sort());
    }
  });

  it("marks the secrets: the registry password, env (and what the platform injects), the Jupyter password", () => {
    const secrets = (type: RunpodResourceType, side: "properties" | "inputProperties") =>
      Object.entries(generated.resources[pluginTypeToken(type)]![side])
        .filter(([, p]) => p.secret)
        .map(([k]) => k)
        .sort();
    expect(secrets("ContainerRegistryAuth", "inputProperties")).toEqual(["password"]);
    expect(secrets("ContainerRegistryAuth", "properties")).toEqual(["password"]);
    expect(secrets("Template", "properties")).toEqual(["env", "injectedEnv"]);
    expect(secrets("Pod", "properties")).toEqual(["env", "jupyterPassword"]);
    expect(secrets("NetworkVolume", "properties")).toEqual([]);
    // A platform secret's value: secret as an input and as an output, whatever the program marks.
    expect(secrets("Secret", "inputProperties")).toEqual(["value"]);
    expect(secrets("Secret", "properties")).toEqual(["value"]);
    expect(secrets("Cluster", "properties")).toEqual(["env"]);
    expect(generated.config.variables.apiKey!.secret).toBe(true);
  });

  it("takes types from the Args and enums and bounds from check's schemas, docs from the sources", () => {
    const endpoint = generated.resources[pluginTypeToken("ServerlessEndpoint")]!;
    expect(endpoint.requiredInputs).toEqual(["templateId"]);
    expect(endpoint.inputProperties.computeType).toMatchObject({ $ref: "#/types/runpod-iac:index:ComputeType" });
    expect(generated.types["runpod-iac:index:ComputeType"]!.enum).toEqual([
      { name: "GPU", value: "GPU" },
      { name: "CPU", value: "CPU" },
    ]);
    expect(generated.types["runpod-iac:index:PodGpuTypePriority"]!.enum.map((e) => e.name)).toEqual([
      "Availability",
      "Custom",
    ]);
    // Open value sets (GPU types grow between releases): any string.
    expect(endpoint.inputProperties.gpuTypeIds).toMatchObject({ type: "array", items: { type: "string" } });
    expect(endpoint.inputProperties.flashboot!.oneOf).toEqual([
      { type: "boolean" },
      { $ref: "#/types/runpod-iac:index:FlashBootMode" },
    ]);
    expect(endpoint.inputProperties.idleTimeout).toMatchObject({ type: "integer" });
    expect(endpoint.inputProperties.idleTimeout!.description).toMatch(
      /Checked at preview: a whole number, from 1 to 3600\.$/,
    );
    const template = generated.resources[pluginTypeToken("Template")]!;
    expect(template.inputProperties.env).toMatchObject({ type: "object", additionalProperties: { type: "string" } });
    expect(template.description).toMatch(/^A template: the image, disk and environment/);
    expect(generated.version).toBe(JSON.parse(fs.readFileSync("package.json", "utf8")).version);
  });

  it("describes each output that repeats an input as that input (InputsAsOutputs): same type, the input's doc", () => {
    for (const type of TYPES) {
      const r = generated.resources[pluginTypeToken(type)]!;
      const repeated = Object.keys(r.properties).filter((k) => k in r.inputProperties);
      expect(repeated.length, type).toBeGreaterThan(0);
      for (const key of repeated) {
        const { description: out, replaceOnChanges: _o, secret: _s, ...outType } = r.properties[key]!;
        const { description: input, replaceOnChanges: _i, secret: _t, ...inputType } = r.inputProperties[key]!;
        expect(outType, `${type}.${key}`).toEqual(inputType);
        // The input's doc, without the bounds check adds to an input's description.
        expect(input!.startsWith(out!), `${type}.${key}`).toBe(true);
        expect(out!.length, `${type}.${key}`).toBeGreaterThan(0);
      }
    }
    // A pod repeats every input but adoptId, and always its name and desired status.
    const pod = generated.resources[pluginTypeToken("Pod")]!;
    const podInputs = Object.keys(pod.inputProperties).filter((k) => k !== "adoptId");
    expect(podInputs.filter((k) => !(k in pod.properties))).toEqual([]);
    expect(pod.required).toEqual(expect.arrayContaining(["name", "desiredStatus"]));
    expect(pod.required).not.toContain("imageName");
    expect(pod.properties.locked!.description).toBe(pod.inputProperties.locked!.description);
  });

  it("writes a resource's schema from its facts", () => {
    const schema = buildSchema([facts()], PKG);
    expect(schema.resources["runpod-iac:index:NetworkVolume"]).toEqual({
      description: "A volume.",
      properties: {
        size: { type: "integer", description: "Size." },
        secretThing: { type: "string", description: "Secret.", secret: true },
      },
      required: ["size"],
      inputProperties: {
        size: {
          type: "integer",
          description:
            "Size in GB.\n\nChecked at preview: a whole number, from 0 to 4000.\n\nChecked at preview on management API v1: from 0 to 4000 GB; on management API v2: from 10 to 4096 GB.",
        },
        tier: { $ref: "#/types/runpod-iac:index:Tier", description: "Tier.", replaceOnChanges: true },
        adoptId: { type: "string", description: "Adopt." },
      },
      requiredInputs: ["size"],
      aliases: [{ type: "pulumi-nodejs:dynamic/runpod:NetworkVolume" }],
    });
    expect(schema.types["runpod-iac:index:Tier"]).toEqual({
      type: "string",
      enum: [
        { name: "A", value: "A" },
        { name: "B", value: "B" },
      ],
    });
  });

  it.each([
    [
      "a field rule without an input",
      (f: ResourceFacts) => void ((f.fields as Record<string, object>).extra = {}),
      "the field table has extra, NetworkVolumeArgs has no such input",
    ],
    [
      "an input without a field rule",
      (f: ResourceFacts) => void delete (f.fields as Record<string, object>).tier,
      "NetworkVolumeArgs has tier, the field table has no rule for it",
    ],
    [
      "a check field the Args lack",
      (f: ResourceFacts) => void (f.zod.properties!.ghost = { type: "string" }),
      "check's schema has ghost, NetworkVolumeArgs has no such input",
    ],
    [
      "a type the Args and check disagree on",
      (f: ResourceFacts) => void (f.zod.properties!.size = { type: "string" }),
      'NetworkVolume.size: the Args say number, check\'s schema says {"type":"string"}',
    ],
    [
      "enum values the Args and check disagree on",
      (f: ResourceFacts) => void (f.zod.properties!.tier = { type: "string", enum: ["A", "C"] }),
      'NetworkVolume.tier: the Args say "A" | "B"',
    ],
    [
      "a closed check enum behind an open Args type",
      (f: ResourceFacts) => void (f.inputs[1]!.type = { kind: "string", open: true }),
      "check accepts only some strings",
    ],
    [
      "a secret output that is no output",
      (f: ResourceFacts) => void f.secretOutputs.push("nope"),
      "secret output nope is no output",
    ],
  ])("fails, naming the property, on %s", (_what, change, message) => {
    expect(() => buildSchema([facts(change)], PKG)).toThrow(message);
  });
});

describe("the plugin's configuration", () => {
  it("falls back to the environment variables the client reads, and to the client's defaults", () => {
    const env = { RUNPOD_API_KEY: "k", RUNPOD_API_URL: "http://a/v1", RUNPOD_QUEUE_URL: "http://q/v2" };
    const resolved = resolveClientConfig({}, env);
    expect(PLUGIN_CONFIG.apiKey.env).toBe("RUNPOD_API_KEY");
    for (const [key, c] of Object.entries(PLUGIN_CONFIG)) {
      expect(resolved[key as keyof typeof resolved], key).toBe(env[c.env as keyof typeof env]);
      if ("default" in c) expect(resolveClientConfig({}, {})[key as keyof typeof resolved]).toBe(c.default);
    }
  });
});
