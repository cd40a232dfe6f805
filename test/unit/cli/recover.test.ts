import { spawnSync } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { classifyBackend, knownSecrets, redactText, redactUrl } from "../../../cli/recover/backend-url";
import { locateStack, parseFileBackend } from "../../../cli/recover/file-backend";
import { findBrokenSidecars, repairSidecars } from "../../../cli/recover/file-sidecars";
import { parseRecoverArgs } from "../../../cli/recover/recover-args";
import { engineError } from "../../../cli/recover/release-stack";
import { engineText } from "../../../cli/recover/screen";
import { age, judgeLock, parseLockError } from "../../../cli/recover/stack-lock";
import { parseStackArg, resolveStack } from "../../../cli/recover/stack-ref";

/**
 * The pure parts of `runpod-iac recover` (docs/reliability.md, docs/teams.md): backend URLs and their redaction,
 * the engine's lock messages, stack names, the file backend's layout and sidecars. The command
 * itself runs the real engine: test/e2e/recover.test.ts, and the kill stages of test/resilience/
 * on every backend.
 */
let dir: string;
beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "recover-test-"));
});
afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

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
  write(`.pulumi/stacks/${project}/${stack}.json`, JSON.stringify({ version: 3, checkpoint: {} }));
  write(`.pulumi/stacks/${project}/${stack}.json.attrs`, ATTRS);
}

/** A pid that runs no process here (a short-lived child's, after it exited). */
function deadPid(): number {
  return spawnSync(process.execPath, ["-e", ""]).pid;
}

describe("backend URLs", () => {
  it("knows every backend the engine supports and refuses other schemes, naming them", () => {
    expect(
      ["file:///s", "postgres://u:p@h/db", "s3://b", "gs://b", "azblob://c", "https://api.pulumi.com"].map(
        classifyBackend,
      ),
    ).toEqual(["file", "postgres", "s3", "gs", "azblob", "cloud"]);
    expect(() => classifyBackend("mysql://h/db")).toThrow(
      "--backend: scheme mysql is not a state backend Pulumi supports",
    );
    expect(() => classifyBackend("/var/state")).toThrow("scheme (none)");
  });

  it("masks a URL's password and credential-bearing query values, and nothing else", () => {
    expect(redactUrl("postgres://pulumi:s3cr%40t@db:5432/state?sslmode=require&password=p2")).toBe(
      "postgres://pulumi:****@db:5432/state?sslmode=require&password=****",
    );
    expect(redactUrl("azblob://c?storage_account=acct&sas_token=sv%3D1%26sig%3Dabc")).toBe(
      "azblob://c?storage_account=acct&sas_token=****",
    );
    const s3 = "s3://bucket?endpoint=127.0.0.1:9000&s3ForcePathStyle=true&region=us-east-1";
    expect(redactUrl(s3)).toBe(s3);
  });

  it("masks every known credential in the engine's output, including a URL the engine printed whole", () => {
    const url = "postgres://pulumi:s3cr%40t-pw@127.0.0.1:5/state";
    const secrets = knownSecrets(url, { AWS_SECRET_ACCESS_KEY: "aws-secret-key-1", PULUMI_CONFIG_PASSPHRASE: "pp" });
    expect(secrets).toEqual(expect.arrayContaining(["s3cr%40t-pw", "s3cr@t-pw", "aws-secret-key-1"]));
    expect(secrets).not.toContain("pp"); // too short to mask without mangling text
    const engine =
      'error: unable to open state database "postgres://pulumi:s3cr%40t-pw@127.0.0.1:5/state": failed to ping\n' +
      "signing with aws-secret-key-1; other://user:pw-of-another@host/x";
    const shown = redactText(engine, secrets);
    expect(shown).toBe(
      'error: unable to open state database "postgres://pulumi:****@127.0.0.1:5/state": failed to ping\n' +
        "signing with ****; other://user:****@host/x",
    );
  });
});

/** The engine's message when a lock-taking command meets another run's lock (Pulumi v3.259.0, postgres backend). */
const LOCKED = engineText(
  "error: could not import deployment: the stack is currently locked by 1 lock(s). Either wait for the other process(es) to end or delete the lock file with `pulumi cancel`.\n" +
    "  postgres://****:****@127.0.0.1:54329/state/.pulumi/locks/organization/exp/dev/fbe58280.json?sslmode=disable: created by ci@runner-7 (pid 19247) at 2026-11-26T12:26:19Z\n",
);

describe("the stack's lock, as the engine reports it", () => {
  it("reads each holder's lock, user, host, pid and time", () => {
    expect(parseLockError(LOCKED)).toEqual({
      service: false,
      holders: [
        {
          where:
            "postgres://****:****@127.0.0.1:54329/state/.pulumi/locks/organization/exp/dev/fbe58280.json?sslmode=disable",
          username: "ci",
          hostname: "runner-7",
          pid: 19247,
          since: new Date("2026-11-26T12:26:19Z"),
        },
      ],
    });
  });

  it("tells Pulumi Cloud's update in progress from other failures", () => {
    expect(parseLockError(engineText("error: [409] Conflict: Another update is currently in progress."))).toEqual({
      holders: [],
      service: true,
    });
    expect(parseLockError(engineText("error: no stack named 'organization/exp/nope' found"))).toBeUndefined();
  });

  it("proves a run dead only on its own host with no such process, and says host, pid and age", () => {
    const holder = parseLockError(LOCKED)?.holders[0];
    if (!holder) throw new Error("no holder parsed");
    const now = new Date("2026-11-26T15:38:24Z");
    const here = { ...holder, hostname: os.hostname() };
    expect(judgeLock({ ...here, pid: process.pid }).run).toBe("alive");
    expect(judgeLock({ ...here, pid: deadPid() }).run).toBe("dead");
    expect(judgeLock(holder, { now })).toEqual({
      holder,
      run: "unknown",
      why: "held by ci@runner-7 (pid 19247), taken 3h 12m 5s ago (2026-11-26T12:26:19.000Z), on another machine: its run cannot be checked from here",
    });
    expect(age(undefined, now)).toBe("an unknown time");
    expect(age(new Date(now.getTime() - 90_061_000), now)).toBe("1d 1h 1m 1s");
  });

  it("keeps the engine's error lines of a failure, or its last lines when it has none", () => {
    expect(engineError(engineText("warning: x\nerror: no stack named 'a' found\n"))).toBe("no stack named 'a' found");
    expect(engineError(engineText("panic: boom\n  at x\n"))).toBe("panic: boom;   at x");
  });
});

