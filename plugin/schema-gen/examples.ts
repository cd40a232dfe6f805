import * as fs from "node:fs";
import * as path from "node:path";
import { parse } from "yaml";

/*
 * The schema's examples, read from programs the tests run (test/e2e/languages/standalone-plugin.test.ts
 * deploys all four through the plugin), so an example cannot rot. In each program a region
 *
 *     // example: <Type or function>      (# in Python and YAML)
 *     ...
 *     // end example
 *
 * is one example; its first comment lines are its title, the rest its code. A region marked
 * `example-header` holds the imports, of which each example gets those it uses. Adding a resource's
 * examples is adding its region to each of the four programs; the generator names what is missing.
 */

/** The languages of the examples, in the order the registry shows them. */
export const EXAMPLE_LANGUAGES = ["typescript", "python", "go", "yaml"] as const;
/** One language of the examples. */
export type ExampleLanguage = (typeof EXAMPLE_LANGUAGES)[number];

/** Where each language's examples are, from the repository's root. */
export const EXAMPLE_PROGRAMS: Readonly<Record<ExampleLanguage, string>> = {
  typescript: "test/e2e/languages/examples/typescript/index.ts",
  python: "test/e2e/languages/examples/python/examples.py",
  go: "test/e2e/languages/go/examples.go",
  yaml: "test/e2e/languages/examples/yaml/Pulumi.yaml",
};

/** One example: its title, and the whole program in each language. */
export interface Example {
  title: string;
  code: Record<ExampleLanguage, string>;
}

interface Region {
  title: string;
  lines: string[];
  /** The line index where it starts, for YAML's section. */
  start: number;
}

/** `lines` with their common indentation taken off. */
function dedent(lines: readonly string[]): string[] {
  const indents = lines.filter((l) => l.trim() !== "").map((l) => /^\s*/.exec(l)![0].length);
  const cut = Math.min(...indents);
  return lines.map((l) => l.slice(cut));
}

