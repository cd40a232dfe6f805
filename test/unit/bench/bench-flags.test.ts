import { describe, expect, it } from "vitest";
import { BENCH_USAGE, BENCHMARKS, parseBenchFlags } from "../../../bench/bench-flags";

const RESULTS = "/repo/bench/RESULTS.md";

describe("parseBenchFlags", () => {
  it("runs every benchmark, scale included, and writes RESULTS.md when given nothing", () => {
    const flags = parseBenchFlags([], RESULTS);
    expect(flags.only).toEqual(["client", "emulator", "pulumi", "state", "scale"]);
    expect(flags.resultsFile).toBe(RESULTS);
  });

  it("selects the scale benchmark alone with --only scale, and writes nothing by default", () => {
    const flags = parseBenchFlags(["--only", "scale"], RESULTS);
    expect(flags.only).toEqual(["scale"]);
    expect(flags.resultsFile).toBeUndefined();
  });

  it("keeps the run order whatever order --only lists", () => {
    expect(parseBenchFlags(["--only", "scale, client"], RESULTS).only).toEqual(["client", "scale"]);
  });

  it("writes a quick scale run where --out says", () => {
    const flags = parseBenchFlags(["--quick", "--only", "scale", "--out", "/tmp/r.md"], RESULTS);
    expect(flags).toMatchObject({ quick: true, only: ["scale"], resultsFile: "/tmp/r.md" });
  });

  it("does not write a quick run of everything unless asked", () => {
    expect(parseBenchFlags(["--quick"], RESULTS).resultsFile).toBeUndefined();
  });

  it("refuses an unknown benchmark and names the choices", () => {
    expect(() => parseBenchFlags(["--only", "scales"], RESULTS)).toThrow(
      /unknown benchmark "scales"; choose from client, emulator, pulumi, state, scale/,
    );
  });

  it("documents every benchmark in the usage", () => {
    for (const name of BENCHMARKS) expect(BENCH_USAGE).toContain(name);
    expect(BENCH_USAGE).toMatch(/scale: up, unchanged preview and destroy/);
  });
});
