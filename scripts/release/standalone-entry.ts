/**
 * The standalone plugin's program: what scripts/release/bundle-plugin.ts bundles into one script
 * and the single executable runs. The schema is an asset of the executable (there is no package
 * folder to read it from), and the plugin's version is the schema's. Before serving, it refuses to
 * run from the plugin cache folder of another version, saying which plugin it is.
 */
import { getAsset, isSea } from "node:sea";
import { installedAsAnotherVersion, pulumiPlatform } from "../../plugin/installed-as";
import { useSchemaText } from "../../plugin/plugin-schema";
import { servePlugin } from "../../plugin/server";

/** The asset key of the schema in the executable (scripts/release/sea.ts writes it). */
export const SCHEMA_ASSET = "schema.json";

function start(): void {
  if (!isSea()) throw new Error("the standalone plugin's program runs only inside its single executable");
  const schema = getAsset(SCHEMA_ASSET, "utf8");
  const { version } = JSON.parse(schema) as { version: string };
  const args = process.argv.slice(2);
  if (args.length === 1 && args[0] === "--version") {
    process.stdout.write(`${version} ${pulumiPlatform()}\n`);
    return;
  }
  const wrong = installedAsAnotherVersion(process.execPath, version, pulumiPlatform());
  if (wrong) {
    process.stderr.write(`${wrong}\n`);
    process.exit(1);
  }
  useSchemaText(schema);
  void servePlugin(args, version);
}

start();
