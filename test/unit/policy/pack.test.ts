import { readFileSync } from "node:fs";
import { join } from "node:path";
import { Secret } from "@pulumi/policy/policy";
import { describe, expect, it } from "vitest";
import { formatValue } from "../../../policy/format";
import { POLICY_PACK_NAME, runpodPolicies } from "../../../policy/index";
import {
  ContainerRegistryAuthResource,
  isGpuEndpoint,
  NetworkVolumeResource,
  PLUGIN_RESOURCE_TYPES,
  RESOURCE_TYPES,
  ServerlessEndpointResource,
  TemplateResource,
} from "../../../policy/resource-types";
import { UNKNOWN } from "../../../policy/unknown-values";
import { runPolicies } from "./engine-harness";

const repo = join(__dirname, "../../..");
const readJson = (path: string) => JSON.parse(readFileSync(join(repo, path), "utf8")) as Record<string, unknown>;

describe("the policy pack", () => {
  it("has a name the analyzer accepts", () => {
    expect(POLICY_PACK_NAME).toMatch(/^[a-zA-Z0-9-_.]{1,100}$/);
  });

  it("holds every policy once, each with its default enforcement level", () => {
    expect(runpodPolicies.map((p) => [p.name, p.enforcementLevel])).toEqual([
      ["runpod-gpu-priority-list", "mandatory"],
      ["runpod-worker-bounds", "mandatory"],
      ["runpod-stack-worker-budget", "advisory"],
      ["runpod-volume-size-cap", "mandatory"],
      ["runpod-stack-volume-size-cap", "advisory"],
      ["runpod-image-pinning", "mandatory"],
      ["runpod-volume-locality", "mandatory"],
      ["runpod-contradictory-inputs", "mandatory"],
      ["runpod-serverless-template", "mandatory"],
      ["runpod-stack-cost-ceiling", "advisory"],
      ["runpod-known-platform-values", "mandatory"],
      ["runpod-pod-limits", "mandatory"],
      ["runpod-live-catalog", "advisory"],
      ["runpod-plaintext-credentials", "advisory"],
    ]);
  });

  it("describes every policy and how to fix a violation", () => {
    for (const policy of runpodPolicies) {
      expect(policy.description.length).toBeGreaterThan(20);
      expect(policy.remediationSteps?.length).toBeGreaterThan(20);
    }
  });

  it("attaches the type token to every resource validation, so the analyzer skips other types cheaply", () => {
    const tokens = runpodPolicies.flatMap((p) =>
      "validateResource" in p && p.validateResource
        ? [p.validateResource].flat().map((v) => (v as { __pulumiType?: string }).__pulumiType)
        : [],
    );
    // Each kind is validated once per type token: the dynamic resource's, then the plugin's.
    const both = (kind: keyof typeof RESOURCE_TYPES) => [RESOURCE_TYPES[kind], PLUGIN_RESOURCE_TYPES[kind]];
    expect(tokens).toEqual([
      // runpod-gpu-priority-list: endpoints, pods and clusters.
      ...both("ServerlessEndpoint"),
      ...both("Pod"),
      ...both("Cluster"),
      ...both("ServerlessEndpoint"),
      ...both("NetworkVolume"),
      // runpod-image-pinning: templates and pods.
      ...both("Template"),
      ...both("Pod"),
      // runpod-contradictory-inputs: endpoints and pods.
      ...both("ServerlessEndpoint"),
      ...both("Pod"),
      // runpod-known-platform-values: endpoints, volumes, pods and clusters.
      ...both("ServerlessEndpoint"),
      ...both("NetworkVolume"),
      ...both("Pod"),
      ...both("Cluster"),
      // runpod-pod-limits: pods and clusters.
      ...both("Pod"),
      ...both("Cluster"),
      // runpod-live-catalog: endpoints and volumes.
      ...both("ServerlessEndpoint"),
      ...both("NetworkVolume"),
      // runpod-plaintext-credentials: templates, pods and clusters.
      ...both("Template"),
      ...both("Pod"),
      ...both("Cluster"),
    ]);
  });
});

describe("resource class stubs", () => {
  it("carry the type tokens of the dynamic resources", () => {
    expect(ServerlessEndpointResource.__pulumiType).toBe("pulumi-nodejs:dynamic/runpod:ServerlessEndpoint");
    expect(NetworkVolumeResource.__pulumiType).toBe("pulumi-nodejs:dynamic/runpod:NetworkVolume");
    expect(TemplateResource.__pulumiType).toBe("pulumi-nodejs:dynamic/runpod:Template");
    expect(ContainerRegistryAuthResource.__pulumiType).toBe("pulumi-nodejs:dynamic/runpod:ContainerRegistryAuth");
  });

  it("recognise objects of their type only, served as dynamic resources or by the plugin", () => {
    expect(NetworkVolumeResource.isInstance({ __pulumiType: RESOURCE_TYPES.NetworkVolume })).toBe(true);
    expect(NetworkVolumeResource.isInstance({ __pulumiType: "runpod-iac:index:NetworkVolume" })).toBe(true);
    expect(NetworkVolumeResource.isInstance({ __pulumiType: "runpod-iac:index:ServerlessEndpoint" })).toBe(false);
    expect(NetworkVolumeResource.isInstance({ __pulumiType: RESOURCE_TYPES.ServerlessEndpoint })).toBe(false);
    expect(NetworkVolumeResource.isInstance(null)).toBe(false);
  });

  it("treat an endpoint as GPU unless it asks for CPU workers", () => {
    expect(isGpuEndpoint({})).toBe(true);
    expect(isGpuEndpoint({ computeType: "GPU" })).toBe(true);
    expect(isGpuEndpoint({ computeType: "CPU" })).toBe(false);
  });
});

