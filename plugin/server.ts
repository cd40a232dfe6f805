/**
 * The provider plugin's process: what `pulumi-resource-runpod-iac` (the launcher beside the
 * schema, plugin/pulumi-resource-runpod-iac) runs with node. The engine starts it with its own
 * address as the last argument and reads the port it prints.
 */
import { isSea } from "node:sea";
import { main } from "@pulumi/pulumi/provider";
import { useEngineAddress } from "../provider/engine-notice";
import { configureDirect, useConfigNamespace } from "../provider/provider-config";
import { packageVersion } from "./package-root";
import { pluginProvider } from "./plugin-provider";
import { PLUGIN_NAME } from "./type-tokens";
import { closeServerGaps, type PluginConfig, withDefinedResults } from "./server-gaps";

/**
 * The engine's address among the plugin's arguments: the first that is not a logging or tracing
 * flag the engine may put before it (`--logtostderr`, `-v=<n>`, `--tracing <endpoint>`).
 */
export function engineAddressOf(args: readonly string[]): string | undefined {
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    if (arg === "--tracing") i++;
    else if (arg !== "--logtostderr" && !arg.startsWith("-v=")) return arg;
  }
  return undefined;
}

/**
 * The plugin's configuration (`runpod-iac:apiKey`, `runpod-iac:apiUrl`, `runpod-iac:queueUrl`, and
 * the volumes' `runpod-iac:s3AccessKeyId`, `runpod-iac:s3SecretAccessKey`, `runpod-iac:s3Url`)
 * as the provider objects take it; a key left unset falls back to its environment variable
 * (`RUNPOD_API_KEY`, ...) and then its default, as for the dynamic resources.
 */
export function applyPluginConfig(config: PluginConfig): void {
  const value = (key: string) => (config[key]?.trim() ? config[key] : undefined);
  configureDirect({
    apiKey: value("apiKey"),
    apiUrl: value("apiUrl"),
    queueUrl: value("queueUrl"),
    s3AccessKeyId: value("s3AccessKeyId"),
    s3SecretAccessKey: value("s3SecretAccessKey"),
    s3Url: value("s3Url"),
  });
}

/**
 * Serves the plugin of `version` to the engine whose arguments are `args`: what the launcher runs
 * (below) and what the standalone plugin's executable runs (scripts/release/standalone-entry.ts).
 */
export function servePlugin(args: string[], version: string): Promise<void> {
  const engine = engineAddressOf(args);
  // Notices of `diff` (a pod's reset) go to the engine's log, under the resource they are about.
  if (engine !== undefined) useEngineAddress(engine);
  // Messages name the plugin's config keys (`runpod-iac:apiUrl`), which its users set.
  useConfigNamespace(PLUGIN_NAME);
  closeServerGaps(applyPluginConfig);
  return main(withDefinedResults(pluginProvider(version)), args);
}

// Run by the launcher; inside the standalone plugin's executable this module is bundled and not the program.
if (require.main === module && !isSea()) void servePlugin(process.argv.slice(2), packageVersion());
