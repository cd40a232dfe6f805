import { execFile } from "node:child_process";
import * as fs from "node:fs";
import * as path from "node:path";
import { expect } from "vitest";
import { volumePricePerHour } from "../../emulator/billing/prices";
import { providePulumiCli, REPO_ROOT } from "../../scripts/pulumi-cli";
import { RunpodClient } from "../../sdk/client";
import type { E2EStack } from "./harness";

/*
 * examples/training-pod as its README walks through it, on the real engine against an emulator
 * with a manual clock: the pack passes the program as written, `pulumi up` deploys it, one config
 * value stops and starts both pods, `runpod-iac cost` shows the spend the clock made (a table with
 * the cost ceiling, JSON, an SVG, on v2 and on v1), and `pulumi destroy` removes everything.
 */

const WANDB_KEY = "wandb-E2eTrainingPodSecret42";
const HOUR = 3_600_000;

/** Runs `runpod-iac cost` (the built CLI) in the example's directory with the stack's environment. */
async function cost(e: E2EStack, args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  const bin = await providePulumiCli();
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      [
        path.join(REPO_ROOT, "dist", "cli", "main.js"),
        "cost",
        "--stack",
        "dev",
        "--pulumi",
        path.join(bin, "pulumi"),
        ...args,
      ],
      { cwd: e.workDir, env: { ...process.env, ...e.envVars }, maxBuffer: 16 << 20 },
      (err, stdout, stderr) =>
        resolve({ code: err ? Number((err as { code?: number }).code ?? 1) : 0, stdout, stderr }),
    );
  });
}

async function advanceClock(e: E2EStack, ms: number): Promise<void> {
  const res = await fetch(`${e.emulator.url}/_emulator/clock/advance`, {
    method: "POST",
    headers: { authorization: `Bearer ${e.apiKey}`, "content-type": "application/json" },
    body: JSON.stringify({ ms }),
  });
  expect(res.status).toBe(200);
}

