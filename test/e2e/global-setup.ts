import { providePulumiCli, runProvideScript } from "../../scripts/pulumi-cli";

/**
 * Provides what the end-to-end tier runs on, once before its first test: the Pulumi CLI, and
 * PostgreSQL's binaries (the examples and `recover` also run on a private postgres:// backend). A
 * cold start builds the CLI from the Go module proxy and may install PostgreSQL with apt; later
 * calls hit the caches in well under a second. A missing tool fails the run with the reason,
 * never skips a test.
 */
export default async function setup(): Promise<void> {
  await Promise.all([providePulumiCli(), runProvideScript("provide-postgres.sh")]);
}
