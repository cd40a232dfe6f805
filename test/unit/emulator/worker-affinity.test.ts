import { describe, expect, it } from "vitest";
import { parseAffinity, ScaledDownWorkers } from "../../../emulator/jobs/worker-affinity";

describe("the X-Runpod-Worker-Id request header", () => {
  it("reads the three modes; empty or absent is normal routing", () => {
    expect(parseAffinity(undefined)).toEqual({ mode: "none" });
    expect(parseAffinity("  ")).toEqual({ mode: "none" });
    expect(parseAffinity("abc123")).toEqual({ mode: "soft", workerId: "abc123" });
    expect(parseAffinity("strict abc123")).toEqual({ mode: "strict", workerId: "abc123" });
    expect(parseAffinity("strict-resume  abc123 ")).toEqual({ mode: "strict-resume", workerId: "abc123" });
    expect(parseAffinity(["strict w1", "w2"])).toEqual({ mode: "strict", workerId: "w1" });
    // Not a strict form: a soft preference for a worker that does not exist, routed normally.
    expect(parseAffinity("strict")).toEqual({ mode: "soft", workerId: "strict" });
  });

  it("resumes a scaled-down worker only on the version it ran, and remembers the last 1,000", () => {
    const down = new ScaledDownWorkers();
    down.add("w1", 3);
    expect(down.resumable("w1", 3)).toBe(true);
    expect(down.resumable("w1", 4)).toBe(false);
    expect(down.resumable("w2", 3)).toBe(false);
    down.delete("w1");
    expect(down.resumable("w1", 3)).toBe(false);
    for (let i = 0; i <= 1000; i++) down.add(`x${i}`, 0);
    expect(down.resumable("x0", 0)).toBe(false);
    expect(down.resumable("x1000", 0)).toBe(true);
  });
});