describe("stack names", () => {
  it("takes NAME or ORG/PROJECT/NAME and refuses a --project that contradicts it", () => {
    expect(parseStackArg("dev")).toEqual({ org: undefined, project: undefined, name: "dev" });
    expect(parseStackArg("dev", "fleet")).toEqual({ org: undefined, project: "fleet", name: "dev" });
    expect(parseStackArg("organization/fleet/dev")).toEqual({ org: "organization", project: "fleet", name: "dev" });
    expect(() => parseStackArg("organization/fleet/dev", "other")).toThrow(
      "--stack organization/fleet/dev names project fleet, but --project is other",
    );
    expect(() => parseStackArg("fleet/dev")).toThrow("must be NAME or organization/PROJECT/NAME");
  });

  it("finds the one stack among the backend's, or says why not", () => {
    const names = ["organization/a/dev", "organization/b/dev", "organization/b/prod", "legacy"];
    const at = "postgres://u:****@db/state";
    expect(resolveStack(names, parseStackArg("prod"), at)).toBe("organization/b/prod");
    expect(resolveStack(names, parseStackArg("dev", "a"), at)).toBe("organization/a/dev");
    expect(resolveStack(names, parseStackArg("legacy"), at)).toBe("legacy");
    expect(() => resolveStack(names, parseStackArg("dev"), at)).toThrow(
      "--stack dev: projects a, b each have a stack of this name; add --project",
    );
    expect(() => resolveStack(names, parseStackArg("qa", "a"), at)).toThrow(
      `--stack qa: no such stack in project a of the backend at ${at}`,
    );
  });
});

describe("the file backend", () => {
  it("reads file:// URLs as Pulumi does: ~ is home, relative paths are relative, metadata=skip is seen", () => {
    expect(parseFileBackend("file://~/state").dir).toBe(path.join(os.homedir(), "state"));
    expect(parseFileBackend("file://rel/state", "/work").dir).toBe("/work/rel/state");
    expect(parseFileBackend(`file://${dir}?metadata=skip`)).toMatchObject({ dir, metadataSkip: true });
    expect(parseFileBackend(`file://${dir}`).bookkeeping).toBe(path.join(dir, ".pulumi"));
    expect(() => parseFileBackend("file://")).toThrow("file:// needs a directory");
  });

  it("finds a stack's checkpoint by name, by organization/project/name, and in the legacy layout", () => {
    backendWithStack();
    const backend = parseFileBackend(`file://${dir}`);
    const found = locateStack(backend, "dev");
    expect(found).toEqual({
      project: "fleet",
      stack: "dev",
      checkpoint: path.join(dir, ".pulumi/stacks/fleet/dev.json"),
    });
    expect(locateStack(backend, "organization/fleet/dev")).toEqual(found);
    write(".pulumi/stacks/old.json", "{}");
    expect(locateStack(backend, "old")).toMatchObject({ project: undefined, stack: "old" });
    backendWithStack("other");
    expect(() => locateStack(backend, "dev")).toThrow("projects fleet, other each have a stack of this name");
    expect(() => locateStack(backend, "nope")).toThrow(`--stack nope: no such stack in the backend at ${dir}`);
  });

  it("finds empty and half-written sidecars, only those, and deletes them once", () => {
    backendWithStack();
    const empty = write(".pulumi/stacks/fleet/dev.json.attrs", "");
    const half = write(".pulumi/history/fleet/dev/dev-1.history.json.attrs", '{"user.content_type":"appl');
    const backend = parseFileBackend(`file://${dir}`);
    const expected = [
      { file: half, reason: "not valid JSON" },
      { file: empty, reason: "empty" },
    ];
    expect(findBrokenSidecars(backend)).toEqual(expected);
    expect(repairSidecars(backend)).toEqual(expected);
    expect(fs.existsSync(empty) || fs.existsSync(half)).toBe(false);
    expect(fs.existsSync(path.join(dir, ".pulumi/meta.yaml.attrs"))).toBe(true);
    expect(repairSidecars(backend)).toEqual([]);
  });
});

describe("recover's arguments", () => {
  it("takes the backend from PULUMI_BACKEND_URL and names what is wrong", () => {
    expect(parseRecoverArgs(["--stack", "dev"], { PULUMI_BACKEND_URL: "s3://b" })).toMatchObject({
      backend: "s3://b",
      stack: "dev",
      forceUnlock: false,
      pulumi: "pulumi",
    });
    expect(() => parseRecoverArgs(["--stack", "dev"], {})).toThrow("--backend is required (or set PULUMI_BACKEND_URL)");
    expect(() => parseRecoverArgs(["--backend", "s3://b"], {})).toThrow("--stack is required");
    expect(() => parseRecoverArgs(["--backend", "s3://b", "--stack", "d", "--run", "preview"], {})).toThrow(
      "--run preview: must be up or destroy",
    );
  });
});
