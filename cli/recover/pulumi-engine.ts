import { spawn } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { redactText } from "./backend-url";

/**
 * The `pulumi` CLI as `recover` runs it: always against the given backend
 * (`PULUMI_BACKEND_URL`), never interactive, and with every byte of its output passed through
 * `redactText` before anyone sees it. Stack-level commands (ls, export, import, cancel) run in an
 * empty directory, so the engine names every stack `organization/<project>/<stack>` and reads no
 * project's settings; refresh, up and destroy run in the project directory.
 */

/** What one run printed (redacted) and how it ended. */
export interface EngineResult {
  code: number;
  stdout: string;
  stderr: string;
}

/** A `pulumi` binary bound to one backend. */
export class PulumiEngine {
  private readonly neutralDir: string;

  constructor(
    private readonly pulumi: string,
    private readonly backendUrl: string,
    private readonly secrets: readonly string[],
  ) {
    this.neutralDir = fs.mkdtempSync(path.join(os.tmpdir(), "runpod-iac-recover-"));
  }

  /** Redacts what the engine printed. */
  redact(text: string): string {
    return redactText(text, this.secrets);
  }

  /** A file in this run's private directory (removed by `close`). */
  scratchFile(name: string): string {
    return path.join(this.neutralDir, name);
  }

  /** Runs a stack-level command outside any project and returns its redacted output. */
  capture(args: string[]): Promise<EngineResult> {
    return this.spawn(args, this.neutralDir, undefined);
  }

  /** Runs a command in `cwd`, passing its output on line by line, redacted; resolves to its exit code. */
  async stream(args: string[], cwd: string): Promise<number> {
    return (await this.spawn(args, cwd, { stdout: process.stdout, stderr: process.stderr })).code;
  }

  /** Removes the private directory (and the stack export kept in it). */
  close(): void {
    fs.rmSync(this.neutralDir, { recursive: true, force: true });
  }

  private spawn(
    args: string[],
    cwd: string,
    sinks: { stdout: NodeJS.WritableStream; stderr: NodeJS.WritableStream } | undefined,
  ): Promise<EngineResult> {
    return new Promise((resolve) => {
      const flags = args.includes("--non-interactive") ? args : [...args, "--non-interactive"];
      const child = spawn(this.pulumi, flags, {
        cwd,
        stdio: ["ignore", "pipe", "pipe"],
        env: { ...process.env, PULUMI_BACKEND_URL: this.backendUrl, PULUMI_SKIP_UPDATE_CHECK: "true" },
      });
      const result: EngineResult = { code: 1, stdout: "", stderr: "" };
      // Whole lines only, so a secret split across two chunks is still seen whole.
      const collect = (stream: "stdout" | "stderr") => {
        let pending = "";
        const flush = (text: string) => {
          const clean = this.redact(text);
          result[stream] += clean;
          sinks?.[stream].write(clean);
        };
        child[stream].setEncoding("utf8");
        child[stream].on("data", (chunk: string) => {
          pending += chunk;
          const end = pending.lastIndexOf("\n") + 1;
          if (end > 0) {
            flush(pending.slice(0, end));
            pending = pending.slice(end);
          }
        });
        child[stream].on("end", () => pending && flush(pending));
      };
      collect("stdout");
      collect("stderr");
      // A binary that cannot be started reports `error` (and may or may not report `close`).
      child.on("error", (error) => {
        result.stderr += `could not run ${this.pulumi}: ${error.message}\n`;
        resolve({ ...result, code: 127 });
      });
      child.on("close", (code) => resolve({ ...result, code: code ?? 1 }));
    });
  }
}