/** The walk-through; `previewWithPack` runs `pulumi preview` with the pack and the example's policy config. */
export async function trainingPodJourney(
  e: E2EStack,
  previewWithPack: (e: E2EStack) => Promise<{ failed: boolean; output: string }>,
): Promise<void> {
  await e.stack.setAllConfig({
    "runpod:apiUrl": { value: e.emulator.apiUrlV2 },
    wandbApiKey: { value: WANDB_KEY, secret: true },
  });
  const client = new RunpodClient({ apiKey: e.apiKey, apiUrl: e.emulator.apiUrlV2 });
  const printed: string[] = [];
  try {
    const pack = await previewWithPack(e);
    printed.push(pack.output);
    expect(pack.failed, pack.output).toBe(false);
    expect(pack.output).not.toContain("[mandatory]");
    expect(pack.output).not.toContain("[advisory]");

    const up = await e.stack.up({ onOutput: (s) => printed.push(s) });
    expect(up.summary.resourceChanges).toMatchObject({ create: 4 });
    const trainerId = String(up.outputs.trainerId?.value);
    const prepId = String(up.outputs.prepId?.value);
    const volumeId = String(up.outputs.volumeId?.value);
    expect(await client.pods.get(trainerId)).toMatchObject({
      desiredStatus: "RUNNING",
      gpu: { id: "NVIDIA A40" },
      networkVolume: { id: volumeId },
    });
    expect(await client.pods.get(prepId)).toMatchObject({
      desiredStatus: "RUNNING",
      cpuFlavorId: "cpu3m",
      vcpuCount: 4,
    });
    const trainerPerHour = Number(up.outputs.trainerCostPerHr?.value);
    expect(trainerPerHour).toBe(0.4);
    // Its placement filters (64 GB, 8 vCPUs per GPU) chose a large machine: it got more than they ask.
    expect([up.outputs.trainerMemoryGb?.value, up.outputs.trainerVcpus?.value]).toEqual([125, 16]);
    expect(await client.pods.get(trainerId)).toMatchObject({ memoryInGb: 125, vcpuCount: 16 });

    // Two hours of training, then the one-line stop; an hour stopped; the one-line start.
    await advanceClock(e, 2 * HOUR);
    await e.stack.setConfig("running", { value: "false" });
    const stop = await e.stack.up({ onOutput: (s) => printed.push(s) });
    expect(stop.summary.resourceChanges).toMatchObject({ update: 2 });
    expect((await client.pods.get(trainerId)).desiredStatus).toBe("EXITED");
    expect((await client.pods.get(prepId)).desiredStatus).toBe("EXITED");
    await advanceClock(e, HOUR);
    await e.stack.setConfig("running", { value: "true" });
    const start = await e.stack.up({ onOutput: (s) => printed.push(s) });
    expect(start.summary.resourceChanges).toMatchObject({ update: 2 });
    expect((await client.pods.get(trainerId)).desiredStatus).toBe("RUNNING");

    // What it cost: pods for the two hours they ran, the volume for all three.
    const expected = { trainer: 2 * 0.4, prep: 2 * 4 * 0.05, datasets: 3 * volumePricePerHour(100, "STANDARD") };
    const json = await cost(e, ["--since", "1d", "--bucket", "hour", "--json"]);
    printed.push(json.stdout, json.stderr);
    expect(json.code, json.stderr).toBe(0);
    const doc = JSON.parse(json.stdout) as {
      stack: string;
      currency: string;
      total: number;
      resources: { type: string; name: string; id: string; amount: number }[];
    };
    expect(doc).toMatchObject({ stack: "dev", currency: "USD" });
    const byName = Object.fromEntries(doc.resources.map((r) => [r.name, r]));
    expect(byName.trainer).toMatchObject({ type: "Pod", id: trainerId });
    expect(byName.prep).toMatchObject({ type: "Pod", id: prepId });
    expect(byName.datasets).toMatchObject({ type: "NetworkVolume", id: volumeId });
    // Billing answers each bucket's amount to the micro-dollar, and the emulator's clock starts
    // wherever the hour is, so a span covers up to four hourly buckets, each rounded once: the sum
    // may differ from the exact amount by a few micro-dollars (hence 5 digits, not 6).
    for (const [name, amount] of Object.entries(expected)) expect(byName[name]?.amount).toBeCloseTo(amount, 5);
    expect(doc.total).toBeCloseTo(expected.trainer + expected.prep + expected.datasets, 5);

    const svgFile = path.join(e.workDir, "spend.svg");
    const table = await cost(e, [
      "--since",
      "1d",
      "--bucket",
      "day",
      "--svg",
      svgFile,
      "--policy-config",
      "policy-config.json",
    ]);
    printed.push(table.stdout, table.stderr);
    expect(table.code, table.stderr).toBe(0);
    expect(table.stdout).toMatch(/^Spend of stack dev, .* in USD, by day\n/);
    expect(table.stdout).toMatch(new RegExp(`trainer +Pod +${trainerId} +\\$0\\.80\\n`));
    expect(table.stdout).toMatch(new RegExp(`prep +Pod +${prepId} +\\$0\\.40\\n`));
    expect(table.stdout).toMatch(
      /runpod-stack-cost-ceiling maxWorstCasePerHour \$1\.50\/hour × \d+(\.\d+)? hours = \$\d+\.\d\d; spent \$1\.23 \(/,
    );
    const svg = fs.readFileSync(svgFile, "utf8");
    expect(svg).toMatch(/^<svg /);
    expect(svg).toContain("trainer (Pod) $0.80");
    expect(svg).toContain("datasets (NetworkVolume) $0.03");

    // The same stack through v1: the same spend (v1 bills the account's volumes together).
    await e.stack.setConfig("runpod:apiUrl", { value: e.emulator.apiUrlV1 });
    const v1 = await cost(e, ["--since", "1d", "--json"]);
    printed.push(v1.stdout, v1.stderr);
    expect(v1.code, v1.stderr).toBe(0);
    expect((JSON.parse(v1.stdout) as { total: number }).total).toBeCloseTo(doc.total, 5);
    await e.stack.setConfig("runpod:apiUrl", { value: e.emulator.apiUrlV2 });

    // A missing stack is a clear error, and the key appears in nothing the command printed.
    const missing = await cost(e, ["--stack", "nope"]);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain("--stack nope: no such stack in this project's backend");
    for (const text of printed) {
      expect(text).not.toContain(e.apiKey);
      expect(text).not.toContain(WANDB_KEY);
    }

    await e.stack.destroy({ onOutput: (s) => printed.push(s) });
    expect(await client.pods.list()).toEqual([]);
    expect(await client.networkVolumes.list()).toEqual([]);
  } finally {
    await client.close();
  }
}
