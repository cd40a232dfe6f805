import { type ChildProcess, spawn } from "node:child_process";
import * as fs from "node:fs";
import * as path from "node:path";
import { request } from "undici";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { REPO_ROOT } from "../../scripts/pulumi-cli";
import { RunpodClient } from "../../sdk/client";
import { createEngineStack, type EngineStack, ensureBuilt } from "./engine-harness";

/**
 * Everything a run leaves behind, searched for the API key and the
 * object-storage credentials: the state export with secrets shown, the engine's verbose logs,
 * the messages of failed operations (a refused create, a wrong key), what the emulator logs, the
 * backend's files, and the benchmark report when there is one. Zero occurrences.
 */
const API_KEY = "rpa_SECRETS0RESILIENCE0KEY0a1b2c3d4e5f";
const WRONG_KEY = "rpa_WRONG0RESILIENCE0KEY0f5e4d3c2b1a0";
const S3 = {
  accessId: "AKIASECRETSRESILIENCE7",
  accessSecret: "s3SecretResilience/7Hk9+Qz2Wm4Xv8Lp1Rt6",
  bucketName: "resilience-bucket",
  endpointUrl: "https://s3.example.invalid",
};
const CREDENTIALS = { apiKey: API_KEY, wrongKey: WRONG_KEY, s3AccessId: S3.accessId, s3AccessSecret: S3.accessSecret };

let emulatorProcess: ChildProcess;
let emulatorLog = "";
let url: string;
let e: EngineStack;

