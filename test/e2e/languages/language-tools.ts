import { execFile } from "node:child_process";
import * as path from "node:path";
import { REPO_ROOT, runProvideScript } from "../../../scripts/pulumi-cli";

/** What a finished command printed, and its exit code. */
export interface ToolResult {
  code: number;
  stdout: string;
  stderr: string;
}

/** Runs `command` with `args` to the end; never rejects on a non-zero exit (the caller asserts the code). */
export function runTool(
  command: string,
  args: string[],
  options: { cwd?: string; env?: NodeJS.ProcessEnv } = {},
): Promise<ToolResult> {
  return new Promise((resolve) => {
    execFile(
      command,
      args,
      { cwd: options.cwd ?? REPO_ROOT, env: options.env ?? process.env, maxBuffer: 64 << 20 },
      (error, stdout, stderr) => {
        const code = error ? Number((error as { code?: number | string }).code ?? 1) : 0;
        resolve({ code: Number.isFinite(code) ? code : 1, stdout, stderr });
      },
    );
  });
}

/** Runs a tool and resolves to its stdout; rejects with everything it printed when it fails. */
export async function runToolOk(
  command: string,
  args: string[],
  options: { cwd?: string; env?: NodeJS.ProcessEnv } = {},
): Promise<string> {
  const result = await runTool(command, args, options);
  if (result.code !== 0) {
    throw new Error(`${command} ${args.join(" ")} exited ${result.code}\n${result.stdout}\n${result.stderr}`);
  }
  return result.stdout;
}

/** The schema fixture of the SDK generator's own tests, shaped like the plugin's schema. */
export const FIXTURE_SCHEMA = path.join(REPO_ROOT, "tools", "pulumi-sdkgen", "testdata", "schema.json");

/** Writes the Python and Go SDKs of `schema` into `out/python` and `out/go` (scripts/gen-sdks.sh). */
export async function generateSdks(schema: string, out: string): Promise<void> {
  await runToolOk("bash", [path.join(REPO_ROOT, "scripts", "gen-sdks.sh"), "--schema", schema, "--out", out]);
}

/**
 * The cached Python environment with `pulumi` and the Python SDK in `sdkDir` installed
 * (scripts/provide-python.sh; the committed SDK by default); resolves to its `bin/python`.
 */
export async function providePython(sdkDir?: string): Promise<string> {
  const venv = await runProvideScript("provide-python.sh", sdkDir ? [sdkDir] : []);
  return path.join(venv, "bin", "python");
}
