import * as fs from "node:fs";
import { RunpodClient } from "../../sdk/client";
import { COST_USAGE, type CostArgs, CostUsageError, parseCostArgs } from "./cost-args";
import { ceilingLines, readCeiling } from "./cost-ceiling";
import { renderTable } from "./render-table";
import { readSpend, roundAmount, spendReport, type SpendReport } from "./spend";
import { renderSpendChart } from "./spend-chart";
import { StackReader } from "./stack-reader";

/** Where `cost` writes: stdout and stderr (tests pass their own). */
export interface CostOutput {
  out(text: string): void;
  err(text: string): void;
}

const STD: CostOutput = {
  out: (text) => process.stdout.write(text),
  err: (text) => process.stderr.write(text),
};

/** The `--json` document: `{ stack, since, until, currency, total, resources }` (docs/cost.md). */
export function costJson(report: SpendReport): Record<string, unknown> {
  return {
    stack: report.stack,
    since: report.since,
    until: report.until,
    currency: report.currency,
    total: report.total,
    resources: report.resources.map((r) => ({
      type: r.type,
      name: r.name,
      id: r.id,
      amount: r.amount,
      ...(r.scope ? { scope: r.scope } : {}),
      byBucket: r.byBucket,
    })),
  };
}

async function run(args: CostArgs, io: CostOutput): Promise<number> {
  const envKey = process.env.RUNPOD_API_KEY?.trim();
  const reader = new StackReader(args.pulumi, args.cwd, args.stack, envKey ? [envKey] : []);
  try {
    const resources = await reader.resources();
    const settings = await reader.settings();
    // Stack config first, then the environment (docs/configuration.md); v2 unless the URL names v1.
    const client = new RunpodClient({ apiKey: settings.apiKey, apiUrl: settings.apiUrl });
    try {
      const now = Date.now();
      const window = { since: args.since, until: args.until, bucket: args.bucket };
      const rows = await readSpend(client.billing, client.apiVersion, resources, window);
      const report = spendReport(args.stack, window, now, rows);
      let notes: string[] = [];
      if (args.policyConfig) {
        const tags = await reader.tags();
        const ceiling = readCeiling(args.policyConfig, args.stack, tags);
        notes = ceilingLines(ceiling, report.total, (args.until ?? now) - args.since);
      }
      if (args.svg) fs.writeFileSync(args.svg, renderSpendChart(report));
      if (args.json) {
        const doc = costJson(report);
        if (notes.length > 0) doc.ceiling = notes;
        io.out(`${JSON.stringify(doc, (_k, v: unknown) => (typeof v === "number" ? roundAmount(v) : v), 2)}\n`);
      } else {
        io.out(renderTable(report, notes));
        if (args.svg) io.out(`\nchart written to ${args.svg}\n`);
      }
      return 0;
    } finally {
      await client.close();
    }
  } catch (error) {
    if (error instanceof CostUsageError) throw error;
    io.err(`runpod-iac cost: ${reader.redact(error instanceof Error ? error.message : String(error))}\n`);
    return 1;
  }
}

/**
 * `runpod-iac cost`: what a stack's resources were billed, as a table, JSON or a chart.
 * Resolves to the exit code: 0, 1 when the engine or the platform failed, 2 for a usage mistake.
 */
export async function costCommand(argv: string[], io: CostOutput = STD): Promise<number> {
  try {
    const args = parseCostArgs(argv);
    if (args === "help") {
      io.out(COST_USAGE);
      return 0;
    }
    return await run(args, io);
  } catch (error) {
    if (!(error instanceof CostUsageError)) throw error;
    io.err(`runpod-iac cost: ${error.message}\n\n${COST_USAGE}`);
    return 2;
  }
}