/** Starts the emulator CLI with its request log on, as a user would (`--log`), capturing its output. */
async function startEmulatorCli(): Promise<string> {
  const cli = path.join(REPO_ROOT, "dist", "emulator", "cli.js");
  const args = ["emulator", "--port", "0", "--api-key", API_KEY, "--log", "--time-scale", "100", "--no-rate-limits"];
  emulatorProcess = spawn(process.execPath, [cli, ...args], { stdio: ["ignore", "pipe", "pipe"] });
  emulatorProcess.stdout?.on("data", (d) => {
    emulatorLog += d;
  });
  emulatorProcess.stderr?.on("data", (d) => {
    emulatorLog += d;
  });
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no ready line:\n${emulatorLog}`)), 15_000);
    emulatorProcess.stdout?.on("data", () => {
      const m = /ready: listening on (http:\/\/\S+)/.exec(emulatorLog);
      if (m) {
        clearTimeout(timer);
        resolve(m[1] as string);
      }
    });
  });
}

beforeAll(async () => {
  ensureBuilt();
  url = await startEmulatorCli();
  e = await createEngineStack(
    "fleet",
    { apiUrl: `${url}/v2`, queueUrl: `${url}/v2`, apiKey: API_KEY },
    { config: { "fleet:count": { value: "2" } }, label: "secrets" },
  );
});
afterAll(() => {
  if (emulatorProcess && emulatorProcess.exitCode === null) emulatorProcess.kill("SIGKILL");
  e?.dispose();
});

/** Every file under `dir`, read as text. */
function filesUnder(dir: string): { file: string; text: string }[] {
  if (!fs.existsSync(dir)) return [];
  return fs.readdirSync(dir, { recursive: true, withFileTypes: true }).flatMap((entry) => {
    if (!entry.isFile()) return [];
    const file = path.join(entry.parentPath, entry.name);
    return [{ file, text: fs.readFileSync(file, "latin1") }];
  });
}

const occurrences = (text: string, needle: string) => text.split(needle).length - 1;

describe("secrets in everything a run leaves behind", { timeout: 300_000 }, () => {
  it("finds the API key and the object-storage credentials zero times", async () => {
    const corpus: Record<string, string> = {};
    const run = async (label: string, args: string[], env: Record<string, string> = {}) => {
      const r = await e.cli(args, env);
      corpus[label] = `${r.stdout}\n${r.stderr}`;
      return r;
    };
    const verbose = ["--logtostderr", "--logflow", "-v=9", "--debug"];

    // A successful deployment, with the engine's most verbose logs, flowed to the plugins.
    const up = await run("up -v=9", ["up", "--yes", "--skip-preview", ...verbose]);
    expect(up.code, corpus["up -v=9"]).toBe(0);
    expect(up.stderr.length).toBeGreaterThan(100_000); // verbose logging was on

    // A job carrying object-storage credentials, through the SDK, and what the platform answers about it.
    const client = new RunpodClient({ apiKey: API_KEY, apiUrl: `${url}/v2`, queueUrl: `${url}/v2` });
    const endpoints = await client.endpoints.list();
    const jobs = client.jobs(endpoints[0]?.id ?? "");
    const ran = await jobs.runSync({ input: { prompt: "hello" }, s3Config: S3 }, { wait: 60_000 });
    corpus["job record"] = JSON.stringify([ran, await jobs.status(ran.id)]);

    // Failed operations: client-side refusals, the platform's refusals, a wrong key.
    const failures: unknown[] = [
      await jobs.run({ input: {}, s3Config: `${S3.accessId}:${S3.accessSecret}` as never }).catch((x) => x),
      await jobs.run({ input: {}, s3Config: { ...S3, bucketName: 7 as never }, webhook: "nope" }).catch((x) => x),
      await new RunpodClient({ apiKey: WRONG_KEY, apiUrl: `${url}/v2` }).endpoints.list().catch((x) => x),
    ];
    const raw = await request(`${url}/v2/${endpoints[0]?.id}/run`, {
      method: "POST",
      headers: { authorization: `Bearer ${API_KEY}`, "content-type": "application/json" },
      body: JSON.stringify({ input: {}, s3Config: [S3.accessId, S3.accessSecret] }),
    });
    expect(raw.statusCode).toBe(400);
    corpus["emulator 400 body"] = await raw.body.text();
    corpus["client errors"] = failures.map((x) => `${(x as Error).name}: ${(x as Error).message}`).join("\n");
    expect(failures.every((x) => x instanceof Error)).toBe(true);
    await client.close();

    await e.stack.setConfig("fleet:templateId", { value: "no-such-template" });
    const refused = await run("up, refused create", ["up", "--yes", "--skip-preview", ...verbose]);
    expect(refused.code).not.toBe(0);
    expect(corpus["up, refused create"]).toContain("templateId");
    await e.stack.removeConfig("fleet:templateId");
    const wrongKey = await run("refresh, wrong key", ["refresh", "--yes", "--skip-preview", ...verbose], {
      RUNPOD_API_KEY: WRONG_KEY,
    });
    expect(wrongKey.code).not.toBe(0);
    expect(corpus["refresh, wrong key"]).toContain("401");

    // The state with secrets shown, its history, and every file the backend and the work dir hold.
    expect((await run("stack export --show-secrets", ["stack", "export", "--show-secrets"])).code).toBe(0);
    await run("stack history --show-secrets", ["stack", "history", "--show-secrets", "--json"]);
    expect((await run("destroy", ["destroy", "--yes", "--skip-preview", ...verbose])).code).toBe(0);
    const files = [
      ...filesUnder(e.backend.dir as string),
      ...filesUnder(e.homeDir),
      ...filesUnder(e.workDir).filter((f) => !f.file.includes("node_modules")),
    ];
    for (const f of files) corpus[path.relative(path.dirname(e.backend.dir as string), f.file)] = f.text;

    // What the emulator logged, up to its shutdown line.
    emulatorProcess.kill("SIGTERM");
    await new Promise((r) => emulatorProcess.once("exit", r));
    expect(emulatorLog).toContain('"url":"/v2/serverless"'); // its request log was on
    corpus["emulator log"] = emulatorLog;

    const bench = path.join(REPO_ROOT, "bench", "RESULTS.md");
    if (fs.existsSync(bench)) corpus["bench/RESULTS.md"] = fs.readFileSync(bench, "utf8");

    const found: string[] = [];
    for (const [label, text] of Object.entries(corpus)) {
      for (const [name, secret] of Object.entries(CREDENTIALS)) {
        const n = occurrences(text, secret);
        if (n > 0) found.push(`${name} x${n} in ${label}`);
      }
      // An authorization header, whatever key it carried.
      if (/bearer\s+rpa_/i.test(text)) found.push(`an authorization header in ${label}`);
    }
    expect(occurrences(`${corpus["up -v=9"]}${API_KEY}`, API_KEY)).toBe(1); // the search itself works
    expect(found).toEqual([]);
    const bytes = Object.values(corpus).reduce((n, t) => n + t.length, 0);
    console.log(
      `resilience/secrets: sources=${Object.keys(corpus).length} files=${files.length} ` +
        `searchedMB=${(bytes / 1e6).toFixed(1)} credentials=${Object.keys(CREDENTIALS).length} occurrences=0 ` +
        `bench=${fs.existsSync(bench) ? "searched" : "absent"}`,
    );
  });
});
