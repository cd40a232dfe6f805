import { packageRoot } from "../../plugin/package-root";
import { installPlugin } from "./install-plugin";

const USAGE = `Usage: runpod-iac plugin install

Installs the provider plugin runpod-iac of this package's version into the Pulumi plugin cache
($PULUMI_HOME/plugins, by default ~/.pulumi/plugins), where every Pulumi program on this machine
finds it: Python, Go and YAML programs, and TypeScript programs using runpod-iac/plugin. The
plugin holds a copy of the package and what it needs, so it keeps working whatever happens to
this project; run the command again after upgrading runpod-iac. The plugin runs on Node.js (22 or
24), which must be installed wherever Pulumi runs it.

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
  if (sub !== "install" || rest.length > 0) {
    process.stderr.write(`${sub ? `unknown arguments: plugin ${args.join(" ")}\n\n` : ""}${USAGE}`);
    return 2;
  }
  const dir = installPlugin(packageRoot(__dirname));
  process.stdout.write(`installed the runpod-iac provider plugin in ${dir}\n`);
  return 0;
}
