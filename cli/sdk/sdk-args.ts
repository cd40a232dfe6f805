import * as path from "node:path";
import { parseArgs } from "node:util";

/** The languages `runpod-iac sdk` writes, and the folder of `plugin/sdks/` each is copied from. */
export const SDK_LANGUAGES = ["python", "go"] as const;

/** A language `runpod-iac sdk` writes. */
export type SdkLanguage = (typeof SDK_LANGUAGES)[number];

/** Usage of `runpod-iac sdk`, with the Go SDK's module path (its go.mod's). */
export function sdkUsage(goModule: string): string {
  return `Usage: runpod-iac sdk <python|go> --out DIR

Writes the SDK of the provider plugin runpod-iac for Python or Go into DIR, which must be absent or
empty. The SDKs are generated from the plugin's schema with Pulumi's own code generators and ship
in this package, so writing one needs neither Go nor the network. Programs that use them need the
plugin itself: the standalone plugin of the release (pulumi plugin install resource runpod-iac
<version> --file <tarball>), or npx runpod-iac plugin install (which runs on Node.js).

  python   a Python package: pip install DIR, then import pulumi_runpod_iac
  go       a Go module whose package is runpodiac; point your go.mod at it:
             go mod edit -replace ${goModule}=DIR && go mod tidy

  --out DIR   where to write the SDK (required)
  --help      show this help
`;
}

/** A mistake in how `sdk` was called: printed with the usage, exit code 2. */
export class SdkUsageError extends Error {}

/** What `sdk` was asked to do. */
export interface SdkArgs {
  language: SdkLanguage;
  /** The directory to write into, absolute. */
  out: string;
}

/** Reads `sdk`'s arguments; a mistake is an `SdkUsageError` naming the argument, the value and the rule. */
export function parseSdkArgs(argv: string[], cwd: string = process.cwd()): SdkArgs | "help" {
  let parsed;
  try {
    parsed = parseArgs({
      args: argv,
      strict: true,
      allowPositionals: true,
      options: { out: { type: "string" }, help: { type: "boolean", short: "h" } },
    });
  } catch (error) {
    throw new SdkUsageError((error as Error).message);
  }
  const { values, positionals } = parsed;
  if (values.help) return "help";
  const [language, ...extra] = positionals;
  if (language === undefined) throw new SdkUsageError(`a language is required: one of ${SDK_LANGUAGES.join(", ")}`);
  if (!(SDK_LANGUAGES as readonly string[]).includes(language)) {
    throw new SdkUsageError(`language ${JSON.stringify(language)}: must be one of ${SDK_LANGUAGES.join(", ")}`);
  }
  if (extra.length > 0)
    throw new SdkUsageError(`unexpected argument ${JSON.stringify(extra[0])}: one language at a time`);
  if (values.out === undefined || values.out.trim() === "") {
    throw new SdkUsageError("--out is required: the directory to write the SDK into");
  }
  return { language: language as SdkLanguage, out: path.resolve(cwd, values.out) };
}
