import { describe, expect, it } from "vitest";
import { BENCH_USAGE, BENCHMARKS, parseBenchFlags } from "../../../bench/bench-flags";

const RESULTS = "/repo/bench/RESULTS.md";

describe("parseBenchFlags", () => {
  it("runs every benchmark, scale included, and writes RESULTS.md when given nothing", () => {
    const flags = parseBenchFlags([], RESULTS);
    expect(flags.only).toEqual([
      "client",
      "emulator",
      "pulumi",
      "state",
      "scale",
      "batch",
      "batch-api",
      "management",
      "openai",
      "plugin",
      "volumes",
      "paging",
      "rollout",
    ]);
    expect(flags.resultsFile).toBe(RESULTS);
    expect(flags.merge).toBe(false);
  });

  it("replaces only the batch section of RESULTS.md after a full --only batch run, and writes nothing after a quick one", () => {
    expect(parseBenchFlags(["--only", "batch"], RESULTS)).toMatchObject({ resultsFile: RESULTS, merge: true });
    expect(parseBenchFlags(["--only", "batch", "--quick"], RESULTS)).toMatchObject({
      resultsFile: undefined,
      merge: false,
    });
    expect(parseBenchFlags(["--only", "batch", "--out", "/tmp/b.md"], RESULTS)).toMatchObject({
      resultsFile: "/tmp/b.md",
      merge: false,
    });
    expect(parseBenchFlags(["--only", "batch", "--no-write"], RESULTS).resultsFile).toBeUndefined();
    expect(parseBenchFlags(["--only", "batch,scale"], RESULTS).resultsFile).toBeUndefined();
  });

  it("replaces the volume files section after a full --only volumes run", () => {
    expect(parseBenchFlags(["--only", "volumes"], RESULTS)).toMatchObject({ resultsFile: RESULTS, merge: true });
  });

  it("replaces its own section after a full run of batch-api, management, openai, plugin or paging alone, not of pulumi or scale", () => {
    for (const name of ["batch-api", "management", "openai", "plugin", "paging"]) {
      expect(parseBenchFlags(["--only", name], RESULTS)).toMatchObject({ resultsFile: RESULTS, merge: true });
    }
    for (const name of ["pulumi", "scale", "client"]) {
      expect(parseBenchFlags(["--only", name], RESULTS)).toMatchObject({ resultsFile: undefined, merge: false });
    }
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
      /unknown benchmark "scales"; choose from client, emulator, pulumi, state, scale, batch/,
    );
  });

  it("documents every benchmark in the usage", () => {
    for (const name of BENCHMARKS) expect(BENCH_USAGE).toContain(name);
    expect(BENCH_USAGE).toMatch(/scale: up, unchanged preview and destroy/);
  });

  it("narrows the pulumi benchmark to given sizes and rounds, and then writes nothing by default", () => {
    const flags = parseBenchFlags(["--only", "pulumi", "--pulumi-sizes", "100, 10", "--pulumi-rounds", "24"], RESULTS);
    expect(flags).toMatchObject({ only: ["pulumi"], pulumiSizes: [100, 10], pulumiRounds: 24, resultsFile: undefined });
    // Every benchmark, but not at its usual sizes: not a full run, so RESULTS.md is left alone.
    expect(parseBenchFlags(["--pulumi-rounds", "12"], RESULTS).resultsFile).toBeUndefined();
    expect(parseBenchFlags([], RESULTS)).toMatchObject({ pulumiSizes: undefined, pulumiRounds: undefined });
  });

  it("refuses sizes and rounds that are not whole numbers above 0, naming the flag, the value and the rule", () => {
    expect(() => parseBenchFlags(["--pulumi-sizes", "10,15"], RESULTS)).toThrow(
      '--pulumi-sizes: "15" is not an even whole number above 0 (half volumes, half endpoints)',
    );
    expect(() => parseBenchFlags(["--pulumi-sizes", "0"], RESULTS)).toThrow(/--pulumi-sizes: "0"/);
    expect(() => parseBenchFlags(["--pulumi-rounds", "2.5"], RESULTS)).toThrow(
      '--pulumi-rounds: "2.5" is not a whole number above 0',
    );
    expect(() => parseBenchFlags(["--pulumi-rounds=-3"], RESULTS)).toThrow(/--pulumi-rounds: "-3"/);
  });

  it("documents the pulumi benchmark's size and round flags in the usage", () => {
    expect(BENCH_USAGE).toContain("--pulumi-sizes LIST");
    expect(BENCH_USAGE).toContain("--pulumi-rounds N");
  });
});
