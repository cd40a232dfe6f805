#!/usr/bin/env node
import { CliUsageError, parseCliArgs, USAGE } from "./cli-args";
import { DEFAULT_API_KEY, type EmulatorOptions } from "./options";
import { DEFAULT_S3_ACCESS_KEY_ID } from "./s3/s3-options";
import { maskKey } from "./store/auth";
import { startEmulator } from "./start-emulator";

const out = (line: string) => process.stdout.write(`${line}\n`);

/** The S3 access key ids the accounts have (never their secrets). */
function s3KeyIds(options: EmulatorOptions): string {
  const keys = options.s3?.keys;
  return keys?.length
    ? keys.map((k) => k.accessKeyId).join(", ")
    : `${DEFAULT_S3_ACCESS_KEY_ID} (the documented default)`;
}

/**
 * `runpod-iac emulator [flags]`: runs the emulator until SIGINT or SIGTERM; resolves to the
 * exit code. `argv` starts with the command name (`emulator`). The package's bin (cli/main.ts)
 * calls it; `node dist/emulator/cli.js emulator ...` runs it directly.
 */
export async function emulatorMain(argv: string[]): Promise<number> {
  const [command, ...rest] = argv;
  if (command === "--help" || command === "-h" || command === "help") {
    out(USAGE);
    return 0;
  }
  if (command !== "emulator") {
    process.stderr.write(`${command ? `unknown command: ${command}\n` : ""}${USAGE}`);
    return 2;
  }
  let parsed: ReturnType<typeof parseCliArgs>;
  try {
    parsed = parseCliArgs(rest);
  } catch (error) {
    if (!(error instanceof CliUsageError)) throw error;
    process.stderr.write(`runpod-iac emulator: ${error.message}\n\n${USAGE}`);
    return 2;
  }
  if (parsed.help) {
    out(USAGE);
    return 0;
  }
  const options = parsed.options;
  // Listen for signals before announcing readiness: a caller may signal as soon as it reads "ready".
  const stopped = new Promise<string>((resolve) => {
    process.once("SIGINT", () => resolve("SIGINT"));
    process.once("SIGTERM", () => resolve("SIGTERM"));
  });
  const emulator = await startEmulator(options);
  const keys = options.apiKeys?.length ? options.apiKeys : [DEFAULT_API_KEY];
  const scale = options.timeScale;
  out("runpod-iac emulator");
  out(`  management API (RUNPOD_API_URL)   ${emulator.apiUrl} (v2, the default; v1: ${emulator.apiUrlV1})`);
  out(`  job API        (RUNPOD_QUEUE_URL) ${emulator.queueUrl}`);
  out(`  volumes' S3 API (RUNPOD_S3_URL)   ${emulator.s3Url} (access key ids: ${s3KeyIds(options)})`);
  out(
    `  accepted API keys: ${keys.map(maskKey).join(", ")}${options.apiKeys?.length ? "" : ' (the documented default "emulator-key")'}`,
  );
  out(`  templates: ${emulator.templates.join(", ")}`);
  out(`  clock: ${scale === 0 ? "manual (POST /_emulator/clock/advance)" : `x${scale ?? 1} real time`}`);
  if (options.stateFile) out(`  state file: ${options.stateFile}`);
  const added = [
    ["GPU types", options.additionalGpuTypeIds],
    ["data centers", options.additionalDataCenterIds],
    ["CUDA versions", options.additionalCudaVersions],
    ["CPU flavors", options.additionalCpuFlavorIds],
  ] as const;
  for (const [what, values] of added) {
    if (values?.length)
      out(`  ${what} added to this release's list: ${values.map((v) => JSON.stringify(v)).join(", ")}`);
  }
  out(`  seed: ${emulator.seed} (replay the same faults with --seed ${emulator.seed})`);
  out(`ready: listening on ${emulator.url}`);

  out(`${await stopped}: shutting down`);
  await emulator.close();
  return 0;
}

if (require.main === module) {
  emulatorMain(process.argv.slice(2)).then(
    (code) => process.exit(code),
    (error: unknown) => {
      process.stderr.write(`runpod-iac emulator: ${error instanceof Error ? error.message : String(error)}\n`);
      process.exit(1);
    },
  );
}
