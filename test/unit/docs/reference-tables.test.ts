import * as fs from "node:fs";
import * as path from "node:path";
import { describe, expect, it } from "vitest";
import { USAGE } from "../../../emulator/cli-args";
import { runpodPolicies } from "../../../policy/index";

/*
 * Reference tables held to the code they describe, so a policy, a setting or a flag added to the
 * code without its line in the docs fails here: the policy pack's table, its excerpt of the example
 * settings, and the emulator's flags.
 */

const ROOT = path.resolve(__dirname, "../../..");
const read = (file: string) => fs.readFileSync(path.join(ROOT, file), "utf8");

/** The text of a Markdown section, from its heading to the next heading of the same or a higher level. */
function section(markdown: string, heading: string): string {
  const lines = markdown.split("\n");
  let fenced = false;
  // The level of each line's heading (0: none), code blocks left out.
  const levels = lines.map((l) => {
    if (l.startsWith("```")) fenced = !fenced;
    return fenced ? 0 : (/^(#+) /.exec(l)?.[1]?.length ?? 0);
  });
  const start = lines.findIndex((l, i) => levels[i]! > 0 && l.replace(/^#+ /, "") === heading);
  expect(start, heading).toBeGreaterThanOrEqual(0);
  const end = levels.findIndex((level, i) => i > start && level > 0 && level <= levels[start]!);
  return lines.slice(start, end < 0 ? undefined : end).join("\n");
}

/** Where `excerpt` is not a part of `whole`: objects may leave keys out, anything else is equal. */
function notAPart(excerpt: unknown, whole: unknown, at = "$"): string[] {
  if (excerpt !== null && typeof excerpt === "object" && !Array.isArray(excerpt)) {
    if (whole === null || typeof whole !== "object" || Array.isArray(whole))
      return [`${at}: not an object in the file`];
    return Object.entries(excerpt).flatMap(([k, v]) =>
      k in whole ? notAPart(v, (whole as Record<string, unknown>)[k], `${at}.${k}`) : [`${at}.${k}: not in the file`],
    );
  }
  return JSON.stringify(excerpt) === JSON.stringify(whole) ? [] : [`${at}: ${JSON.stringify(whole)} in the file`];
}

describe("docs/policy-pack.md", () => {
  const page = read("docs/policy-pack.md");

  it("has a row for every policy of the pack, at its default level", () => {
    const rows = new Map(
      [...section(page, "Policies").matchAll(/^\| `(runpod-[a-z-]+)` *\| *([a-z]+) *\|/gm)].map((m) => [m[1]!, m[2]!]),
    );
    expect([...rows.keys()].sort()).toEqual(runpodPolicies.map((p) => p.name).sort());
    for (const policy of runpodPolicies) expect(rows.get(policy.name), policy.name).toBe(policy.enforcementLevel);
  });

  it("shows an excerpt of policy/examples/policy-config.json that the file holds as written", () => {
    const block = /```json\n([\s\S]*?)\n```/.exec(section(page, "Configuring it"))?.[1];
    expect(block).toBeDefined();
    const file: unknown = JSON.parse(read("policy/examples/policy-config.json"));
    expect(notAPart(JSON.parse(block!), file)).toEqual([]);
  });
});

describe("docs/emulator.md", () => {
  it("lists every flag of `runpod-iac emulator` in its flag table", () => {
    const table = section(read("docs/emulator.md"), "Running it");
    const documented = new Set([...table.matchAll(/`(--[a-z0-9-]+)/g)].map((m) => m[1]!));
    const flags = [...USAGE.matchAll(/^ {2}(--[a-z0-9-]+)/gm)].map((m) => m[1]!).filter((f) => f !== "--help");
    expect(flags.length).toBeGreaterThan(20);
    expect(flags.filter((f) => !documented.has(f))).toEqual([]);
  });
});
