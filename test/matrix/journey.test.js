// The user journey of the runtime matrix (docs/ci.md), run by scripts/runtime-matrix.sh with Node's
// own test runner inside a fresh consumer project: `runpod-iac` installed from its `npm pack`
// tarball next to the @pulumi/pulumi release under test, as a user installs them. Everything here
// comes from that project's node_modules (plain CommonJS, no build step), so it exercises the
// packed package on the Node.js and @pulumi/pulumi versions of the run, through the real engine.
const assert = require("node:assert/strict");
const { execFileSync } = require("node:child_process");
const fs = require("node:fs");
const os = require("node:os");
const path = require("node:path");
const { after, before, describe, it } = require("node:test");
const { fetch } = globalThis;
const { LocalWorkspace, PulumiCommand } = require("@pulumi/pulumi/automation");
const { startEmulator } = require("runpod-iac/emulator");
const { RunpodClient } = require("runpod-iac/sdk");

const PROGRAM = path.join(__dirname, "program");
const POLICY_PACK = path.join(path.dirname(require.resolve("runpod-iac/package.json")), "policy");
const L4 = "NVIDIA L4";
const A40 = "NVIDIA A40";
const NEW_GPU = "NVIDIA B300";
const STEP = { timeout: 240_000 };
// "full" (the newest @pulumi/pulumi) runs every step; "short" (the other versions) type-checks,
// creates, sees a shrink refused and destroys: one real-engine scenario per run, in less time.
const FULL = process.env.PULUMI_RUNPOD_JOURNEY !== "short";
const fullOnly = FULL ? it : () => undefined;

let emulator, client, stack, backendDir;
const apiKey = `rpa_MATRIX${Math.random().toString(36).slice(2, 10).toUpperCase()}`;

/**
 * An endpoint's GPU types, sorted: management API v2 (the default) rents by pool and lists the
 * types in catalog order, without an order among them.
 */
async function gpuTypesOf(id) {
  return [...((await client.endpoints.get(id)).gpuTypeIds ?? [])].sort();
}

async function requestCount() {
  const res = await fetch(`${emulator.url}/_emulator/stats`, { headers: { authorization: `Bearer ${apiKey}` } });
  return (await res.json()).requests.total;
}

async function setConfig(values) {
  const entries = Object.entries(values).map(([k, v]) => [
    `journey:${k}`,
    { value: typeof v === "string" ? v : JSON.stringify(v) },
  ]);
  await stack.setAllConfig(Object.fromEntries(entries));
}

/** A preview that may fail: its whole output (the error's too) and whether it failed. */
async function preview(options = {}) {
  let output = "";
  const failed = await stack.preview({ ...options, onOutput: (s) => (output += s) }).then(
    () => false,
    (err) => {
      output += String(err.message);
      return true;
    },
  );
  return { output, failed };
}

function packConfig(settings) {
  const file = path.join(backendDir, `policy-config-${Math.random().toString(36).slice(2)}.json`);
  fs.writeFileSync(file, JSON.stringify({ "runpod-gpu-priority-list": settings }));
  return { policyPacks: [POLICY_PACK], policyPackConfigs: [file] };
}

