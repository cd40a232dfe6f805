import type { PolicyPackConfigFile } from "./types";

/** GPU types, settings and resources shared by the deployment-wide scenarios. */

export const H100 = "NVIDIA H100 80GB HBM3";
export const L40S = "NVIDIA L40S";
export const RTX4090 = "NVIDIA GeForce RTX 4090";
export const L4 = "NVIDIA L4";
export const A40 = "NVIDIA A40";
export const DIGEST = "sha256:4f53cda18c2baa0c0354bb5f9a3ecbe5ed12ab4d8e11ba873c2f11161202b945";

/** The image settings of `policy/examples/policy-config.json`. */
export const IMAGE_CONFIG: PolicyPackConfigFile = {
  "runpod-image-pinning": {
    allowedRegistries: ["ghcr.io/acme", "registry.acme.internal:5000"],
    mutableTags: ["main", "stable"],
    byStack: { "dev*": { allowedMutableTags: ["latest", "main"] } },
  },
};

/** The price table and caps of `policy/examples/policy-config.json` (dollars per hour). */
export const COST_CONFIG: PolicyPackConfigFile = {
  "runpod-stack-cost-ceiling": {
    gpuPricesPerHour: { [H100]: 2.79, [L40S]: 0.99, [RTX4090]: 0.69, [L4]: 0.48, [A40]: 0.44 },
    cpuPricesPerVcpuHour: { cpu3c: 0.03, cpu3g: 0.04, cpu5c: 0.05, cpu5g: 0.06 },
    maxAlwaysOnPerHour: 5,
    maxWorstCasePerHour: 25,
    byStack: { "dev*": { maxAlwaysOnPerHour: 0, maxWorstCasePerHour: 5 } },
  },
};

/** A serverless template with a pinned image. */
export const workerTemplate = (name: string, tag = "1.4.2") => ({
  type: "Template" as const,
  name,
  props: { name, imageName: `ghcr.io/acme/${name}:${tag}`, isServerless: true },
});

/** The deployment-wide scenarios. */
