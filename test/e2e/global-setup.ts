import { providePulumiCli } from "../../scripts/pulumi-cli";

/**
 * Provides the Pulumi CLI once before any end-to-end test (a cold build from the Go module proxy
 * takes minutes; later calls hit the cache in well under a second). Fails the run, never skips.
 */
export default async function setup(): Promise<void> {
  await providePulumiCli();
}