before(async () => {
  const pulumiBin = process.env.PULUMI_RUNPOD_PULUMI_BIN;
  assert.ok(pulumiBin, "PULUMI_RUNPOD_PULUMI_BIN names the directory of the Pulumi CLI");
  // The emulator plays a platform that sells a GPU type this release does not know.
  // It sells it in a serverless pool, as v2 (the default) rents serverless GPUs by pool.
  emulator = await startEmulator({
    port: 0,
    apiKeys: [apiKey],
    rateLimits: false,
    additionalGpuTypeIds: [NEW_GPU],
    gpuPools: { [NEW_GPU]: "BLACKWELL_180" },
  });
  client = new RunpodClient({ apiKey, apiUrl: emulator.apiUrl, queueUrl: emulator.queueUrl });
  backendDir = fs.mkdtempSync(path.join(os.tmpdir(), "runpod-matrix-backend-"));
  const envVars = {
    PULUMI_BACKEND_URL: `file://${backendDir}`,
    PULUMI_CONFIG_PASSPHRASE: "matrix-passphrase",
    PULUMI_SKIP_UPDATE_CHECK: "true",
    PULUMI_HOME: path.join(backendDir, ".pulumi-home"),
    RUNPOD_API_KEY: apiKey,
    // As a CI job against the emulator sets it: the pack's runpod-live-catalog reads it.
    RUNPOD_API_URL: emulator.apiUrl,
    // The program is type-checked once, by the first step (tsc), not again by every engine run.
    PULUMI_NODEJS_TRANSPILE_ONLY: "true",
  };
  const pulumiCommand = await PulumiCommand.get({ root: path.dirname(pulumiBin) });
  stack = await LocalWorkspace.createOrSelectStack(
    { stackName: "matrix", workDir: PROGRAM },
    { pulumiCommand, envVars },
  );
  await stack.setAllConfig({
    "runpod:apiUrl": { value: emulator.apiUrl },
    "runpod:queueUrl": { value: emulator.queueUrl },
  });
  await setConfig({ gpuTypeIds: [L4, A40], volumeSize: "10" });
});

after(async () => {
  await client?.close();
  await emulator?.close();
  if (backendDir) fs.rmSync(backendDir, { recursive: true, force: true });
});

