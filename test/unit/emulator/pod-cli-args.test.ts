import { describe, expect, it } from "vitest";
import { parseCliArgs } from "../../../emulator/cli-args";

describe("the emulator's stock and preemption flags", () => {
  it("reads --gpu-stock and --cpu-stock as a stock everywhere or of one resource in one data center", () => {
    const { options } = parseCliArgs([
      "--gpu-stock",
      "4",
      "--gpu-stock",
      "EU-RO-1:NVIDIA L4=2",
      "--gpu-stock",
      "US-TX-3:NVIDIA H100 80GB HBM3=0",
      "--cpu-stock",
      "EU-RO-1:cpu3c=64",
    ]);
    expect(options.capacity).toEqual({
      gpusPerType: 4,
      stock: { "EU-RO-1": { "NVIDIA L4": 2, cpu3c: 64 }, "US-TX-3": { "NVIDIA H100 80GB HBM3": 0 } },
    });
    expect(parseCliArgs(["--cpu-stock", "128"]).options.capacity).toEqual({ vcpusPerFlavor: 128 });
    expect(parseCliArgs([]).options.capacity).toBeUndefined();
  });

  it("refuses a stock entry that is neither, naming the flag, the value and the form", () => {
    expect(() => parseCliArgs(["--gpu-stock", "EU-RO-1=2"])).toThrow(
      '--gpu-stock "EU-RO-1=2": must be a whole number or DATA_CENTER:GPU_TYPE=N, e.g. "EU-RO-1:NVIDIA L4=2"',
    );
    expect(() => parseCliArgs(["--cpu-stock", "lots"])).toThrow(
      /--cpu-stock "lots": must be a whole number or DATA_CENTER:CPU_FLAVOR=N/,
    );
  });

  it("reads --large-machine-share as a share between 0 and 1, beside the stock", () => {
    expect(parseCliArgs(["--large-machine-share", "0.5"]).options.capacity).toEqual({ largeMachineShare: 0.5 });
    expect(parseCliArgs(["--gpu-stock", "8", "--large-machine-share", "0"]).options.capacity).toEqual({
      gpusPerType: 8,
      largeMachineShare: 0,
    });
    expect(() => parseCliArgs(["--large-machine-share", "1.5"])).toThrow(
      "--large-machine-share 1.5: must be between 0 and 1",
    );
  });

  it("reads --preemption-rate as a chance between 0 and 1", () => {
    expect(parseCliArgs(["--preemption-rate", "0.25"]).options.preemptionRate).toBe(0.25);
    expect(() => parseCliArgs(["--preemption-rate", "2"])).toThrow("--preemption-rate 2: must be between 0 and 1");
  });
});
