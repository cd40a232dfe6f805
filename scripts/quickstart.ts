/**
 * `npm start`: the quickstart. Starts the emulator, provides the Pulumi CLI, runs `pulumi up` of
 * examples/quickstart with the policy pack, then submits a job to the new endpoint through the SDK
 * and prints the result. `npm start -- --destroy` tears the stack down; `--preview` only previews.
 *
 * Everything it keeps lives in one git-ignored folder, `.quickstart/` (`QUICKSTART_DIR`): a
 * project folder of its own (its `Pulumi.yaml` names the example's program, and its stack config
 * file lands there), its file backend, its Pulumi home, its passphrase and the emulator's state.
 * So a user's own `pulumi stack init` at the repository root or in a copy of the example never
 * meets the emulator's URLs, its dummy secrets or its passphrase, and a real deployment made
 * there never reaches the quickstart's stack.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { LocalWorkspace, PulumiCommand } from "@pulumi/pulumi/automation";
import { startEmulator } from "../emulator";
import { RunpodClient } from "../sdk/client";
import { providePulumiCli, REPO_ROOT } from "./pulumi-cli";

/** A stack name nobody picks for a real deployment, in a project and on a backend nobody shares. */
const STACK = process.env.QUICKSTART_STACK ?? "quickstart-emulator";
const PORT = Number(process.env.QUICKSTART_EMULATOR_PORT ?? 8787);
/** The emulator's key for the quickstart account. A real account's key goes in `runpod:apiKey`. */
const API_KEY = process.env.QUICKSTART_API_KEY ?? "quickstart-local-key";
/** The quickstart's own passphrase: its secrets are the dummies below, and no other stack uses it. */
const PASSPHRASE = "quickstart";
/** The project's own name, so its stacks and auto-names never mix with a deployment of the example. */
const PROJECT = "runpod-iac-quickstart-emulator";

async function main(): Promise<void> {
  const mode = process.argv.includes("--destroy") ? "destroy" : process.argv.includes("--preview") ? "preview" : "up";
  const home = path.resolve(process.env.QUICKSTART_DIR ?? path.join(REPO_ROOT, ".quickstart"));
  const dirs = {
    project: path.join(home, "project"),
    backend: path.join(home, "state"),
    pulumiHome: path.join(home, "pulumi-home"),
  };
  for (const dir of Object.values(dirs)) fs.mkdirSync(dir, { recursive: true });

  const bin = await providePulumiCli();
  const emulator = await startEmulator({
    port: PORT,
    apiKeys: [API_KEY],
    stateFile: path.join(home, "emulator-state.json"),
  });
  console.log(`emulator: ${emulator.apiUrl} and ${emulator.queueUrl}`);
  console.log(`quickstart: stack ${STACK}, kept in ${home}`);
  try {
    const pulumiCommand = await PulumiCommand.get({ root: path.dirname(bin), skipVersionCheck: false });
    const stack = await LocalWorkspace.createOrSelectStack(
      { stackName: STACK, workDir: dirs.project },
      {
        pulumiCommand,
        projectSettings: {
          name: PROJECT,
          description: "npm start: examples/quickstart against the local emulator",
          runtime: { name: "nodejs", options: { typescript: true } },
          main: path.join(REPO_ROOT, "examples", "quickstart", "index.ts"),
        },
        envVars: {
          PULUMI_BACKEND_URL: `file://${dirs.backend}`,
          PULUMI_HOME: dirs.pulumiHome,
          PULUMI_CONFIG_PASSPHRASE: PASSPHRASE,
          PULUMI_SKIP_UPDATE_CHECK: "true",
          PULUMI_NODEJS_TRANSPILE_ONLY: "true",
          // The policy pack's live catalog reads the environment, not the stack's config: the
          // emulator's, whatever a real deployment exported in this shell.
          RUNPOD_API_KEY: API_KEY,
          RUNPOD_API_URL: emulator.apiUrl,
          RUNPOD_QUEUE_URL: emulator.queueUrl,
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
      // With the program run, the provider takes this run's config (the emulator's address may have
      // changed since the last `up`), not the one the state recorded.
      await stack.destroy({ onOutput, runProgram: true });
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
