import { spawn } from "node:child_process";
import path from "node:path";
import { inject } from "vitest";

/** The Python scripts the client tests run (one per client), beside this file. */
export const PYTHON_DIR = path.join(__dirname, "python");

/** The interpreter of the integration tier's Python environment (made by its global setup). */
export function pythonBin(): string {
  return path.join(inject("pythonClients"), "bin", "python");
}

/** What a child process left behind. */
export interface ProcessResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

/**
 * Runs `executable args` to its end with `env` added to a clean environment (no RUNPOD_* of the
 * caller's, so a developer's real key can never reach a test), and resolves with its exit code
 * and output. `timeoutMs` kills it (SIGKILL) and rejects, saying what it printed.
 */
export function runProcess(
  executable: string,
  args: readonly string[],
  { env = {}, cwd, timeoutMs }: { env?: Record<string, string>; cwd?: string; timeoutMs: number },
): Promise<ProcessResult> {
  const base = Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith("RUNPOD_")));
  return new Promise((resolve, reject) => {
    const child = spawn(executable, args, {
      cwd,
      env: { ...base, PYTHONUNBUFFERED: "1", ...env },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (d) => (stdout += d));
    child.stderr.on("data", (d) => (stderr += d));
    const timer = setTimeout(() => {
      child.kill("SIGKILL");
      reject(
        new Error(`${path.basename(executable)} ${args.join(" ")} ran over ${timeoutMs} ms\n${stdout}\n${stderr}`),
      );
    }, timeoutMs);
    child.on("error", (e) => {
      clearTimeout(timer);
      reject(e);
    });
    child.on("close", (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
}

/**
 * Runs `python/<script> args` with the environment's interpreter and parses the JSON object it
 * prints on its last line of stdout. A non-zero exit or output that is not JSON rejects with
 * everything the script printed, so a failing client shows its own traceback.
 */
export async function runPythonJson<T = Record<string, unknown>>(
  script: string,
  args: readonly string[],
  options: { env?: Record<string, string>; timeoutMs: number },
): Promise<T> {
  const result = await runProcess(pythonBin(), [path.join(PYTHON_DIR, script), ...args], options);
  const last = result.stdout.trim().split("\n").pop() ?? "";
  if (result.code !== 0) {
    throw new Error(`${script} exited with ${result.code}\nstdout:\n${result.stdout}\nstderr:\n${result.stderr}`);
  }
  try {
    return JSON.parse(last) as T;
  } catch {
    throw new Error(`${script} printed no JSON on its last line\nstdout:\n${result.stdout}\nstderr:\n${result.stderr}`);
  }
}