describe("the pack directory Pulumi runs (policy/)", () => {
  it("points package.json main at the compiled pack entry", () => {
    const pkg = readJson("policy/package.json");
    expect(pkg.main).toBe("../dist/policy/pack.js");
    expect(pkg.type).toBe("commonjs");
    const tsconfig = readJson("tsconfig.json") as { compilerOptions: { outDir: string; rootDir: string } };
    expect([tsconfig.compilerOptions.rootDir, tsconfig.compilerOptions.outDir]).toEqual([".", "dist"]);
  });

  it("carries the package's version, which PolicyPack reads from it", () => {
    expect(readJson("policy/package.json").version).toBe(readJson("package.json").version);
  });

  it("declares the Node.js runtime in PulumiPolicy.yaml", () => {
    expect(readFileSync(join(repo, "policy/PulumiPolicy.yaml"), "utf8")).toMatch(/^runtime: nodejs$/m);
  });

  it("describes the pack in PulumiPolicy.yaml alone: pack.ts passes no description, which would override it", () => {
    expect(readFileSync(join(repo, "policy/PulumiPolicy.yaml"), "utf8")).toMatch(/^description: Guards RunPod /m);
    expect(readFileSync(join(repo, "policy/pack.ts"), "utf8")).not.toMatch(/description:/);
  });
});

describe("violation messages and secrets", () => {
  const marker = "SECRET-MARKER";

  it("never print the serialized provider or fields a rule does not check", async () => {
    // The token is credential-shaped, so runpod-plaintext-credentials reports its key, and the marker at its end.
    const token = `hf_${"x".repeat(30)}${marker}`;
    const extra = {
      __provider: `provider ${marker}`,
      env: { API_KEY: marker, TOKEN: token },
      templateId: marker,
      name: marker,
    };
    const result = await runPolicies(runpodPolicies, {
      stack: "dev",
      config: {
        "runpod-worker-bounds": { workersMaxCap: 0, idleTimeoutMin: 100 },
        "runpod-stack-worker-budget": { maxTotalGpus: 0 },
        "runpod-gpu-priority-list": { minFallbacks: 5, denied: ["NVIDIA A40"], preferredOrder: ["NVIDIA L4"] },
        "runpod-volume-size-cap": { maxSizeGb: 1 },
        "runpod-stack-volume-size-cap": { maxTotalSizeGb: 1 },
        "runpod-stack-cost-ceiling": { gpuPricesPerHour: { "NVIDIA A40": 1, "NVIDIA L4": 1 }, maxWorstCasePerHour: 0 },
        "runpod-pod-limits": { maxGpuCount: 1 },
      },
      resources: [
        // A data center newer than this release's list (not the marker: a rule about it shows it).
        { type: "NetworkVolume", name: "vol", props: { ...extra, size: 5000, dataCenterId: "AP-SG-1" } },
        { type: "NetworkVolume", name: "vol2", props: { ...extra, size: 50, dataCenterId: "AP-SG-1" } },
        { type: "NetworkVolume", name: "vol3", props: { ...extra, size: 50, dataCenterId: "EU-RO-1" } },
        { type: "ContainerRegistryAuth", name: "auth", props: { name: marker, username: marker, password: marker } },
        {
          type: "Template",
          name: "tpl",
          props: { ...extra, imageName: "ghcr.io/acme/worker:latest", containerRegistryAuthId: marker },
          dependsOn: { containerRegistryAuthId: ["auth"] },
        },
        {
          type: "Pod",
          name: "pod",
          props: { ...extra, imageName: "ghcr.io/acme/trainer:1.0", gpuTypeIds: ["NVIDIA A40"], gpuCount: 4 },
        },
        {
          type: "ServerlessEndpoint",
          name: "api",
          props: {
            ...extra,
            gpuTypeIds: ["NVIDIA A40", "NVIDIA L4", "NVIDIA A40"],
            workersMin: 5,
            workersMax: 1,
            cpuFlavorIds: ["cpu3c"],
            networkVolumeId: UNKNOWN,
            dataCenterIds: ["US-TX-3"],
          },
          dependsOn: { templateId: ["tpl"], networkVolumeId: ["vol3"] },
        },
      ],
    });
    const messages = [...result.mandatory, ...result.advisory].map((v) => v.message);
    // Every policy but runpod-live-catalog, which has no key here (not applicable, checked apart).
    expect(new Set([...result.mandatory, ...result.advisory].map((v) => v.policy)).size).toBe(
      runpodPolicies.length - 1,
    );
    for (const message of messages) expect(message).not.toContain(marker);
  });

  it("show values the engine still marks as secret as [secret]", () => {
    expect(formatValue(new Secret(["NVIDIA A40"]))).toBe("[secret]");
  });

  it("bound the length of a rendered value", () => {
    expect(formatValue("x".repeat(1000))).toHaveLength(240);
  });
});
