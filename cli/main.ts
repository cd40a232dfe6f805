#!/usr/bin/env node
/**
 * The package's bin, `runpod-iac <command>`: `emulator` runs the local platform,
 * `recover` makes a stack usable again after a killed `pulumi` run, on any state backend, `cost`
 * prints what a stack's resources were billed, `plugin install` installs the provider plugin for
 * every Pulumi language, `sdk` writes its Python or Go SDK. Each command is loaded only when
 * called, so `recover` and `cost` start without the emulator's server.
 */

const USAGE = `Usage: runpod-iac <command> [options]

Commands:
  emulator   run the local platform emulator         (runpod-iac emulator --help)
  recover    unlock and repair a stack after a killed
             pulumi run, then refresh and up again    (runpod-iac recover --help)
  cost       what a stack's resources were billed    (runpod-iac cost --help)
  plugin     install the provider plugin runpod-iac
             for Python, Go, YAML and runpod-iac/plugin (runpod-iac plugin --help)
  sdk        write the plugin's Python or Go SDK      (runpod-iac sdk --help)
`;

/** Dispatches to a command; resolves to the exit code. */
export async function main(argv: string[]): Promise<number> {
  const [command, ...rest] = argv;
  switch (command) {
    case "emulator":
      return (await import("../emulator/cli.js")).emulatorMain(argv);
    case "recover":
      return (await import("./recover/recover-command.js")).recoverCommand(rest);
    case "cost":
      return (await import("./cost/cost-command.js")).costCommand(rest);
    case "plugin":
      return (await import("./plugin/plugin-command.js")).pluginCommand(rest);
    case "sdk":
      return (await import("./sdk/sdk-command.js")).sdkCommand(rest);
    case "help":
    case "--help":
    case "-h":
      process.stdout.write(USAGE);
      return 0;
    default:
      process.stderr.write(`${command ? `unknown command: ${command}\n\n` : ""}${USAGE}`);
      return 2;
  }
}

if (require.main === module) {
  main(process.argv.slice(2)).then(
    (code) => process.exit(code),
    (error: unknown) => {
      process.stderr.write(`runpod-iac: ${error instanceof Error ? error.message : String(error)}\n`);
      process.exit(1);
    },
  );
}
