import { type ChildProcess, spawn } from "node:child_process";
import { existsSync } from "node:fs";
import path from "node:path";
import { request } from "undici";
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { ensureBuilt } from "../../resilience/engine-harness";

const ROOT = path.resolve(__dirname, "../../..");
const CLI = path.join(ROOT, "dist/emulator/cli.js");

// `npm test` builds first; when run alone, ensureBuilt builds if dist is missing or older than the sources.
beforeAll(() => {
  ensureBuilt();
  expect(existsSync(CLI)).toBe(true);
}, 120_000);

let child: ChildProcess | undefined;
afterEach(() => {
  if (child && child.exitCode === null) child.kill("SIGKILL");
  child = undefined;
});

function startCli(args: string[]): Promise<{ output: () => string; url: string }> {
  const proc = spawn(process.execPath, [CLI, ...args], { cwd: ROOT, stdio: ["ignore", "pipe", "pipe"] });
  child = proc;
  let out = "";
  proc.stdout!.on("data", (c) => {
    out += c;
  });
  proc.stderr!.on("data", (c) => {
    out += c;
  });
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no ready line:\n${out}`)), 15_000);
    proc.stdout!.on("data", () => {
      const m = /ready: listening on (http:\/\/\S+)/.exec(out);
      if (m) {
        clearTimeout(timer);
        resolve({ output: () => out, url: m[1]! });
      }
    });
    proc.on("exit", (code) => reject(new Error(`exited with ${code}:\n${out}`)));
  });
}

const exited = (proc: ChildProcess) =>
  new Promise<number | null>((resolve) => {
    if (proc.exitCode !== null) resolve(proc.exitCode);
    else proc.on("exit", (code) => resolve(code));
  });

describe("the CLI: npx runpod-iac emulator", () => {
  it("prints both base URLs and a ready line, serves the API, and exits 0 on SIGTERM", async () => {
    const { output, url } = await startCli([
      "emulator",
      "--port",
      "0",
      "--api-key",
      "cli-secret-key-123",
      "--time-scale",
      "1000",
    ]);
    expect(output()).toContain(`${url}/v1`);
    expect(output()).toContain(`${url}/v2`);
    expect(output()).not.toContain("cli-secret-key-123");
    expect(output()).toContain("cli*************23");
    const res = await request(`${url}/v1/endpoints`, {
      method: "POST",
      headers: { authorization: "Bearer cli-secret-key-123", "content-type": "application/json" },
      body: JSON.stringify({ templateId: "sleep" }),
    });
    const endpoint = (await res.body.json()) as { id: string };
    expect(res.statusCode).toBe(200);
    // --time-scale 1000: a 5-second sleep takes about 5 ms.
    const job = await request(`${url}/v2/${endpoint.id}/runsync`, {
      method: "POST",
      headers: { authorization: "Bearer cli-secret-key-123", "content-type": "application/json" },
      body: JSON.stringify({ input: { seconds: 5 } }),
    });
    expect(await job.body.json()).toMatchObject({ status: "COMPLETED", output: { slept: 5 } });
    child!.kill("SIGTERM");
    expect(await exited(child!)).toBe(0);
  });

  it("stops cleanly on SIGINT too", async () => {
    await startCli(["emulator", "--port", "0"]);
    child!.kill("SIGINT");
    expect(await exited(child!)).toBe(0);
  });

  it("listens on loopback by default and accepts the documented default key", async () => {
    const { url, output } = await startCli(["emulator", "--port", "0"]);
    expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(output()).toContain('default "emulator-key"');
    const res = await request(`${url}/v1/networkvolumes`, { headers: { authorization: "Bearer emulator-key" } });
    expect(res.statusCode).toBe(200);
    await res.body.dump();
  });

  it("deploys an endpoint with a GPU type added by --add-gpu-type, which it refuses without the flag", async () => {
    const create = async (url: string) => {
      const res = await request(`${url}/v1/endpoints`, {
        method: "POST",
        headers: { authorization: "Bearer emulator-key", "content-type": "application/json" },
        body: JSON.stringify({ templateId: "echo", gpuTypeIds: ["NVIDIA B300"] }),
      });
      return { status: res.statusCode, body: (await res.body.json()) as { message?: string } };
    };
    const plain = await startCli(["emulator", "--port", "0"]);
    expect(await create(plain.url)).toMatchObject({
      status: 400,
      body: { message: 'gpuTypeIds.0 = "NVIDIA B300": is not a GPU type the platform knows' },
    });
    child!.kill("SIGTERM");
    expect(await exited(child!)).toBe(0);
    const told = await startCli(["emulator", "--port", "0", "--add-gpu-type", "NVIDIA B300"]);
    expect(told.output()).toContain(`GPU types added to this release's list: "NVIDIA B300"`);
    expect((await create(told.url)).status).toBe(200);
  });

  it("applies the --fault-* flags to the routes --fault-route names", async () => {
    const { url } = await startCli(["emulator", "--port", "0", "--fault-route", "GET /v1", "--fault-error-rate", "1"]);
    const auth = { authorization: "Bearer emulator-key" };
    const faulted = await request(`${url}/v1/endpoints`, { headers: auth });
    expect(faulted.statusCode).toBe(500);
    expect(await faulted.body.json()).toMatchObject({ error: "injected_fault" });
    const spared = await request(`${url}/v2/x/health`, { headers: auth });
    expect(spared.statusCode).toBe(404);
    await spared.body.dump();
    child!.kill("SIGTERM");
    expect(await exited(child!)).toBe(0);
  });

  it.each([
    [["emulator", "--port", "abc"]],
    [["emulator", "--bogus"]],
    [["serve"]],
    [["emulator", "--add-cuda-version", "13"]],
  ])("exits 2 with the usage on %j", async (args) => {
    const proc = spawn(process.execPath, [CLI, ...args], { stdio: ["ignore", "pipe", "pipe"] });
    child = proc;
    let err = "";
    proc.stderr!.on("data", (c) => {
      err += c;
    });
    expect(await exited(proc)).toBe(2);
    expect(err).toContain("Usage: runpod-iac emulator");
  });
});
