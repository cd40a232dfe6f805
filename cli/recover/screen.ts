import { redactText } from "./backend-url";
import { RECOVER_USAGE } from "./recover-args";

/**
 * Everything `recover` shows a person, and the one place its words are masked.
 *
 * What the engine prints is kept as it is (`RawText`) and parsed as it is: stack and project names,
 * `pulumi stack ls` JSON, lock holders. Masking it first would change what it says: a passphrase
 * `team` turns the project `team-backend-app` into `****-backend-app`, a name the engine then
 * refuses, and a host name holding a secret no longer matches this machine's. So text is masked
 * only on its way out, here, and `Screen` is write-only: masked text never comes back into the
 * program, where something could parse it.
 */

declare const RAW: unique symbol;

/**
 * Text exactly as the engine printed it, secrets and all: parse it and compare it, and show it only
 * through a `Screen`. The functions that read the engine's output take this type, so text that was
 * masked (a plain `string`) cannot be handed to them by mistake.
 */
export type RawText = string & { readonly [RAW]: true };

/** Marks `text` as the engine's own output (the engine runner does; tests of the parsers too). */
export function engineText(text: string): RawText {
  return text as RawText;
}

/** How `recover` talks: progress on stdout, problems on stderr. */
export interface Reporter {
  out(line: string): void;
  fail(line: string): void;
}

/** Where a `Screen` writes. */
export interface Sinks {
  stdout: { write(text: string): unknown };
  stderr: { write(text: string): unknown };
}

const PROCESS_SINKS: Sinks = { stdout: process.stdout, stderr: process.stderr };

/**
 * Writes `recover`'s lines and the engine's output it passes on, with every known secret and the
 * password of any URL masked (`redactText`).
 */
export class Screen implements Reporter {
  constructor(
    private readonly secrets: readonly string[],
    private readonly sinks: Sinks = PROCESS_SINKS,
  ) {}

  /** A line of progress, on stdout. */
  out(line: string): void {
    this.write("stdout", `${line}\n`);
  }

  /** A problem, on stderr, prefixed with the command's name. */
  fail(line: string): void {
    this.write("stderr", `runpod-iac recover: ${line}\n`);
  }

  /**
   * Passes on what the engine printed. Give whole lines: a secret split between two calls would
   * not be seen whole.
   */
  passOn(stream: "stdout" | "stderr", text: RawText): void {
    this.write(stream, text);
  }

  /**
   * The usage, as written: the program's own text holds no secret, and masking a word of it (a
   * passphrase `stack`) would only point at the secret. On stderr it follows a `fail` line.
   */
  usage(stream: "stdout" | "stderr"): void {
    this.sinks[stream].write(stream === "stderr" ? `\n${RECOVER_USAGE}\n` : `${RECOVER_USAGE}\n`);
  }

  private write(stream: "stdout" | "stderr", text: string): void {
    this.sinks[stream].write(redactText(text, this.secrets));
  }
}