/** The marked regions of a program: the examples by name, and the header's lines. */
function regionsOf(text: string, file: string): { header: string[]; examples: Map<string, Region> } {
  const lines = text.split("\n");
  const examples = new Map<string, Region>();
  let header: string[] = [];
  let open: { name: string; start: number } | undefined;
  lines.forEach((line, i) => {
    const mark = /^\s*(?:\/\/|#) (example-header|example: (\w+)|end example-header|end example)\s*$/.exec(line);
    if (!mark) return;
    if (mark[1] === "end example" || mark[1] === "end example-header") {
      if (!open) throw new Error(`${file}:${i + 1}: "${mark[1]}" closes no region`);
      const body = dedent(lines.slice(open.start + 1, i));
      if (open.name === "") header = body;
      else {
        const title = body.filter((_, j) => body.slice(0, j + 1).every((l) => /^(\/\/|#)/.test(l)));
        examples.set(open.name, {
          title: title.map((l) => l.replace(/^(\/\/|#)\s?/, "")).join(" "),
          lines: body.slice(title.length),
          start: open.start,
        });
      }
      open = undefined;
    } else {
      if (open) throw new Error(`${file}:${i + 1}: a region opens inside another`);
      open = { name: mark[2] ?? "", start: i };
    }
  });
  if (open) throw new Error(`${file}: the region ${open.name || "example-header"} is not closed`);
  return { header, examples };
}

/** The name a header line binds: an import's alias or package, or a variable (`config`). */
function boundName(line: string): string | undefined {
  return (
    /import \* as (\w+)/.exec(line)?.[1] ??
    /^import [\w.]+ as (\w+)/.exec(line)?.[1] ??
    /^import (\w+)$/.exec(line)?.[1] ??
    /^\s*"[^"]*\/(\w+)"$/.exec(line)?.[1] ??
    /^(?:const )?(\w+) = /.exec(line)?.[1]
  );
}

/**
 * The header's lines whose name the code uses, or a used line uses (the `pulumi` import that the
 * `config` line needs); lines that bind nothing (brackets, blank lines) stay, blank ones once.
 */
function usedHeader(header: readonly string[], code: string): string[] {
  const uses = (text: string, name: string) => new RegExp(`\\b${name}\\.`).test(text);
  const kept = new Set<number>();
  let text = code;
  for (let changed = true; changed;) {
    changed = false;
    header.forEach((line, i) => {
      const name = boundName(line);
      if (kept.has(i) || name === undefined || !uses(text, name)) return;
      kept.add(i);
      text += `\n${line}`;
      changed = true;
    });
  }
  const lines = header.filter((line, i) => kept.has(i) || boundName(line) === undefined);
  return lines.filter(
    (line, i) => line.trim() !== "" || (i > 0 && lines[i - 1]!.trim() !== "" && i < lines.length - 1),
  );
}

/** A Go example: its code inside a program's main, with the imports it uses. */
function goProgram(header: readonly string[], body: readonly string[]): string {
  const code = body.map((l) => (l ? `\t\t${l}` : "")).join("\n");
  const imports = usedHeader(header, code).filter((l) => l.trim() !== "");
  return `package main\n\n${imports.join("\n")}\n\nfunc main() {\n\tpulumi.Run(func(ctx *pulumi.Context) error {\n${code}\n\t\treturn nil\n\t})\n}\n`;
}

/** A YAML example: its region under the top-level key it stands in, with the config it uses. */
function yamlProgram(text: string, region: Region): string {
  const lines = text.split("\n");
  const section = lines
    .slice(0, region.start)
    .reverse()
    .find((l) => /^\w+:\s*$/.test(l));
  const declared = (parse(text) as { config?: Record<string, unknown> }).config ?? {};
  const body = region.lines.map((l) => (l ? `  ${l}` : "")).join("\n");
  const used = Object.keys(declared).filter((key) => body.includes(`\${${key}}`));
  const config = used.length
    ? `config:\n${used.map((key) => `  ${key}:\n    type: string\n    secret: true`).join("\n")}\n`
    : "";
  return `name: example\nruntime: yaml\n${config}${section ?? "resources:"}\n${body}\n`;
}

/**
 * Every example of the four programs under `root`, by resource type or function name; an error
 * naming the program and the name when one language lacks an example another has, or `names`
 * asks for one no program has.
 */
export function readExamples(root: string, names: readonly string[]): Map<string, Example> {
  const texts = Object.fromEntries(
    EXAMPLE_LANGUAGES.map((lang) => [lang, fs.readFileSync(path.join(root, EXAMPLE_PROGRAMS[lang]), "utf8")]),
  ) as Record<ExampleLanguage, string>;
  const parsed = Object.fromEntries(
    EXAMPLE_LANGUAGES.map((lang) => [lang, regionsOf(texts[lang], EXAMPLE_PROGRAMS[lang])]),
  ) as Record<ExampleLanguage, ReturnType<typeof regionsOf>>;
  const problems: string[] = [];
  const all = new Set([...names, ...EXAMPLE_LANGUAGES.flatMap((lang) => [...parsed[lang].examples.keys()])]);
  const out = new Map<string, Example>();
  for (const name of [...all].sort()) {
    const missing = EXAMPLE_LANGUAGES.filter((lang) => !parsed[lang].examples.has(name));
    if (!names.includes(name))
      problems.push(`${name} has an example, but the schema has no resource or function of that name`);
    for (const lang of missing) problems.push(`${EXAMPLE_PROGRAMS[lang]} has no region "example: ${name}"`);
    if (missing.length > 0 || !names.includes(name)) continue;
    const region = (lang: ExampleLanguage) => parsed[lang].examples.get(name)!;
    const plain = (lang: ExampleLanguage) => {
      const code = region(lang).lines.join("\n");
      const head = usedHeader(parsed[lang].header, code).join("\n").trim();
      return head ? `${head}\n\n${code}\n` : `${code}\n`;
    };
    out.set(name, {
      title: region("typescript").title,
      code: {
        typescript: plain("typescript"),
        python: plain("python"),
        go: goProgram(parsed.go.header, region("go").lines),
        yaml: yamlProgram(texts.yaml, region("yaml")),
      },
    });
  }
  if (problems.length > 0) throw new Error(`the schema's examples are incomplete:\n  ${problems.join("\n  ")}`);
  return out;
}

/** An example in the Pulumi Registry's format: `{{% examples %}}`, one `{{% example %}}`, a fenced block per language. */
export function examplesSection(example: Example): string {
  const blocks = EXAMPLE_LANGUAGES.map((lang) => `\`\`\`${lang}\n${example.code[lang]}\`\`\``).join("\n");
  return `{{% examples %}}\n## Example Usage\n\n{{% example %}}\n### ${example.title}\n\n${blocks}\n{{% /example %}}\n{{% /examples %}}`;
}
