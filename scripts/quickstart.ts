/**
 * `npm start`: the quickstart. Starts the emulator (state kept in .emulator-state/), provides the
 * Pulumi CLI, runs `pulumi up` of examples/quickstart with the policy pack on a local file backend
 * (.pulumi-state/), then submits a job to the new endpoint through the SDK and prints the result.
 * `npm start -- --destroy` tears the stack down; `--preview` only previews.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { LocalWorkspace, PulumiCommand } from "@pulumi/pulumi/automation";
import { startEmulator } from "../emulator";
import { RunpodClient } from "../sdk/client";
import { providePulumiCli, REPO_ROOT } from "./pulumi-cli";

const STACK = process.env.QUICKSTART_STACK ?? "dev";
const PORT = Number(process.env.QUICKSTART_EMULATOR_PORT ?? 8787);
/** The emulator's key for the quickstart account. A real account's key goes in `runpod:apiKey`. */
const API_KEY = process.env.QUICKSTART_API_KEY ?? "quickstart-local-key";

async function main(): Promise<void> {
  const mode = process.argv.includes("--destroy") ? "destroy" : process.argv.includes("--preview") ? "preview" : "up";
  const stateDir = path.join(REPO_ROOT, ".emulator-state");
  const backendDir = path.join(REPO_ROOT, ".pulumi-state");
  fs.mkdirSync(stateDir, { recursive: true });
  fs.mkdirSync(backendDir, { recursive: true });

  const bin = await providePulumiCli();
  const emulator = await startEmulator({
    port: PORT,
    apiKeys: [API_KEY],
    stateFile: path.join(stateDir, "quickstart.json"),
  });
  console.log(`emulator: ${emulator.apiUrl} and ${emulator.queueUrl}`);
  try {
    const pulumiCommand = await PulumiCommand.get({ root: path.dirname(bin), skipVersionCheck: false });
    const stack = await LocalWorkspace.createOrSelectStack(
      { stackName: STACK, workDir: REPO_ROOT },
      {
        pulumiCommand,
        envVars: {
          PULUMI_BACKEND_URL: `file://${backendDir}`,
          PULUMI_CONFIG_PASSPHRASE: process.env.PULUMI_CONFIG_PASSPHRASE ?? "quickstart",
          PULUMI_SKIP_UPDATE_CHECK: "true",
          PULUMI_NODEJS_TRANSPILE_ONLY: "true",
        },
      },
    );
    await stack.setAllConfig({
      "runpod:apiKey": { value: API_KEY, secret: true },
      "runpod:apiUrl": { value: emulator.apiUrl },
      "runpod:queueUrl": { value: emulator.queueUrl },
      // The emulator accepts any registry credentials; a real deployment sets its own.
      "quickstart:registryPassword": { value: "quickstart-registry-token", secret: true },
      "quickstart:apiToken": { value: "quickstart-api-token", secret: true },
    });
    const onOutput = (out: string) => process.stdout.write(out);
    const policyPacks = [path.join(REPO_ROOT, "policy")];
    if (mode === "destroy") {
      await stack.destroy({ onOutput });
      console.log("\nquickstart: stack destroyed");
      return;
    }
    if (mode === "preview") {
      await stack.preview({ onOutput, policyPacks });
      return;
    }
    const result = await stack.up({ onOutput, policyPacks });
    const endpointId = String(result.outputs.endpointId?.value ?? "");
    if (!endpointId) throw new Error("the stack has no endpointId output");

    const client = new RunpodClient({ apiKey: API_KEY, apiUrl: emulator.apiUrl, queueUrl: emulator.queueUrl });
    try {
      const input = { prompt: "Hello from runpod-iac" };
      console.log(`\nquickstart: submitting a job to endpoint ${endpointId} ...`);
      const job = await client.jobs(endpointId).runSync({ input }, { wait: 30_000 });
      const done = job.status === "COMPLETED" ? job : await client.jobs(endpointId).waitForCompletion(job.id);
      console.log(`quickstart: job ${done.id} ${done.status} in ${done.executionTime ?? "?"} ms; output:`);
      console.log(JSON.stringify(done.output, null, 2));
    } finally {
      await client.close();
    }
  } finally {
    await emulator.close();
  }
}

main().then(
  () => process.exit(0),
  (err: unknown) => {
    console.error(`\nquickstart failed: ${err instanceof Error ? err.message : String(err)}`);
    process.exit(1);
  },
);
