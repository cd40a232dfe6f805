import { describe, expect, it } from "vitest";
import { CliUsageError, parseCliArgs } from "../../../emulator/cli-args";

describe("the emulator's management quota flags", () => {
  it("leave the default policy alone when absent", () => {
    expect(parseCliArgs([]).options.managementQuota).toBeUndefined();
  });

  it("read --management-quota as named windows and windows of any length", () => {
    expect(parseCliArgs(["--management-quota", "minute=60, hour=3000,day=50000"]).options.managementQuota).toEqual([
      { name: "minute", quota: 60, seconds: 60 },
      { name: "hour", quota: 3000, seconds: 3600 },
      { name: "day", quota: 50000, seconds: 86400 },
    ]);
    expect(parseCliArgs(["--management-quota", "second=50,burst=200/10"]).options.managementQuota).toEqual([
      { name: "second", quota: 50, seconds: 1 },
      { name: "burst", quota: 200, seconds: 10 },
    ]);
  });

  it("turn the quota off with --no-management-quota", () => {
    expect(parseCliArgs(["--no-management-quota"]).options.managementQuota).toBe(false);
  });

  it("refuse a bad spec naming the flag, the entry and the rule", () => {
    expect(() => parseCliArgs(["--management-quota", "minute=lots"])).toThrow(CliUsageError);
    expect(() => parseCliArgs(["--management-quota", "minute=lots"])).toThrow(
      /^--management-quota "minute=lots": must be NAME=QUOTA with NAME one of second, minute, hour, day/,
    );
    expect(() => parseCliArgs(["--management-quota", "burst=5/0"])).toThrow(
      "--management-quota managementQuota[0].seconds = 0: must be a whole number of seconds >= 1",
    );
    expect(() => parseCliArgs(["--management-quota", "toString=5"])).toThrow(/"toString=5": must be NAME=QUOTA/);
    expect(() => parseCliArgs(["--management-quota", "minute=5", "--no-management-quota"])).toThrow(
      "--management-quota and --no-management-quota: give one or the other",
    );
  });
});
