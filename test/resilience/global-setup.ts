import { providePulumiCli, runProvideScript } from "../../scripts/pulumi-cli";

/**
 * Provides what the resilience tier runs on, once before its first test: the Pulumi CLI,
 * PostgreSQL's binaries (for the postgres:// backend's private clusters) and SeaweedFS (the s3://
 * backend's server). A cold start builds the CLI and SeaweedFS from the Go module proxy, side by
 * side, and may install PostgreSQL with apt; later calls hit the caches in well under a second. A
 * missing tool fails the run with the reason, never skips a test.
 */
export default async function setup(): Promise<void> {
  await Promise.all([
    providePulumiCli(),
    runProvideScript("provide-postgres.sh"),
    runProvideScript("provide-seaweedfs.sh"),
  ]);
}
