import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { PulumiEngine } from "../../../cli/recover/pulumi-engine";
import { Screen } from "../../../cli/recover/screen";

/**
 * What `recover` passes on from the engine is masked line by line, even when a credential reaches
 * it split across writes (the engine prints a postgres:// URL with its password when it cannot
 * reach the database); what it reads for itself is the engine's output as printed. A stand-in
 * `pulumi` script prints such a line in pieces.
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

/** A screen that keeps what it writes, both streams in order, in `shown.text`. */
function capturingScreen(secrets: string[]): { screen: Screen; shown: { text: string } } {
  const shown = { text: "" };
  const sink = { write: (t: string) => (shown.text += t) };
  return { screen: new Screen(secrets, { stdout: sink, stderr: sink }), shown };
}

describe("the engine's output as recover passes it on", () => {
  it("masks a password split across writes in what it streams, and returns what it read unmasked", async () => {
    const pulumi = fakePulumi(
      "printf 'error: unable to open \"postgres://u:hun' >&2; sleep 0.2; printf 'ter2-pw@db/state\"\\n' >&2; echo \"args: $*\"",
    );
    const { screen, shown } = capturingScreen(["hunter2-pw"]);
    const engine = new PulumiEngine(pulumi, "postgres://u:hunter2-pw@db/state", screen);
    try {
      expect(await engine.stream(["refresh", "--yes"], dir)).toBe(0);
      const read = await engine.capture(["stack", "ls"]);
      expect(read.raw.stderr).toBe('error: unable to open "postgres://u:hunter2-pw@db/state"\n');
    } finally {
      engine.close();
    }
    expect(shown.text).toContain('error: unable to open "postgres://u:****@db/state"');
    expect(shown.text).toContain("args: refresh --yes --non-interactive");
    expect(shown.text).not.toContain("hunter2");
    expect(shown.text).not.toContain("stack ls"); // what it captures is not shown
  });

  it("reports a binary that cannot be started with exit code 127, and the backend URL in the environment", async () => {
    const { screen } = capturingScreen([]);
    const missing = new PulumiEngine(path.join(dir, "no-such-pulumi"), "s3://b", screen);
    const r = await missing.capture(["stack", "ls"]);
    missing.close();
    expect(r.code).toBe(127);
    expect(r.raw.stderr).toContain("could not run");
    const env = new PulumiEngine(fakePulumi('echo "$PULUMI_BACKEND_URL"; exit 3'), "s3://bucket?region=x", screen);
    expect(await env.capture(["whoami"])).toEqual({ code: 3, raw: { stdout: "s3://bucket?region=x\n", stderr: "" } });
    env.close();
  });
});
