import { execFile } from "node:child_process";
import * as fs from "node:fs";
import * as path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { providePulumiCli, REPO_ROOT } from "../../scripts/pulumi-cli";
import { freePort } from "../backends/free-port";
import { type PostgresCluster, startPostgres } from "../backends/postgres-cluster";
import { createE2EStack, type E2EStack } from "./harness";

/**
 * `runpod-iac recover` as a user runs it (docs/reliability.md), with the real engine: on a file
 * backend a deployed stack's emptied sidecar and locks of other runs (another machine's, a live
 * one's), and on PostgreSQL what it says about a stack that is not there or a backend it cannot
 * reach, never printing a password. Recovering killed runs end to end is in test/resilience/
 * (kills.test.ts on files, backend-*.test.ts on PostgreSQL and S3).
 */
let e: E2EStack;
let pg: PostgresCluster;
let pulumi: string;
let volumeId: string;

beforeAll(async () => {
  pulumi = path.join(await providePulumiCli(), "pulumi");
  e = await createE2EStack("stack", { "e2e:volumeSize": { value: "10" } }, { label: "recover" });
  const up = await e.stack.up();
  volumeId = String(up.outputs.volumeId?.value);
  pg = await startPostgres();
  await pg.createDatabase("state");
  // A deployment and a cluster's start: minutes on a busy 2-core machine, past the default hook timeout.
}, 300_000);
afterAll(async () => {
  await e?.dispose();
  await pg?.stop();
});

function recover(args: string[]): Promise<{ code: number; out: string; err: string }> {
  const bin = path.join(REPO_ROOT, "dist", "cli", "main.js");
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      [bin, "recover", "--pulumi", pulumi, ...args],
      { cwd: e.workDir, env: { ...process.env, ...e.envVars } },
      (err, out, errText) =>
        resolve({ code: err ? Number((err as { code?: number }).code ?? 1) : 0, out, err: errText }),
    );
  });
}

const backendDir = () => e.backend.dir as string;
const fileBackend = () => ["--backend", `file://${backendDir()}`, "--stack", "e2e"];
const lockDir = () => path.join(backendDir(), ".pulumi", "locks", "organization", "runpod-e2e", "e2e");

/** A lock as the engine writes it (pkg/backend/diy/lock.go), taken `minutesAgo` minutes ago. */
function plantLock(holder: { pid: number; hostname: string }, minutesAgo: number): string {
  fs.mkdirSync(lockDir(), { recursive: true });
  const file = path.join(lockDir(), "5c1e0f2a-planted.json");
  const timestamp = new Date(Date.now() - minutesAgo * 60_000).toISOString();
  fs.writeFileSync(file, JSON.stringify({ ...holder, username: "ci", timestamp }));
  return file;
}

