import * as path from "node:path";
import { parseArgs } from "node:util";
import { BILLING_BUCKET_SIZES, type BillingBucketSize } from "../../sdk/schemas/billing";

/** Usage of `runpod-iac cost`. */
export const COST_USAGE = `Usage: runpod-iac cost --stack NAME [options]

Prints what a stack's pods, serverless endpoints and network volumes were billed, per resource and
per time bucket, with a total, read from the platform's billing API. Run it in the Pulumi project
directory; it reads the stack's resources through the engine (\`pulumi stack export\`), so it needs
what \`pulumi\` needs (the backend's credentials, PULUMI_CONFIG_PASSPHRASE for a secret apiKey).
The API key and URL come from the stack's config (runpod:apiKey, runpod:apiUrl for the dynamic
resources; runpod-iac:apiKey, runpod-iac:apiUrl for the provider plugin's), then RUNPOD_API_KEY
and RUNPOD_API_URL; management API v2 unless the URL names v1.

  --stack NAME           the stack (required)
  --since WHEN           start of the window: a duration back from --until (7d, 36h, 2w) or a
                         date (2026-11-01, 2026-11-01T12:00:00Z) (default: 7d)
  --until DATE           end of the window (default: now)
  --bucket SIZE          hour, day, week, month or year (default: day)
  --json                 print { stack, since, until, currency, total, resources } as JSON
  --svg FILE             also write a chart of spend per bucket, stacked by resource
  --policy-config FILE   the --policy-pack-config file: show spend against runpod-stack-cost-ceiling
  --cwd DIR              the Pulumi project directory (default: the current directory)
  --pulumi PATH          the pulumi binary (default: pulumi on PATH)
  --help                 show this help
`;

/** A mistake in how `cost` was called: printed with the usage, exit code 2. */
export class CostUsageError extends Error {}

/** What `cost` was asked to do. */
export interface CostArgs {
  stack: string;
  /** Start of the window, epoch ms. */
  since: number;
  /** End of the window, epoch ms; undefined: now, as the platform's clock says. */
  until: number | undefined;
  bucket: BillingBucketSize;
  json: boolean;
  svg: string | undefined;
  policyConfig: string | undefined;
  cwd: string;
  pulumi: string;
}

const UNITS: Record<string, number> = { h: 3_600_000, d: 86_400_000, w: 7 * 86_400_000 };

/** A date (`2026-11-01`, read as UTC midnight) or a date-time with a zone, as epoch ms; undefined when neither. */
export function parseDate(text: string): number | undefined {
  if (/^\d{4}-\d{2}-\d{2}$/.test(text)) return Date.parse(`${text}T00:00:00Z`);
  if (/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:\d{2})$/.test(text)) return Date.parse(text);
  return undefined;
}

/** `--since`: a duration back from `until` (or `now`), or a date. */
export function parseSince(text: string, until: number): number | undefined {
  const m = /^(\d+)([hdw])$/.exec(text);
  if (m) return until - Number(m[1]) * UNITS[m[2]!]!;
  return parseDate(text);
}

/** Reads `cost`'s arguments; a mistake is a `CostUsageError` naming the flag, the value and the rule. */
export function parseCostArgs(argv: string[], now: number = Date.now()): CostArgs | "help" {
  let values;
  try {
    values = parseArgs({
      args: argv,
      strict: true,
      allowPositionals: false,
      options: {
        stack: { type: "string" },
        since: { type: "string" },
        until: { type: "string" },
        bucket: { type: "string" },
        json: { type: "boolean" },
        svg: { type: "string" },
        "policy-config": { type: "string" },
        cwd: { type: "string" },
        pulumi: { type: "string" },
        help: { type: "boolean", short: "h" },
      },
    }).values;
  } catch (error) {
    throw new CostUsageError((error as Error).message);
  }
  if (values.help) return "help";
  if (!values.stack) throw new CostUsageError("--stack is required: the stack whose spend to show");
  let until: number | undefined;
  if (values.until !== undefined) {
    until = parseDate(values.until);
    if (until === undefined) {
      throw new CostUsageError(
        `--until ${values.until}: must be a date (2026-11-01) or a date-time with a zone (2026-11-01T12:00:00Z)`,
      );
    }
  }
  const sinceText = values.since ?? "7d";
  const since = parseSince(sinceText, until ?? now);
  if (since === undefined) {
    throw new CostUsageError(`--since ${sinceText}: must be a duration (7d, 36h, 2w) or a date (2026-11-01)`);
  }
  if (since >= (until ?? now)) {
    throw new CostUsageError(`--since ${sinceText}: must be before --until (${new Date(until ?? now).toISOString()})`);
  }
  const bucket = values.bucket ?? "day";
  if (!(BILLING_BUCKET_SIZES as readonly string[]).includes(bucket)) {
    throw new CostUsageError(`--bucket ${bucket}: must be one of ${BILLING_BUCKET_SIZES.join(", ")}`);
  }
  return {
    stack: values.stack,
    since,
    until,
    bucket: bucket as BillingBucketSize,
    json: values.json === true,
    svg: values.svg === undefined ? undefined : path.resolve(values.svg),
    policyConfig: values["policy-config"] === undefined ? undefined : path.resolve(values["policy-config"]),
    cwd: path.resolve(values.cwd ?? "."),
    pulumi: values.pulumi ?? "pulumi",
  };
}
