import { describe, expect, it } from "vitest";
import type { BenchSection } from "../../../bench/report";
import { mergeResultsMarkdown, type RunContext } from "../../../bench/results-markdown";

const EXISTING = `# Benchmark results

- Date: 2026-11-23T20:40:57.680Z

## Targets

| benchmark | target | measured | verdict |
| --- | --- | ---: | ---: |
| job client | ours >= 0.95x raw undici (status) | 1.19x | met |
| batch | old batch row | 0.5 | MISSED |
| state | \`__provider\` <= 1,000 B per resource | 64 B | met |

## 1. Job client throughput

- client method

## 6. Batches at the platform's limits

- old batch method

## 7. Later section

- kept
`;

const CONTEXT: RunContext = {
  date: new Date("2026-11-26T13:00:00Z"),
  command: "npm run bench -- --only batch",
  quick: false,
  wallMs: 900_000,
  pulumiVersion: undefined,
  commit: "abc1234",
  loadAverages: [0.5, 0.7],
};

const SECTION: BenchSection = {
  title: "6. Batches at the platform's limits",
  method: ["new batch method"],
  tables: [{ title: "Runs", columns: ["client", "rate"], rows: [["ours", "0.98"]] }],
  targets: [
    { benchmark: "batch", target: "rate >= 0.95", measured: "0.98", met: true },
    { benchmark: "batch", target: "0 duplicates", measured: "1", met: false, whyMissed: "a bug" },
  ],
  notes: [],
};

describe("mergeResultsMarkdown", () => {
  const merged = mergeResultsMarkdown(EXISTING, CONTEXT, [SECTION]);

  it("replaces the section's own target rows and keeps the others, in place", () => {
    const rows = merged
      .split("\n")
      .filter((l) => l.startsWith("| ") && !l.startsWith("| benchmark") && !l.startsWith("| ---"));
    expect(rows).toEqual([
      "| job client | ours >= 0.95x raw undici (status) | 1.19x | met |",
      "| state | `__provider` <= 1,000 B per resource | 64 B | met |",
      "| batch | rate >= 0.95 | 0.98 | met |",
      "| batch | 0 duplicates | 1 | MISSED |",
      "| client | rate |",
      "| ours | 0.98 |",
    ]);
  });

  it("replaces the section's body, says when it was measured, and keeps the sections around it", () => {
    expect(merged).not.toContain("old batch method");
    expect(merged).toContain("- new batch method");
    expect(merged).toContain(
      "Measured alone, not in the run the head of this report describes: Date: 2026-11-26T13:00:00.000Z",
    );
    expect(merged).toContain("Command: `npm run bench -- --only batch`");
    // The commit the run started from, not whatever HEAD is when it ends.
    expect(merged).toContain("; Commit: abc1234;");
    expect(merged).toContain("- client method");
    expect(merged.indexOf("## 6. Batches")).toBeLessThan(merged.indexOf("## 7. Later section"));
    expect(merged).toContain("- kept");
    expect(merged).toContain("- Missed: 0 duplicates (measured 1): a bug");
  });

  it("appends a section the report does not have yet", () => {
    const appended = mergeResultsMarkdown(EXISTING, CONTEXT, [{ ...SECTION, title: "8. New" }]);
    expect(appended.trimEnd().split("\n").slice(-1)[0]).toBe("- Missed: 0 duplicates (measured 1): a bug");
    expect(appended).toContain("## 6. Batches at the platform's limits\n\n- old batch method");
  });
});