describe(`a fresh TypeScript program on Node.js ${process.version} with @pulumi/pulumi ${require("@pulumi/pulumi/package.json").version}`, () => {
  let volumeId;
  let endpointId;

  it("type-checks, with the GPU list read from stack config as a string[]", () => {
    const tsc = require.resolve("typescript/bin/tsc");
    try {
      execFileSync(process.execPath, [tsc, "--noEmit", "--pretty", "false", "-p", PROGRAM], { stdio: "pipe" });
    } catch (err) {
      assert.fail(`tsc failed:\n${String(err.stdout).slice(0, 4000)}`);
    }
  });

  it("type-checks a script on the typed client (runpod-iac/sdk) with the same settings", () => {
    // The template's "moduleResolution": "node" ignores package exports: typesVersions maps the
    // subpath to declarations that read zod's ES declarations, which need no esModuleInterop
    // (scripts/node10-declarations.js; docs/client.md).
    const dir = path.join(__dirname, "sdk-check");
    fs.mkdirSync(dir, { recursive: true });
    fs.writeFileSync(
      path.join(dir, "index.ts"),
      [
        'import { RunpodClient, type Endpoint } from "runpod-iac/sdk";',
        "export async function names(apiKey: string): Promise<string[]> {",
        "  const endpoints: Endpoint[] = await new RunpodClient({ apiKey }).endpoints.list();",
        "  return endpoints.map((e) => e.name ?? e.id);",
        "}",
      ].join("\n"),
    );
    const program = JSON.parse(fs.readFileSync(path.join(PROGRAM, "tsconfig.json"), "utf8"));
    const config = { compilerOptions: program.compilerOptions, files: ["index.ts"] };
    fs.writeFileSync(path.join(dir, "tsconfig.json"), JSON.stringify(config));
    const tsc = require.resolve("typescript/bin/tsc");
    try {
      execFileSync(process.execPath, [tsc, "--noEmit", "--pretty", "false", "-p", dir], { stdio: "pipe" });
    } catch (err) {
      assert.fail(`tsc failed:\n${String(err.stdout).slice(0, 4000)}`);
    }
  });

  it("creates a volume and an endpoint", STEP, async () => {
    const up = await stack.up();
    assert.equal(up.summary.result, "succeeded");
    volumeId = up.outputs.volumeId.value;
    endpointId = up.outputs.endpointId.value;
    assert.deepEqual(
      (await client.networkVolumes.list()).map((v) => v.id),
      [volumeId],
    );
    assert.deepEqual(await gpuTypesOf(endpointId), [L4, A40].sort());
    assert.equal(up.outputs.endpointUrl.value, `${emulator.queueUrl}/${endpointId}`);
  });

  it("refuses to shrink the volume at preview, sending nothing", STEP, async () => {
    await setConfig({ volumeSize: "5" });
    const before = await requestCount();
    const { output, failed } = await preview();
    assert.equal(failed, true);
    assert.match(output, /size can only grow: the volume has 10 GB and 5 GB was requested/);
    assert.equal(await requestCount(), before);
  });

  fullOnly(
    "grows the volume in place and takes a reordered GPU list as no change (v2), keeping the ids",
    STEP,
    async () => {
      await setConfig({ volumeSize: "20", gpuTypeIds: [A40, L4] });
      const up = await stack.up();
      // Management API v2 (the default) rents a set of types: a reorder alone changes nothing there.
      assert.equal(up.summary.resourceChanges.update, 1);
      assert.equal(up.outputs.volumeId.value, volumeId);
      assert.equal(up.outputs.endpointId.value, endpointId);
      assert.equal((await client.networkVolumes.get(volumeId)).size, 20);
      assert.deepEqual(await gpuTypesOf(endpointId), [A40, L4].sort());
    },
  );

  fullOnly(
    "is stopped by the policy pack for a repeated GPU type, which the remediate level removes",
    STEP,
    async () => {
      await setConfig({ gpuTypeIds: [A40, L4, A40] });
      const refused = await preview(packConfig({}));
      assert.equal(refused.failed, true);
      assert.ok(
        refused.output.includes(
          'ServerlessEndpoint "api": gpuTypeIds = ["NVIDIA A40","NVIDIA L4","NVIDIA A40"]: lists "NVIDIA A40" 2 times (indexes 0, 2)',
        ),
        refused.output,
      );
      const up = await stack.up(packConfig({ enforcementLevel: "remediate" }));
      assert.equal(up.summary.result, "succeeded");
      assert.deepEqual(await gpuTypesOf(endpointId), [A40, L4].sort());
    },
  );

  fullOnly("finds drift with refresh, and the next up restores the declared value", STEP, async () => {
    await setConfig({ gpuTypeIds: [A40, L4] });
    await client.endpoints.update(endpointId, { workersMax: 9 });
    const refresh = await stack.refresh();
    assert.equal(refresh.summary.resourceChanges.update, 1);
    await stack.up();
    assert.equal((await client.endpoints.get(endpointId)).workersMax, 2);
  });

  fullOnly(
    "previews a GPU type newer than the release with a warning, and the pack refuses it unless listed",
    STEP,
    async () => {
      await setConfig({ gpuTypeIds: [NEW_GPU, L4] });
      const plain = await preview();
      assert.equal(plain.failed, false, plain.output);
      assert.ok(
        plain.output.includes(`gpuTypeIds[0] = "${NEW_GPU}": is not in this release's list of GPU types`),
        plain.output,
      );
      const refused = await preview(packConfig({}));
      assert.equal(refused.failed, true);
      assert.ok(
        refused.output.includes(
          `ServerlessEndpoint "api": gpuTypeIds[0] = "${NEW_GPU}": is not a GPU type the platform knows (if the platform added it, list it in additionalGpuTypeIds)`,
        ),
        refused.output,
      );
      const up = await stack.up(packConfig({ additionalGpuTypeIds: [NEW_GPU] }));
      assert.equal(up.summary.result, "succeeded");
      assert.deepEqual(await gpuTypesOf(endpointId), [NEW_GPU, L4].sort());
    },
  );

  it("destroys everything, leaving the emulator empty", STEP, async () => {
    const result = await stack.destroy();
    assert.equal(result.summary.result, "succeeded");
    assert.deepEqual(await client.networkVolumes.list(), []);
    assert.deepEqual(await client.endpoints.list(), []);
  });
});
