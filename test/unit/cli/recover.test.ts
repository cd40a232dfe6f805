import { spawnSync } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { locateStack, parseFileBackend } from "../../../cli/recover/file-backend";
import { recoverCommand } from "../../../cli/recover/recover-command";
import { findBrokenSidecars, judgeLock, repairBackend } from "../../../cli/recover/repair-backend";

/**
 * `runpod-iac recover` (issue 15) on file backends laid out as Pulumi's diy backend lays them
 * out; the end-to-end proof with the real engine is test/resilience/kills.test.ts.
 */
let dir: string;
beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "recover-test-"));
});
afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

const SECRET = "s3cr3t-in-the-checkpoint";
const ATTRS = '{"user.content_type":"application/json","md5":"QyxHS4eVW0JNu9U9M1xLZQ=="}\n';

function write(rel: string, text: string): string {
  const file = path.join(dir, rel);
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, text);
  return file;
}

/** A project-layout backend with stack `dev` of project `fleet`, its sidecars intact. */
function backendWithStack(project = "fleet", stack = "dev"): void {
  write(".pulumi/meta.yaml", "version: 1\n");
  write(".pulumi/meta.yaml.attrs", ATTRS);
  write(`.pulumi/stacks/${project}/${stack}.json`, JSON.stringify({ version: 3, checkpoint: { secret: SECRET } }));
  write(`.pulumi/stacks/${project}/${stack}.json.attrs`, ATTRS);
}

function lock(project: string, stack: string, holder: object): string {
  const file = write(`.pulumi/locks/organization/${project}/${stack}/0b1c.json`, JSON.stringify(holder));
  write(`.pulumi/locks/organization/${project}/${stack}/0b1c.json.attrs`, ATTRS);
  return file;
}

/** A pid that runs no process here (a short-lived child's, after it exited). */
function deadPid(): number {
  return spawnSync(process.execPath, ["-e", ""]).pid;
}

async function run(args: string[]): Promise<{ code: number; out: string; err: string }> {
  let out = "";
  let err = "";
  const o = vi.spyOn(process.stdout, "write").mockImplementation((c) => ((out += String(c)), true));
  const e = vi.spyOn(process.stderr, "write").mockImplementation((c) => ((err += String(c)), true));
  try {
    return { code: await recoverCommand(args), out, err };
  } finally {
    o.mockRestore();
    e.mockRestore();
  }
}

describe("the file backend's URL and layout", () => {
  it("reads file:// URLs as Pulumi does: ~ is home, relative paths are relative, metadata=skip is seen", () => {
    expect(parseFileBackend("file://~/state").dir).toBe(path.join(os.homedir(), "state"));
    expect(parseFileBackend("file://rel/state", "/work").dir).toBe("/work/rel/state");
    expect(parseFileBackend(`file://${dir}?metadata=skip`)).toMatchObject({ dir, metadataSkip: true });
    expect(parseFileBackend(`file://${dir}`).bookkeeping).toBe(path.join(dir, ".pulumi"));
  });

  it("refuses backends that are not file://, naming the scheme", () => {
    expect(() => parseFileBackend("s3://bucket/state")).toThrow("scheme s3 is not a file backend");
    expect(() => parseFileBackend("file://")).toThrow("file:// needs a directory");
  });

  it("finds a stack by name, by organization/project/name, and in the legacy layout", () => {
    backendWithStack();
    const backend = parseFileBackend(`file://${dir}`);
    const found = locateStack(backend, "dev");
    expect(found).toMatchObject({ project: "fleet", stack: "dev" });
    expect(found.lockDir).toBe(path.join(dir, ".pulumi/locks/organization/fleet/dev"));
    expect(locateStack(backend, "organization/fleet/dev")).toEqual(found);
    write(".pulumi/stacks/old.json", "{}");
    expect(locateStack(backend, "old")).toMatchObject({
      project: undefined,
      lockDir: path.join(dir, ".pulumi/locks/old"),
    });
  });

  it("asks for --project when two projects have the stack, and names a missing stack", () => {
    backendWithStack("a");
    backendWithStack("b");
    const backend = parseFileBackend(`file://${dir}`);
    expect(() => locateStack(backend, "dev")).toThrow("projects a, b each have a stack of this name; add --project");
    expect(locateStack(backend, "dev", "b").project).toBe("b");
    expect(() => locateStack(backend, "nope")).toThrow(`--stack nope: no such stack in the backend at ${dir}`);
    expect(() => locateStack(backend, "a/b")).toThrow("must be NAME or organization/PROJECT/NAME");
  });
});

