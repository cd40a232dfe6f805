import * as fs from "node:fs";
import * as path from "node:path";
import { describe, expect, it } from "vitest";

/*
 * Every reference resolves inside the repository: a relative link of the docs names a file or
 * folder that exists, and a `#fragment` of a Markdown file names one of its headings (as GitHub
 * derives their anchors); and no file cites what only its authors could read (a design note or a
 * spec kept outside the repository, an issue number), since the reason itself, or a page of
 * docs/ (design.md, platform.md), is what the next reader needs. Links to other sites are not
 * fetched.
 */

const ROOT = path.resolve(__dirname, "../../..");

/** The Markdown files users read: the README, the changelog, the contributors' guide, docs/ and each example's README. */
function markdownFiles(): string[] {
  const docs = fs.readdirSync(path.join(ROOT, "docs")).filter((f) => f.endsWith(".md"));
  const examples = fs
    .readdirSync(path.join(ROOT, "examples"))
    .map((dir) => path.join("examples", dir, "README.md"))
    .filter((f) => fs.existsSync(path.join(ROOT, f)));
  return ["README.md", "CHANGELOG.md", "CONTRIBUTING.md", ...docs.map((f) => path.join("docs", f)), ...examples];
}

/** The text outside fenced code blocks and inline code, where a link is a link. */
function prose(text: string): string {
  return text.replace(/^(```|~~~)[^\n]*\n[\s\S]*?^\1[^\n]*$/gm, "").replace(/`[^`\n]*`/g, "");
}

/** GitHub's anchor of a heading: lower case, punctuation dropped, spaces to hyphens. */
function anchorOf(heading: string): string {
  return heading
    .replace(/`/g, "")
    .replace(/\[([^\]]*)\]\([^)]*\)/g, "$1")
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s_-]/gu, "")
    .replace(/\s/g, "-");
}

/** Every anchor of a Markdown file's headings, a repeated one suffixed `-1`, `-2` as GitHub does. */
function anchorsOf(file: string): Set<string> {
  const seen = new Map<string, number>();
  const anchors = new Set<string>();
  const text = fs.readFileSync(file, "utf8").replace(/^(```|~~~)[^\n]*\n[\s\S]*?^\1[^\n]*$/gm, "");
  for (const [, heading] of text.matchAll(/^#{1,6} +(.+?) *#*$/gm)) {
    const base = anchorOf(heading!);
    const n = seen.get(base) ?? 0;
    seen.set(base, n + 1);
    anchors.add(n === 0 ? base : `${base}-${n}`);
  }
  return anchors;
}

/** Each relative link of `file` that leads nowhere, as `target: why`. */
function brokenLinks(file: string): string[] {
  const broken: string[] = [];
  const text = prose(fs.readFileSync(path.join(ROOT, file), "utf8"));
  for (const [, target] of text.matchAll(/\]\(([^)\s]+)(?:\s+"[^"]*")?\)/g)) {
    if (/^[a-z][a-z0-9+.-]*:/i.test(target!)) continue;
    const [linkPath, fragment] = target!.split("#", 2) as [string, string | undefined];
    const resolved =
      linkPath === "" ? path.join(ROOT, file) : path.resolve(path.dirname(path.join(ROOT, file)), linkPath);
    if (!resolved.startsWith(ROOT + path.sep) && resolved !== ROOT) broken.push(`${target}: outside the repository`);
    else if (!fs.existsSync(resolved)) broken.push(`${target}: no such file`);
    else if (fragment !== undefined && resolved.endsWith(".md") && !anchorsOf(resolved).has(fragment))
      broken.push(`${target}: no heading with this anchor`);
  }
  return broken;
}

describe("links in the docs", () => {
  it.each(markdownFiles())("%s: every relative link leads to a file, and its #fragment to a heading", (file) => {
    expect(brokenLinks(file)).toEqual([]);
  });

  it("resolve a heading's anchor as GitHub does", () => {
    expect(anchorOf("Choices where the platform is silent")).toBe("choices-where-the-platform-is-silent");
    expect(anchorOf("`/requests`")).toBe("requests");
    expect(anchorOf("5. Scale: `up`, unchanged preview and `destroy` from 10 to many resources")).toBe(
      "5-scale-up-unchanged-preview-and-destroy-from-10-to-many-resources",
    );
    expect(anchorOf("6. Batches at the platform's limits")).toBe("6-batches-at-the-platforms-limits");
  });
});

/** Folders and files whose text is the project's own (generated SDKs and vendored fixtures aside). */
const OWN_TEXT = [
  ".ci",
  "bench",
  "cli",
  "docs",
  "emulator",
  "examples",
  "plugin",
  "policy",
  "provider",
  "scripts",
  "sdk",
  "test",
  "tools",
];
const SKIP = new Set(["node_modules", "dist", "sdks", "fixtures"]);

function ownFiles(dir: string): string[] {
  const out: string[] = [];
  for (const entry of fs.readdirSync(path.join(ROOT, dir), { withFileTypes: true })) {
    const rel = path.join(dir, entry.name);
    if (entry.isDirectory()) {
      if (!SKIP.has(entry.name)) out.push(...ownFiles(rel));
    } else if (/\.(ts|mts|js|mjs|cjs|go|sh|md|ya?ml|json|py)$/.test(entry.name) || dir === ".ci") out.push(rel);
  }
  return out;
}

/** What points outside the repository: written with a character class so this file is not its own hit. */
const OUTSIDE_REFERENCES = [
  /DESIGN\.m[d]/,
  /\.\.\/share[d]/,
  /\b[Ii]ssues? [0-9]+(?: and [0-9]+)?\b/,
  /\b[Ii]ssue ["]/,
  /\bthe spe[c]\b|\bspe[c]'s\b/,
];

/** The repository's top-level folders: a backticked path that starts with one names a file or folder of the repository. */
const TOP_LEVEL = /^`((?:sdk|provider|plugin|policy|emulator|cli|test|scripts|bench|docs|examples|tools)\/[\w./-]*)`$/;

describe("the paths docs/design.md and docs/platform.md name", () => {
  it.each(["docs/design.md", "docs/platform.md"])("%s: every repository path it names exists", (file) => {
    const text = fs.readFileSync(path.join(ROOT, file), "utf8");
    const named = [...text.matchAll(/`[^`\n]+`/g)].flatMap(([code]) => TOP_LEVEL.exec(code)?.[1] ?? []);
    expect(named.length).toBeGreaterThan(0);
    expect(named.filter((p) => !fs.existsSync(path.join(ROOT, p)))).toEqual([]);
  });
});

describe("references outside the repository", () => {
  it("no source, test, script or doc cites a design note, a spec file or an issue number", () => {
    const files = ["README.md", "CHANGELOG.md", "index.ts", ...OWN_TEXT.flatMap(ownFiles)];
    const hits = files.flatMap((file) =>
      fs
        .readFileSync(path.join(ROOT, file), "utf8")
        .split("\n")
        .flatMap((line, i) =>
          OUTSIDE_REFERENCES.some((re) => re.test(line)) ? [`${file}:${i + 1}: ${line.trim()}`] : [],
        ),
    );
    expect(hits).toEqual([]);
  });
});
