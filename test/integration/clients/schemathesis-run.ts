import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { inject } from "vitest";
import type { OpenApiDoc } from "./openapi-amendments";
import { runProcess } from "./python-runner";

/**
 * The checks of every run: no server error, and every answer as the document says (its status
 * code, its content type, its body against the response schema).
 */
export const CHECKS = [
  "not_a_server_error",
  "status_code_conformance",
  "content_type_conformance",
  "response_schema_conformance",
];

/**
 * The seed of every run, so a run is reproducible (`--seed`; examples are not carried from one run
 * to the next: `--generation-database none`), and the examples per operation, which bound its time.
 */
export const SEED = 20261128;
export const MAX_EXAMPLES = 5;

/** The part of schemathesis's JSON report the tests read. */
export interface SchemathesisReport {
  exit_code: number;
  running_time: number;
  operations: { total: number; selected: number; tested: number; errored: number };
  test_cases: { generated: number; with_failures: number };
  failures: { code: string; title: string; operations: string[] }[];
  errors: unknown[];
}

/** A run's report and what the CLI printed (each failure with a curl line that reproduces it). */
export interface SchemathesisRun {
  report: SchemathesisReport;
  output: string;
}

/** Path parameters fixed for one operation (`"GET /pods/{podId}"`), so it reads a resource that exists. */
export type FixedParameters = Record<string, Record<string, string>>;

const toml = (value: string) => JSON.stringify(value);

/**
 * Runs `schemathesis run` on `doc` against `baseUrl` with the account's `key`, in a scratch
 * directory (its report and config never land in the repository), and returns its JSON report.
 */
export async function runSchemathesis(options: {
  doc: OpenApiDoc;
  baseUrl: string;
  key: string;
  fixed: FixedParameters;
  exclude?: readonly string[];
}): Promise<SchemathesisRun> {
  const dir = await mkdtemp(path.join(os.tmpdir(), "schemathesis-"));
  try {
    await writeFile(path.join(dir, "openapi.json"), JSON.stringify(options.doc));
    const config = Object.entries(options.fixed).map(([operation, params]) => {
      const pairs = Object.entries(params).map(([name, value]) => `${toml(`path.${name}`)} = ${toml(value)}`);
      return `[[operations]]\ninclude-name = ${toml(operation)}\nparameters = { ${pairs.join(", ")} }\n`;
    });
    await writeFile(path.join(dir, "schemathesis.toml"), config.join("\n"));
    const args = [
      "--config-file",
      path.join(dir, "schemathesis.toml"),
      "run",
      path.join(dir, "openapi.json"),
      "--url",
      options.baseUrl,
      "--header",
      `Authorization: Bearer ${options.key}`,
      "--checks",
      CHECKS.join(","),
      "--seed",
      String(SEED),
      "--max-examples",
      String(MAX_EXAMPLES),
      "--generation-database",
      "none",
      // One worker: the order of requests, and so what the emulator holds at each, is the seed's.
      "--workers",
      "1",
      "--request-timeout",
      "20",
      "--report",
      "json",
      "--report-json-path",
      path.join(dir, "report.json"),
      "--no-color",
      ...(options.exclude ?? []).flatMap((name) => ["--exclude-name", name]),
    ];
    const bin = path.join(inject("pythonClients"), "bin", "schemathesis");
    const result = await runProcess(bin, args, { cwd: dir, timeoutMs: 20 * 60_000 });
    const output = `${result.stdout}\n${result.stderr}`;
    let report: SchemathesisReport;
    try {
      report = JSON.parse(await readFile(path.join(dir, "report.json"), "utf8")) as SchemathesisReport;
    } catch {
      throw new Error(`schemathesis wrote no report (exit code ${result.code}):\n${output}`);
    }
    return { report, output };
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
