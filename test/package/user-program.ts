/*
 * A user's program of the packed package, and the compiler settings of Pulumi's TypeScript
 * templates it is compiled under (test/package/packed-types.test.ts and
 * test/package/typescript-releases.test.ts).
 */

/** A program that uses each entry point the way a user would (resources, client, emulator, pack). */
export const PROGRAM = `import * as pulumi from "@pulumi/pulumi";
import { ContainerRegistryAuth, NetworkVolume, ServerlessEndpoint, Template } from "runpod-iac";
import {
  APIError,
  type BatchOutcome,
  type Endpoint,
  NetworkVolumeSchema,
  RunpodClient,
  type SubmitManyOptions,
} from "runpod-iac/sdk";
import { type RunningEmulator, startEmulator } from "runpod-iac/emulator";
import { runpodPolicies, type WorkerBoundsConfig, WorkerBoundsConfigSchema } from "runpod-iac/policy";
import * as plugin from "runpod-iac/plugin";

export function declare(): pulumi.Output<string> {
  const volume = new NetworkVolume("models", { size: 10, dataCenterId: "EU-RO-1" });
  const auth = new ContainerRegistryAuth("ghcr", { username: "bot", password: pulumi.secret("token") });
  const template = new Template("worker", {
    imageName: "ghcr.io/acme/worker:1.4.2",
    isServerless: true,
    containerRegistryAuthId: auth.id,
  });
  const endpoint = new ServerlessEndpoint("api", {
    templateId: template.id,
    gpuTypeIds: ["NVIDIA L4"],
    networkVolumeId: volume.id,
    dataCenterIds: [volume.dataCenterId],
  });
  return endpoint.url;
}

export function declarePlugin(): pulumi.Output<number> {
  const volume = new plugin.NetworkVolume("models", { size: 10, dataCenterId: "EU-RO-1" });
  new plugin.ServerlessEndpoint("api", { templateId: "echo", computeType: plugin.ComputeType.GPU, networkVolumeId: volume.id });
  return volume.size;
}

export async function names(apiKey: string): Promise<string[]> {
  const client = new RunpodClient({ apiKey });
  try {
    const endpoints: Endpoint[] = await client.endpoints.list();
    return endpoints.map((e) => e.name ?? e.id);
  } catch (err) {
    if (err instanceof APIError && err.code === "not_found") return [];
    throw err;
  } finally {
    await client.close();
  }
}

export async function batch(apiKey: string): Promise<number> {
  const client = new RunpodClient({ apiKey });
  const options: SubmitManyOptions = { concurrency: 10, limits: { run: { perWindow: 500 } }, delivery: "at-most-once" };
  let ended = 0;
  for await (const outcome of client.jobs("ep").submitMany([{ input: { prompt: "hi" } }], options)) {
    const seen: BatchOutcome = outcome;
    if (seen.kind === "ended" && seen.job.status === "COMPLETED") ended++;
  }
  await client.close();
  return ended;
}

export async function emulate(): Promise<string> {
  const emulator: RunningEmulator = await startEmulator({ port: 0 });
  await emulator.close();
  return emulator.apiUrl;
}

export const valid: boolean = NetworkVolumeSchema.safeParse({ id: "v", name: "n", size: 1, dataCenterId: "EU-RO-1" }).success;
const bounds: WorkerBoundsConfig = { workersMaxCap: 3, byStack: { "dev*": { workersMaxCap: 1 } } };
const checked = WorkerBoundsConfigSchema.safeParse({ ...bounds, workersMinCap: -1 });
export const problems: string[] = checked.success ? [] : checked.error.issues.map((i) => \`\${i.path.join(".")}: \${i.code}\`);
export const policyCount: number = runpodPolicies.length;
`;

/** The compiler options every Pulumi TypeScript template shares (none of them touches interop or lib checks). */
export const TEMPLATE_OPTIONS = {
  strict: true,
  outDir: "bin",
  sourceMap: true,
  experimentalDecorators: true,
  pretty: false,
  noFallthroughCasesInSwitch: true,
  noImplicitReturns: true,
  forceConsistentCasingInFileNames: true,
};

/** Each generation of the template's module settings, and `bundler` resolution, by a name for the test's title. */
export const SETTINGS: [string, Record<string, unknown>][] = [
  [
    "the template before March 2026 (commonjs, moduleResolution node)",
    { target: "es2020", module: "commonjs", moduleResolution: "node" },
  ],
  ["today's template (nodenext)", { target: "es2020", module: "nodenext", moduleResolution: "nodenext" }],
  ["bundler resolution", { target: "es2022", module: "esnext", moduleResolution: "bundler" }],
];
