import { spawnSync } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { redactText } from "../../../cli/recover/backend-url";
import { recoverCommand } from "../../../cli/recover/recover-command";
import { engineText, Screen, type Sinks } from "../../../cli/recover/screen";
import { judgeLock, parseLockError } from "../../../cli/recover/stack-lock";
import { parseStackArg, resolveStack, stackNames } from "../../../cli/recover/stack-ref";

/**
 * A secret that is also part of the names `recover` reads: passphrase `team`, project
 * `team-backend-app`. `recover` parses the engine's output as printed and masks only what it
 * shows, so the stack it works on is the real one and what it prints still hides the passphrase.
 * Each case also runs the old mistake (parsing masked text) to show what it broke. The real
 * engine does the same on every backend in test/resilience (kills.test.ts, backend-*.test.ts).
 */
let dir: string;
beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "recover-redaction-"));
});
afterEach(() => {
  vi.unstubAllEnvs();
  fs.rmSync(dir, { recursive: true, force: true });
});

const SECRETS = ["team"];
const AT = "s3://state?region=us-east-1";

/** A screen writing into strings. */
function capture(secrets: readonly string[]): { screen: Screen; sinks: Sinks; out: () => string; err: () => string } {
  let out = "";
  let err = "";
  const sinks: Sinks = { stdout: { write: (t: string) => (out += t) }, stderr: { write: (t: string) => (err += t) } };
  return { screen: new Screen(secrets, sinks), sinks, out: () => out, err: () => err };
}

/** What `pulumi stack ls --all --json` prints for a backend holding these stacks. */
function listed(...names: string[]) {
  return engineText(JSON.stringify(names.map((name) => ({ name, current: false }))));
}

describe("names that hold a secret", () => {
  it("finds the stack by the names the engine printed, and shows them masked", () => {
    const raw = listed(
      "organization/team-backend-app/dev",
      "organization/team-backend-app/team-qa",
      "organization/web/dev",
    );
    const names = stackNames(raw) ?? [];
    expect(resolveStack(names, parseStackArg("dev", "team-backend-app"), AT)).toBe("organization/team-backend-app/dev");
    expect(resolveStack(names, parseStackArg("team-qa"), AT)).toBe("organization/team-backend-app/team-qa");
    const { screen, out } = capture(SECRETS);
    screen.out(`$ pulumi up --stack ${resolveStack(names, parseStackArg("team-qa"), AT)}`);
    expect(out()).toBe("$ pulumi up --stack organization/****-backend-app/****-qa\n");
    // The old mistake: masked first, the names name no stack.
    const masked = stackNames(engineText(redactText(raw, SECRETS))) ?? [];
    expect(masked).toContain("organization/****-backend-app/dev");
    expect(() => resolveStack(masked, parseStackArg("dev", "team-backend-app"), AT)).toThrow(
      "--stack dev: no such stack in project team-backend-app",
    );
  });

  it("reads only the JSON list of stacks `pulumi stack ls --json` prints", () => {
    expect(stackNames(listed())).toEqual([]);
    expect(stackNames(engineText("warning: x\n[]"))).toBeUndefined();
    expect(stackNames(engineText('{"name":"a"}'))).toBeUndefined();
    expect(stackNames(engineText('[{"name":1}]'))).toBeUndefined();
  });

  it("judges a lock by the host name the engine printed, even when the secret is part of it", () => {
    const raw = engineText(
      "error: the stack is currently locked by 1 lock(s). Either wait for the other process(es) to end or delete the lock file with `pulumi cancel`.\n" +
        "  s3://state/.pulumi/locks/organization/team-backend-app/dev/1.json: created by ci@team-runner-1 (pid 4242) at 2026-11-26T12:26:19Z\n",
    );
    const here = { host: "team-runner-1", exists: () => false, now: new Date("2026-11-26T12:30:00Z") };
    const judged = judgeLock(parseLockError(raw)?.holders[0] ?? fail("no holder"), here);
    expect(judged.run).toBe("dead");
    const { screen, out } = capture(SECRETS);
    screen.out(`removing lock ${judged.holder.where}: ${judged.why}`);
    expect(out()).toBe(
      "removing lock s3://state/.pulumi/locks/organization/****-backend-app/dev/1.json: held by ci@****-runner-1 " +
        "(pid 4242), taken 3m 41s ago (2026-11-26T12:26:19.000Z), which is no longer running\n",
    );
    // The old mistake: the masked host is another machine's, and the dead run's lock is kept.
    const masked = parseLockError(engineText(redactText(raw, SECRETS)))?.holders[0] ?? fail("no holder");
    expect(judgeLock(masked, here).run).toBe("unknown");
  });

  it("masks every line it shows, the engine's included, and shows its own usage as written", () => {
    const { screen, out, err } = capture(["stack", "hunter2-pw"]);
    screen.out("stack organization/team-backend-app/dev");
    screen.fail("could not reach postgres://u:hunter2-pw@db/state");
    screen.passOn("stdout", engineText("Updating (dev) stack\n"));
    screen.usage("stdout");
    expect(out()).toMatch(
      /^\*\*\*\* organization\/team-backend-app\/dev\nUpdating \(dev\) \*\*\*\*\nUsage: runpod-iac recover/,
    );
    expect(out()).toContain("--stack NAME");
    expect(err()).toBe("runpod-iac recover: could not reach postgres://u:****@db/state\n");
  });
});

