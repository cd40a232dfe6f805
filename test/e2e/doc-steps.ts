import { execFile } from "node:child_process";
import * as fs from "node:fs";
import * as path from "node:path";
import ts from "typescript";
import { REPO_ROOT } from "../../scripts/pulumi-cli";

/*
 * The commands and programs of the docs, read from the Markdown at test time, and run as a reader
 * runs them: so a page that drifts from the code fails the test that follows it. What a test may
 * not run as written (a build the suite has done, a prompt a terminal would answer) is named here.
 */

/** The fenced blocks of `lang` in the section under the heading `heading` of a Markdown file of the repository. */
export function fencedBlocks(file: string, heading: string, lang: string): string[] {
  const lines = fs.readFileSync(path.join(REPO_ROOT, file), "utf8").split("\n");
  const start = lines.findIndex((l) => /^#{1,6} /.test(l) && l.replace(/^#+ /, "").trim() === heading);
  if (start < 0) throw new Error(`${file} has no heading "${heading}"`);
  const level = /^#+/.exec(lines[start]!)![0].length;
  const blocks: string[] = [];
  let open: string[] | undefined;
  for (const line of lines.slice(start + 1)) {
    if (open) {
      if (line.startsWith("```")) {
        blocks.push(open.join("\n"));
        open = undefined;
      } else open.push(line);
      continue;
    }
    const h = /^(#+) /.exec(line);
    if (h && h[1]!.length <= level) break;
    if (line.trim() === "```" + lang) open = [];
  }
  return blocks;
}

/** The `n`-th block of `lang` under `heading`, which must exist. */
export function fencedBlock(file: string, heading: string, lang: string, n = 0): string {
  const block = fencedBlocks(file, heading, lang)[n];
  if (block === undefined) throw new Error(`${file}, "${heading}": no ${lang} block number ${n + 1}`);
  return block;
}

/** A shell block's commands, one per line, without comments or a trailing `&`. */
export function commandsOf(block: string): string[] {
  return block
    .split("\n")
    .map((l) =>
      l
        .replace(/(^|\s+)#.*$/, "")
        .replace(/\s*&$/, "")
        .trim(),
    )
    .filter((l) => l !== "");
}

/** A command's words (the docs' commands use no quotes). */
export function wordsOf(command: string): string[] {
  if (/["'`$\\|;]/.test(command)) throw new Error(`a command the test cannot split: ${command}`);
  return command.split(/\s+/);
}

/** `export A=1 B=2` as `{ A: "1", B: "2" }`. */
export function exportsOf(command: string): Record<string, string> {
  const [word, ...pairs] = wordsOf(command);
  if (word !== "export") throw new Error(`not an export: ${command}`);
  return Object.fromEntries(pairs.map((p) => [p.slice(0, p.indexOf("=")), p.slice(p.indexOf("=") + 1)]));
}

/** The result of one command. */
export interface Ran {
  command: string;
  code: number;
  stdout: string;
  stderr: string;
}

/** Runs `file args` and resolves with its exit code and output, whatever the code. */
export function runCommand(
  file: string,
  args: string[],
  options: { cwd: string; env: NodeJS.ProcessEnv },
): Promise<Ran> {
  return new Promise((resolve) => {
    execFile(file, args, { ...options, maxBuffer: 64 << 20 }, (err, stdout, stderr) => {
      const code = err ? Number((err as { code?: unknown }).code ?? 1) : 0;
      resolve({ command: [path.basename(file), ...args].join(" "), code, stdout, stderr });
    });
  });
}

/**
 * Runs the `pulumi` commands of a docs block as a reader types them: each `<placeholder>` value of
 * `pulumi config set [--secret] KEY <...>` replaced by `values[KEY]` (a key the test has no value
 * for fails it), `pulumi up` answered yes as a terminal would, and `pulumi login --local` (state
 * in the user's `~/.pulumi`, which the CLI finds from the account, not `$HOME`) logged in to
 * `localState` instead. An `npm` line must be one of `built` (what the suite's build has done);
 * any other command fails the test, so a step the docs add is a step this test learns to run.
 */
export async function runPulumiSteps(
  block: string,
  options: {
    pulumi: string;
    cwd: string;
    env: NodeJS.ProcessEnv;
    values: Record<string, string>;
    built: readonly string[];
    /** The directory standing in for `~` of `pulumi login --local`. */
    localState: string;
  },
): Promise<{ ran: Ran[]; configured: string[] }> {
  const ran: Ran[] = [];
  const configured: string[] = [];
  for (const command of commandsOf(block)) {
    if (command.startsWith("npm ")) {
      if (!options.built.includes(command)) throw new Error(`an npm step the suite has not run: ${command}`);
      continue;
    }
    const config = /^pulumi config set (--secret )?(\S+) (<[^>]*>|\S+)$/.exec(command);
    let args: string[];
    if (config) {
      const [, secret, key, written] = config as unknown as [string, string | undefined, string, string];
      const value = written.startsWith("<") ? options.values[key] : written;
      if (value === undefined) throw new Error(`the docs set ${key}, which this test has no value for`);
      args = ["config", "set", ...(secret ? ["--secret"] : []), key, value];
      configured.push(key);
    } else {
      const [word, ...rest] = wordsOf(command);
      if (word !== "pulumi") throw new Error(`a step this test does not know how to run: ${command}`);
      if (rest.join(" ") === "login --local") args = ["login", `file://${options.localState}`];
      else args = rest[0] === "up" ? [...rest, "--yes"] : rest;
    }
    const result = await runCommand(options.pulumi, args, { cwd: options.cwd, env: options.env });
    ran.push(result);
    if (result.code !== 0) {
      throw new Error(`"${command}" failed (exit ${result.code}):\n${result.stdout}\n${result.stderr}`);
    }
  }
  return { ran, configured };
}

/** A docs TypeScript snippet with top-level await, compiled to an ES module `file` that Node.js runs. */
export function writeSnippetModule(file: string, source: string): void {
  const { outputText } = ts.transpileModule(source, {
    compilerOptions: { module: ts.ModuleKind.ESNext, target: ts.ScriptTarget.ES2022 },
  });
  fs.writeFileSync(file, outputText);
}
