import { spawn } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { engineText, type RawText, type Screen } from "./screen";

/**
 * The `pulumi` CLI as `recover` runs it: always against the given backend
 * (`PULUMI_BACKEND_URL`), never interactive. What a command prints is returned as it is, for
 * `recover` to parse (`EngineRun.raw`); what is passed on to the user goes through the `Screen`,
 * which masks it. Stack-level commands (ls, export, import, cancel) run in an empty directory, so
 * the engine names every stack `organization/<project>/<stack>` and reads no project's settings;
 * refresh, up and destroy run in the project directory.
 */

/** How one run ended, and what it printed. */
export interface EngineRun {
  code: number;
  /** What the engine printed, unmasked: to parse, never to print (show it through a `Screen`). */
  raw: { stdout: RawText; stderr: RawText };
}

/** A `pulumi` binary bound to one backend. */
export class PulumiEngine {
  private readonly neutralDir: string;

  constructor(
    private readonly pulumi: string,
    private readonly backendUrl: string,
    /** Where `stream` passes the engine's output on, masked. */
    private readonly screen: Screen,
  ) {
    this.neutralDir = fs.mkdtempSync(path.join(os.tmpdir(), "runpod-iac-recover-"));
  }

  /** A file in this run's private directory (removed by `close`). */
  scratchFile(name: string): string {
    return path.join(this.neutralDir, name);
  }

  /** Runs a stack-level command outside any project; resolves to its exit code and raw output. */
  capture(args: string[]): Promise<EngineRun> {
    return this.spawn(args, this.neutralDir, false);
  }

  /** Runs a command in `cwd`, passing its output on through the screen line by line; resolves to its exit code. */
  async stream(args: string[], cwd: string): Promise<number> {
    return (await this.spawn(args, cwd, true)).code;
  }

  /** Removes the private directory (and the stack export kept in it). */
  close(): void {
    fs.rmSync(this.neutralDir, { recursive: true, force: true });
  }

  private spawn(args: string[], cwd: string, passOn: boolean): Promise<EngineRun> {
    return new Promise((resolve) => {
      const flags = args.includes("--non-interactive") ? args : [...args, "--non-interactive"];
      const child = spawn(this.pulumi, flags, {
        cwd,
        stdio: ["ignore", "pipe", "pipe"],
        env: { ...process.env, PULUMI_BACKEND_URL: this.backendUrl, PULUMI_SKIP_UPDATE_CHECK: "true" },
      });
      const raw = { stdout: "", stderr: "" };
      const done = (code: number): EngineRun => ({
        code,
        raw: { stdout: engineText(raw.stdout), stderr: engineText(raw.stderr) },
      });
      // Passed on in whole lines only, so the screen sees a secret split across two chunks whole.
      const collect = (stream: "stdout" | "stderr") => {
        let pending = "";
        child[stream].setEncoding("utf8");
        child[stream].on("data", (chunk: string) => {
          raw[stream] += chunk;
          if (!passOn) return;
          pending += chunk;
          const end = pending.lastIndexOf("\n") + 1;
          if (end > 0) {
            this.screen.passOn(stream, engineText(pending.slice(0, end)));
            pending = pending.slice(end);
          }
        });
        child[stream].on("end", () => pending && this.screen.passOn(stream, engineText(pending)));
      };
      collect("stdout");
      collect("stderr");
      // A binary that cannot be started reports `error` (and may or may not report `close`).
      child.on("error", (error) => {
        raw.stderr += `could not run ${this.pulumi}: ${error.message}\n`;
        resolve(done(127));
      });
      child.on("close", (code) => resolve(done(code ?? 1)));
    });
  }
}
