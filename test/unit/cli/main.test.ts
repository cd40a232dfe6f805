import { describe, expect, it, vi } from "vitest";
import { main } from "../../../cli/main";

/** The package's bin dispatches to its commands; `runpod-iac emulator ...` works as before. */
async function run(argv: string[]): Promise<{ code: number; out: string; err: string }> {
  let out = "";
  let err = "";
  const o = vi.spyOn(process.stdout, "write").mockImplementation((c) => ((out += String(c)), true));
  const e = vi.spyOn(process.stderr, "write").mockImplementation((c) => ((err += String(c)), true));
  try {
    return { code: await main(argv), out, err };
  } finally {
    o.mockRestore();
    e.mockRestore();
  }
}

describe("the runpod-iac bin", () => {
  it("lists its commands on --help and refuses an unknown one with exit 2", async () => {
    const help = await run(["--help"]);
    expect(help.code).toBe(0);
    expect(help.out).toMatch(/emulator .*\n[\s\S]*recover /);
    const unknown = await run(["deploy"]);
    expect([unknown.code, unknown.err.split("\n")[0]]).toEqual([2, "unknown command: deploy"]);
  });

  it("hands emulator and recover their own arguments", async () => {
    const emulator = await run(["emulator", "--help"]);
    expect([emulator.code, emulator.out]).toEqual([0, expect.stringContaining("Usage: runpod-iac emulator")]);
    const recover = await run(["recover", "--help"]);
    expect([recover.code, recover.out]).toEqual([0, expect.stringContaining("Usage: runpod-iac recover")]);
  });

  it("documents `plugin install` (what it installs, where, that it needs Node.js) and refuses other subcommands", async () => {
    const help = await run(["plugin", "--help"]);
    expect(help.code).toBe(0);
    expect(help.out).toMatch(/^Usage: runpod-iac plugin install\n/);
    expect(help.out).toContain("$PULUMI_HOME/plugins");
    expect(help.out).toContain("Node.js");
    expect((await run(["--help"])).out).toContain("plugin     install the provider plugin runpod-iac");
    const wrong = await run(["plugin", "uninstall"]);
    expect([wrong.code, wrong.err.split("\n")[0]]).toEqual([2, "unknown arguments: plugin uninstall"]);
  });
});
