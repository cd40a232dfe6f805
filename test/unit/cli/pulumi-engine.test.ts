import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { PulumiEngine } from "../../../cli/recover/pulumi-engine";

/**
 * What `recover` passes on from the engine is masked line by line, even when a credential reaches
 * it split across writes (the engine prints a postgres:// URL with its password when it cannot
 * reach the database). A stand-in `pulumi` script prints such a line in pieces.
 */
let dir: string;
beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "engine-test-"));
});
afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

function fakePulumi(script: string): string {
  const file = path.join(dir, "pulumi");
  fs.writeFileSync(file, `#!/bin/sh\n${script}\n`, { mode: 0o755 });
  return file;
}

describe("the engine's output as recover passes it on", () => {
  it("masks a password split across writes, in what it streams and in what it returns", async () => {
    const pulumi = fakePulumi(
      "printf 'error: unable to open \"postgres://u:hun' >&2; sleep 0.2; printf 'ter2-pw@db/state\"\\n' >&2; echo \"args: $*\"",
    );
    const engine = new PulumiEngine(pulumi, "postgres://u:hunter2-pw@db/state", ["hunter2-pw"]);
    let streamed = "";
    const err = vi.spyOn(process.stderr, "write").mockImplementation((c) => ((streamed += String(c)), true));
    const out = vi.spyOn(process.stdout, "write").mockImplementation((c) => ((streamed += String(c)), true));
    try {
      expect(await engine.stream(["refresh", "--yes"], dir)).toBe(0);
    } finally {
      err.mockRestore();
      out.mockRestore();
      engine.close();
    }
    expect(streamed).toContain('error: unable to open "postgres://u:****@db/state"');
    expect(streamed).toContain("args: refresh --yes --non-interactive");
    expect(streamed).not.toContain("hunter2");
  });

  it("reports a binary that cannot be started with exit code 127, and the backend URL in the environment", async () => {
    const missing = new PulumiEngine(path.join(dir, "no-such-pulumi"), "s3://b", []);
    const r = await missing.capture(["stack", "ls"]);
    missing.close();
    expect(r.code).toBe(127);
    expect(r.stderr).toContain("could not run");
    const env = new PulumiEngine(fakePulumi('echo "$PULUMI_BACKEND_URL"; exit 3'), "s3://bucket?region=x", []);
    expect(await env.capture(["whoami"])).toEqual({ code: 3, stdout: "s3://bucket?region=x\n", stderr: "" });
    env.close();
  });
});