describe("what a kill leaves", () => {
  it("finds empty and half-written sidecars, and only those", () => {
    backendWithStack();
    const empty = write(".pulumi/stacks/fleet/dev.json.attrs", "");
    const half = write(".pulumi/history/fleet/dev/dev-1.history.json.attrs", '{"user.content_type":"appl');
    const found = findBrokenSidecars(parseFileBackend(`file://${dir}`));
    expect(found).toEqual([
      { file: half, reason: "not valid JSON" },
      { file: empty, reason: "empty" },
    ]);
  });

  it("proves a lock's run dead only on its own host, with no such process", () => {
    const holder = { pid: process.pid, username: "ci", hostname: os.hostname(), timestamp: "2026-01-01T00:00:00Z" };
    expect(judgeLock(holder).run).toBe("alive");
    expect(judgeLock({ ...holder, pid: deadPid() }).run).toBe("dead");
    expect(judgeLock({ ...holder, hostname: "runner-7" })).toEqual({
      run: "unknown",
      why:
        "held by ci@runner-7 (pid " +
        process.pid +
        ") since 2026-01-01T00:00:00Z, another machine: its run cannot be checked from here",
    });
    expect(judgeLock(undefined).run).toBe("unknown");
  });

  it("removes broken sidecars and dead runs' locks, keeps other machines' locks unless forced, and is idempotent", () => {
    backendWithStack();
    write(".pulumi/stacks/fleet/dev.json.attrs", "");
    const dead = lock("fleet", "dev", { pid: deadPid(), username: "ci", hostname: os.hostname(), timestamp: "t" });
    const backend = parseFileBackend(`file://${dir}`);
    const location = locateStack(backend, "dev");
    const report = repairBackend(backend, location);
    expect(report.removedSidecars.map((s) => s.reason)).toEqual(["empty"]);
    expect(report.removedLocks.map((l) => l.file)).toEqual([dead]);
    expect(fs.existsSync(dead) || fs.existsSync(`${dead}.attrs`)).toBe(false);
    expect(repairBackend(backend, location)).toEqual({ removedSidecars: [], removedLocks: [], keptLocks: [] });

    const remote = lock("fleet", "dev", { pid: 4242, username: "ci", hostname: "runner-7", timestamp: "t" });
    expect(repairBackend(backend, location).keptLocks.map((l) => l.file)).toEqual([remote]);
    expect(repairBackend(backend, location, { forceUnlock: true }).removedLocks.map((l) => l.file)).toEqual([remote]);
    expect(fs.readdirSync(location.lockDir)).toEqual([]);
  });
});

describe("runpod-iac recover", () => {
  it("repairs, then prints the refresh and up steps, without printing the checkpoint's content", async () => {
    backendWithStack();
    write(".pulumi/stacks/fleet/dev.json.attrs", "");
    const r = await run(["--backend", `file://${dir}`, "--stack", "dev"]);
    expect(r.code).toBe(0);
    expect(r.out).toContain("removed .pulumi/stacks/fleet/dev.json.attrs (empty");
    expect(r.out).toContain(
      "pulumi refresh --clear-pending-creates --yes --skip-preview --non-interactive --stack dev",
    );
    expect(r.out).toContain("pulumi up --yes --skip-preview --non-interactive --stack dev");
    expect(r.out + r.err).not.toContain(SECRET);
  });

  it("stops with exit 1 and says what to do when a lock's run cannot be proven dead", async () => {
    backendWithStack();
    lock("fleet", "dev", { pid: 4242, username: "ci", hostname: "runner-7", timestamp: "t" });
    const r = await run(["--backend", `file://${dir}`, "--stack", "dev"]);
    expect(r.code).toBe(1);
    expect(r.err).toContain("kept lock .pulumi/locks/organization/fleet/dev/0b1c.json: held by ci@runner-7");
    expect(r.err).toContain("run recover again with --force-unlock");
    expect((await run(["--backend", `file://${dir}`, "--stack", "dev", "--force-unlock"])).code).toBe(0);
  });

  it("names what is wrong with its arguments (exit 2) and a checkpoint it cannot repair (exit 1)", async () => {
    backendWithStack();
    expect((await run(["--stack", "dev", "--backend", "s3://b"])).err).toContain("scheme s3 is not a file backend");
    expect((await run(["--backend", `file://${dir}`])).err).toContain("--stack is required");
    const bad = await run(["--backend", `file://${dir}`, "--stack", "dev", "--run", "preview"]);
    expect([bad.code, bad.err.split("\n")[0]]).toEqual([2, "runpod-iac recover: --run preview: must be up or destroy"]);
    write(".pulumi/stacks/fleet/dev.json", '{"version": 3, "checkp');
    const broken = await run(["--backend", `file://${dir}`, "--stack", "dev"]);
    expect(broken.code).toBe(1);
    expect(broken.err).toContain("the checkpoint .pulumi/stacks/fleet/dev.json is not valid JSON");
  });
});
