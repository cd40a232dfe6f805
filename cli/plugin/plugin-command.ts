import { parseArgs } from "node:util";
import { packageRoot } from "../../plugin/package-root";
import { installPlugin } from "./install-plugin";
import { installTarball } from "./plugin-tarball";

const USAGE = `Usage: runpod-iac plugin install
       runpod-iac plugin install --file <tarball> [--version <version>]

Installs the provider plugin runpod-iac of this package's version into the Pulumi plugin cache
($PULUMI_HOME/plugins, by default ~/.pulumi/plugins), where every Pulumi program on this machine
finds it: Python, Go and YAML programs, and TypeScript programs using runpod-iac/plugin. The
plugin holds a copy of the package and what it needs, so it keeps working whatever happens to
this project; run the command again after upgrading runpod-iac. The plugin runs on Node.js (22 or
24), which must be installed wherever Pulumi runs it.

  --file <tarball>     install a release's standalone plugin instead
                       (pulumi-resource-runpod-iac-v<version>-<os>-<arch>.tar.gz: it carries its own
                       runtime and needs no Node.js where it runs), through the Pulumi CLI on PATH.
                       A tarball of another platform is refused, saying which one it is.
  --version <version>  with --file: the version the tarball must be; another is refused

Instead of installing, a project may name the plugin's folder in its Pulumi.yaml:
  plugins:
    providers:
      - name: runpod-iac
        path: node_modules/runpod-iac/plugin
`;

/** `runpod-iac plugin <subcommand>`; resolves to the exit code. */
export async function pluginCommand(args: string[]): Promise<number> {
  const [sub, ...rest] = args;
  if (sub === "--help" || sub === "-h" || sub === "help" || rest.includes("--help") || rest.includes("-h")) {
    process.stdout.write(USAGE);
    return 0;
  }
  let values: { file?: string; version?: string };
  try {
    if (sub !== "install") throw new Error(sub ? `unknown arguments: plugin ${args.join(" ")}` : "");
    ({ values } = parseArgs({
      args: rest,
      options: { file: { type: "string" }, version: { type: "string" } },
      strict: true,
    }));
    if (values.version !== undefined && values.file === undefined) {
      throw new Error(
        `--version ${values.version} goes with --file: without it, this package's own plugin is installed`,
      );
    }
  } catch (err) {
    const message = (err as Error).message;
    process.stderr.write(`${message ? `${message}\n\n` : ""}${USAGE}`);
    return 2;
  }
  if (values.file === undefined) {
    const dir = installPlugin(packageRoot(__dirname));
    process.stdout.write(`installed the runpod-iac provider plugin in ${dir}\n`);
    return 0;
  }
  try {
    const { manifest, dir } = installTarball(values.file, values.version);
    process.stdout.write(
      `installed the runpod-iac provider plugin ${manifest.version} for ${manifest.platform} (Node.js ${manifest.node} inside) in ${dir}\n`,
    );
    return 0;
  } catch (err) {
    process.stderr.write(`runpod-iac plugin install: ${(err as Error).message}\n`);
    return 1;
  }
}
