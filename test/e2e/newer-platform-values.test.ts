import * as fs from "node:fs";
import * as path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { REPO_ROOT } from "../../scripts/pulumi-cli";
import { createE2EStack, type E2EApiVersion, type E2EStack } from "./harness";

/**
 * Open value sets on the real engine: a GPU type the platform added after this release passes preview
 * with a warning, is refused by the policy pack by name unless the team lists it, and deploys
 * against an emulator told about it; what can never be right is still refused at preview.
 */
const POLICY_DIR = path.join(REPO_ROOT, "policy");
const NEW_GPU = "NVIDIA B300";
const WARNING = `gpuTypeIds[0] = "${NEW_GPU}": is not in this release's list of GPU types; it may be newer than this release of runpod-iac, and the platform decides at \`pulumi up\``;
const REFUSAL = `ServerlessEndpoint "ep": gpuTypeIds[0] = "${NEW_GPU}": is not a GPU type the platform knows (if the platform added it, list it in additionalGpuTypeIds)`;

let e: E2EStack | undefined;
afterEach(async () => {
  await e?.dispose();
  e = undefined;
});

async function stackWith(
  gpuTypeIds: unknown[],
  emulator: { additionalGpuTypeIds?: string[]; gpuPools?: Record<string, string> } = {},
  apiVersion?: E2EApiVersion,
) {
  e = await createE2EStack(
    "stack",
    { "e2e:volumeSize": { value: "10" }, "e2e:gpuTypeIds": { value: JSON.stringify(gpuTypeIds) } },
    { label: "newer-values", emulator, ...(apiVersion ? { apiVersion } : {}) },
  );
  return e;
}

function packConfig(stack: E2EStack, settings: Record<string, unknown>): string {
  const file = path.join(stack.workDir, "policy-config.json");
  fs.writeFileSync(file, JSON.stringify({ "runpod-gpu-priority-list": settings }));
  return file;
}

async function preview(stack: E2EStack, options: { policyPacks?: string[]; policyPackConfigs?: string[] } = {}) {
  let output = "";
  const failed = await stack.stack.preview({ ...options, onOutput: (s) => (output += s) }).then(
    () => false,
    (err: Error) => ((output += err.message), true),
  );
  return { output, failed };
}

describe("a GPU type newer than this release, on the real engine", { timeout: 240_000 }, () => {
  it("on v1: passes preview with a warning, sending nothing, and the platform's own answer decides at up", async () => {
    const stack = await stackWith([NEW_GPU, "NVIDIA L4"], {}, "v1");
    const before = await stack.requestCount();
    const { output, failed } = await preview(stack);
    expect(failed, output).toBe(false);
    expect(output).toContain(WARNING);
    expect(await stack.requestCount()).toBe(before);
    // This emulator was not told about the GPU type: like the platform, it refuses it, naming it.
    const up = await stack.stack.up().catch((err: Error) => err);
    expect(up).toBeInstanceOf(Error);
    expect(String((up as Error).message)).toContain(
      `gpuTypeIds.0 = "${NEW_GPU}": is not a GPU type the platform knows`,
    );
    expect(await stack.client.endpoints.list()).toEqual([]);
  });

  it("on v2: looks the new value up in the live catalog at preview (one read) and refuses it there, naming it", async () => {
    const stack = await stackWith([NEW_GPU, "NVIDIA L4"], {}, "v2");
    await stack.takeRequestCounts();
    const { output, failed } = await preview(stack);
    expect(failed, output).toBe(true);
    expect(output).toContain(
      `"${NEW_GPU}" (gpuTypeIds[0]) is not a GPU type of the platform's live catalog (GET /v2/catalog/gpus)`,
    );
    expect(await stack.takeRequestCounts()).toEqual({ "GET /v2/catalog/gpus": 1 });
  });

  it("is refused by the policy pack by name unless listed in additionalGpuTypeIds, then deploys", async () => {
    // The platform put its new card in a serverless pool (v2 rents by pool).
    const stack = await stackWith([NEW_GPU, "NVIDIA L4"], {
      additionalGpuTypeIds: [NEW_GPU],
      gpuPools: { [NEW_GPU]: "BLACKWELL_180" },
    });
    const refused = await preview(stack, { policyPacks: [POLICY_DIR], policyPackConfigs: [packConfig(stack, {})] });
    expect(refused.failed, refused.output).toBe(true);
    expect(refused.output).toContain(REFUSAL);

    const policyPackConfigs = [packConfig(stack, { additionalGpuTypeIds: [NEW_GPU] })];
    const allowed = await preview(stack, { policyPacks: [POLICY_DIR], policyPackConfigs });
    expect(allowed.failed, allowed.output).toBe(false);
    expect(allowed.output).not.toContain(REFUSAL);

    const up = await stack.stack.up({ policyPacks: [POLICY_DIR], policyPackConfigs });
    expect(up.summary.result).toBe("succeeded");
    const endpoints = await stack.client.endpoints.list();
    // v2 lists what the pools rent in catalog order, without order among them; v1 keeps the list's.
    expect(endpoints.map((x) => [...(x.gpuTypeIds ?? [])].sort())).toEqual([["NVIDIA B300", "NVIDIA L4"]]);
    // An unchanged preview: the provider reads no catalog, so the only requests are the pack's
    // runpod-live-catalog reads (the job's RUNPOD_API_URL names the emulator), one of each list.
    await stack.takeRequestCounts();
    expect((await stack.stack.preview({ policyPacks: [POLICY_DIR], policyPackConfigs })).changeSummary).toEqual({
      same: 3,
    });
    expect(await stack.takeRequestCounts()).toEqual({ "GET /v2/catalog/gpus": 1, "GET /v2/catalog/datacenters": 1 });
    // Without the pack: zero requests.
    expect((await stack.stack.preview()).changeSummary).toEqual({ same: 3 });
    expect(await stack.takeRequestCounts()).toEqual({});
  });

  it("still refuses at preview what can never be right, naming the property, the value and the rule", async () => {
    const stack = await stackWith(["NVIDIA L4", " "]);
    const { output, failed } = await preview(stack);
    expect(failed, output).toBe(true);
    expect(output).toMatch(
      /property gpuTypeIds value \{\[.*NVIDIA L4.*\]\} has a problem: must not be empty \(at gpuTypeIds\[1\]\)/,
    );
    expect(await stack.requestCount()).toBe(0);
  });
});