function fail(why: string): never {
  throw new Error(why);
}

/** A pid that runs no process here (a short-lived child's, after it exited). */
function deadPid(): number {
  return spawnSync(process.execPath, ["-e", ""]).pid;
}

/**
 * A stand-in `pulumi` for the whole command: it logs its arguments, lists one stack of project
 * `team-backend-app`, refuses a lock-taking import until `cancel` (the lock of a dead run on this
 * machine, by a user whose name holds the passphrase), and refuses a stack name with `*` in it
 * as the engine does.
 */
function standInPulumi(): string {
  const file = path.join(dir, "pulumi");
  const locked =
    "error: could not import deployment: the stack is currently locked by 1 lock(s). Either wait for the other process(es) to end or delete the lock file with `pulumi cancel`.\\n" +
    "  s3://state/.pulumi/locks/organization/team-backend-app/dev/1.json: created by team-ci@%s (pid %s) at 2026-11-26T12:26:19Z\\n";
  const script = `#!/bin/sh
echo "$*" >> "$FAKE_DIR/calls"
case "$*" in
  *'*'*) echo "error: project names may only contain alphanumerics, hyphens, underscores, and periods" >&2; exit 255 ;;
  "stack ls"*) echo '[{"name":"organization/team-backend-app/dev"},{"name":"organization/web/qa"}]' ;;
  "stack export"*) while [ "$1" != "--file" ]; do shift; done; echo '{"deployment":{"pending_operations":[{}]}}' > "$2" ;;
  "stack import"*) [ -f "$FAKE_DIR/cancelled" ] || { printf '${locked}' "$FAKE_HOST" "$FAKE_PID" >&2; exit 255; } ;;
  "cancel"*) touch "$FAKE_DIR/cancelled" ;;
  *) echo "Updating (organization/team-backend-app/dev): $1 of team-backend-app-dev done" ;;
esac
`;
  fs.writeFileSync(file, script, { mode: 0o755 });
  return file;
}

describe("runpod-iac recover with passphrase team on project team-backend-app (a stand-in engine)", () => {
  it("hands the engine the real stack name at every step, and prints none of the passphrase", async () => {
    vi.stubEnv("PULUMI_CONFIG_PASSPHRASE", "team");
    vi.stubEnv("FAKE_DIR", dir);
    vi.stubEnv("FAKE_HOST", os.hostname());
    vi.stubEnv("FAKE_PID", String(deadPid()));
    const { sinks, out, err } = capture([]);
    const argv = ["--backend", AT, "--stack", "dev", "--pulumi", standInPulumi(), "--run", "up", "--cwd", dir];
    expect(await recoverCommand(argv, sinks), err()).toBe(0);
    const stack = "--stack organization/team-backend-app/dev";
    const calls = fs.readFileSync(path.join(dir, "calls"), "utf8").trim().split("\n");
    expect(calls.map((c) => c.replace(/--file \S+/, "--file F"))).toEqual([
      "stack ls --all --json --non-interactive",
      `stack export ${stack} --file F --non-interactive`,
      `stack import ${stack} --file F --non-interactive`,
      `cancel --yes ${stack} --non-interactive`,
      `stack export ${stack} --file F --non-interactive`,
      `stack import ${stack} --file F --non-interactive`,
      `refresh --clear-pending-creates --yes --skip-preview --non-interactive ${stack}`,
      `up --yes --skip-preview --non-interactive ${stack}`,
    ]);
    expect(out()).toContain(
      "removing lock s3://state/.pulumi/locks/organization/****-backend-app/dev/1.json: held by ****-ci@",
    );
    expect(out()).toContain("cleared 1 pending operation(s)");
    expect(out()).toContain(
      "$ pulumi up --yes --skip-preview --non-interactive --stack organization/****-backend-app/dev",
    );
    expect(out()).toContain("Updating (organization/****-backend-app/dev): up of ****-backend-app-dev done");
    expect(out() + err()).not.toContain("team");
  });
});