describe("runpod-iac recover with the real engine", { timeout: 240_000 }, () => {
  it("repairs an emptied checkpoint sidecar and prints the refresh and up steps, never the state's content", async () => {
    const sidecar = path.join(backendDir(), ".pulumi", "stacks", "runpod-e2e", "e2e.json.attrs");
    fs.writeFileSync(sidecar, "");
    expect((await e.cli(["stack", "export"])).code).not.toBe(0);
    const r = await recover(fileBackend());
    expect(r.code, r.err).toBe(0);
    expect(r.out).toContain("removed .pulumi/stacks/runpod-e2e/e2e.json.attrs (empty");
    expect(r.out).toContain("no pending operations");
    expect(r.out).toContain(
      "pulumi refresh --clear-pending-creates --yes --skip-preview --non-interactive --stack e2e",
    );
    expect(r.out).toContain("pulumi up --yes --skip-preview --non-interactive --stack e2e");
    expect(r.out + r.err).not.toContain(volumeId);
    expect((await e.cli(["stack", "export"])).code).toBe(0);
  });

  it("stops at another machine's lock, naming its host, pid and age, and removes it only with --force-unlock", async () => {
    const lock = plantLock({ pid: 4242, hostname: "ci-runner-7" }, 10);
    const kept = await recover(fileBackend());
    expect(kept.code).toBe(1);
    expect(kept.err).toMatch(
      /kept lock file:\/\/\S+5c1e0f2a-planted\.json\S*: held by ci@ci-runner-7 \(pid 4242\), taken 10m \d+s ago/,
    );
    expect(kept.err).toContain("run recover again with --force-unlock");
    expect(fs.existsSync(lock)).toBe(true);
    const forced = await recover([...fileBackend(), "--force-unlock"]);
    expect(forced.code, forced.err).toBe(0);
    expect(forced.out).toMatch(/removing lock \S+: held by ci@ci-runner-7 \(pid 4242\), taken 10m \d+s ago/);
    expect(fs.existsSync(lock)).toBe(false);
    expect((await e.cli(["up", "--yes", "--skip-preview", "--expect-no-changes"])).code).toBe(0);
  });

  it("keeps the lock of a run still alive on this machine, even when it could be removed by force", async () => {
    plantLock({ pid: process.pid, hostname: (await import("node:os")).hostname() }, 1);
    const kept = await recover(fileBackend());
    expect(kept.code).toBe(1);
    expect(kept.err).toContain(`(pid ${process.pid}), taken 1m`);
    expect(kept.err).toContain("which is still running");
    expect(kept.err).toContain("a run still holds the stack: wait for it to end");
    expect((await recover([...fileBackend(), "--force-unlock"])).code).toBe(0);
    expect(fs.readdirSync(lockDir()).filter((f) => f.endsWith(".json"))).toEqual([]);
  });

  it("names a stack that is not there (exit 2) and a backend it cannot reach (exit 1), never printing the password", async () => {
    const missingFile = await recover(["--backend", `file://${backendDir()}`, "--stack", "nope"]);
    expect([missingFile.code, missingFile.err.split("\n")[0]]).toEqual([
      2,
      `runpod-iac recover: --stack nope: no such stack in the backend at ${backendDir()}`,
    ]);
    const shown = pg.url("state").replace(pg.password, "****");
    const missing = await recover(["--backend", pg.url("state"), "--stack", "nope"]);
    expect([missing.code, missing.err.split("\n")[0]]).toEqual([
      2,
      `runpod-iac recover: --stack nope: no such stack in the backend at ${shown}`,
    ]);
    const missingFull = await recover(["--backend", pg.url("state"), "--stack", "organization/runpod-e2e/nope"]);
    expect(missingFull.code).toBe(2);
    expect(missingFull.err).toContain(`--stack organization/runpod-e2e/nope: no such stack in the backend at ${shown}`);
    const closed = pg.url("state").replace(`:${pg.port}/`, `:${await freePort()}/`);
    const unreachable = await recover(["--backend", closed, "--stack", "dev"]);
    expect(unreachable.code).toBe(1);
    expect(unreachable.err).toMatch(
      /could not list the stacks of the backend at postgres:\/\/pulumi:\*\*\*\*@127\.0\.0\.1:\d+\/state\?sslmode=disable: .*connection refused/,
    );
    for (const r of [missing, missingFull, unreachable]) expect(r.out + r.err).not.toContain(pg.password);
    const scheme = await recover(["--backend", "mysql://root:pw@db/state", "--stack", "dev"]);
    expect([scheme.code, scheme.err.split("\n")[0]]).toEqual([
      2,
      "runpod-iac recover: --backend: scheme mysql is not a state backend Pulumi supports; use file://, postgres://, s3://, gs://, azblob:// or a Pulumi Cloud URL (https://)",
    ]);
  });

  it("refuses a checkpoint that is not JSON (exit 1), pointing at the backups", async () => {
    fs.writeFileSync(path.join(backendDir(), ".pulumi", "stacks", "runpod-e2e", "e2e.json"), '{"version": 3, "checkp');
    const r = await recover(fileBackend());
    expect(r.code).toBe(1);
    expect(r.err).toContain(
      "the checkpoint .pulumi/stacks/runpod-e2e/e2e.json is not valid JSON; restore the newest file of .pulumi/backups/",
    );
  });
});
