import * as path from "node:path";
import { describe, expect, it } from "vitest";
import { WORKER_BOOT_RETRY_MS } from "../../../emulator/jobs/worker-pool";
import { type Client, KEY, useTestEmulator } from "./helpers";

const HANDLERS = path.join(__dirname, "fixtures", "handlers");
const ctx = useTestEmulator(() => ({ handlersDir: HANDLERS }), "each");
const { api } = ctx;

const SECRETS = "/v2/account/secrets";
const TOKEN = "hf_substitutedValue0123456789abcdefgh";
const ROTATED = "hf_rotatedValue9876543210zyxwvutsrq";

const ENDPOINT = {
  type: "QUEUE",
  gpu: { pools: ["ADA_24"], count: 1 },
  scaling: { type: "QUEUE_DELAY", queueDelay: 4 },
  workers: { min: 0, max: 1, idleTimeout: 5 },
};

async function secret(name: string, value: string): Promise<string> {
  const res = await api.post(SECRETS, { name, value });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body.id;
}

/** A v2 template running the `env-echo` handler with `env`, and an endpoint made from it. */
async function endpointWithEnv(env: Record<string, string>): Promise<{ id: string; templateId: string }> {
  const t = await api.post("/v2/templates", {
    name: `t-${Math.random()}`,
    image: "ghcr.io/acme/env-echo:1",
    serverless: true,
    env,
  });
  expect(t.status, JSON.stringify(t.body)).toBe(201);
  const e = await api.post("/v2/serverless", { ...ENDPOINT, name: "secrets", templateId: t.body.id });
  expect(e.status, JSON.stringify(e.body)).toBe(201);
  return { id: e.body.id, templateId: t.body.id };
}

async function envOfWorker(client: Client, endpointId: string, key: string): Promise<unknown> {
  const done = await client.post(`/v2/${endpointId}/runsync`, { input: { key } });
  expect(done.body.status, JSON.stringify(done.body)).toBe("COMPLETED");
  return done.body.output.value;
}

/** The log lines of an endpoint's first worker (the stream follows a live worker: read what is there, then stop). */
async function workerLog(endpointId: string): Promise<string[]> {
  const { workers } = (await api.get(`/v2/serverless/${endpointId}/workers`)).body;
  const controller = new AbortController();
  const res = await fetch(`${ctx.emu.url}/v2/serverless/${endpointId}/workers/${workers[0].id}/logs`, {
    headers: { authorization: `Bearer ${KEY}` },
    signal: controller.signal,
  });
  const reader = res.body!.getReader();
  const { value } = await reader.read();
  controller.abort();
  return [...new TextDecoder().decode(value).matchAll(/"line":"((?:[^"\\]|\\.)*)"/g)].map((m) =>
    JSON.parse(`"${m[1]}"`),
  );
}

describe("secret placeholders in the env of serverless workers", () => {
  it("gives a worker the value, in a whole value or inside one, while the API keeps the placeholder", async () => {
    await secret("hf-token", TOKEN);
    await secret("db/password", "p@ss$&word");
    const env = { HF_TOKEN: "{{ RUNPOD_SECRET_hf-token }}", DB_URL: "postgres://app:{{RUNPOD_SECRET_db/password}}@db" };
    const e = await endpointWithEnv(env);
    expect(await envOfWorker(api, e.id, "HF_TOKEN")).toBe(TOKEN);
    expect(await envOfWorker(api, e.id, "DB_URL")).toBe("postgres://app:p@ss$&word@db");

    const shown = JSON.stringify([
      (await api.get(`/v2/serverless/${e.id}`)).body,
      (await api.get(`/v2/templates/${e.templateId}`)).body,
      (await api.get(`/v2/serverless/${e.id}/releases`)).body,
      (await api.get("/_emulator/state")).body,
    ]);
    expect(shown).toContain("{{ RUNPOD_SECRET_hf-token }}");
    expect(shown).not.toContain(TOKEN);
    expect(shown).not.toContain("p@ss");
    const log = await workerLog(e.id);
    expect(log).toContain(
      `env HF_TOKEN gets secret "hf-token" (value set ${new Date(ctx.clock.now() + ctx.emu.clock.epochOrigin).toISOString()})`,
    );
    expect(log.join("\n")).not.toContain(TOKEN);
  });

  it("resolves an endpoint's own env (image and env set on the endpoint) the same way", async () => {
    await secret("openai", TOKEN);
    const e = await api.post("/v2/serverless", {
      ...ENDPOINT,
      name: "own-env",
      image: "ghcr.io/acme/env-echo:1",
      env: { OPENAI_API_KEY: "{{ RUNPOD_SECRET_openai }}" },
    });
    expect(e.status, JSON.stringify(e.body)).toBe(201);
    expect(await envOfWorker(api, e.body.id, "OPENAI_API_KEY")).toBe(TOKEN);
    const shown = (await api.get(`/v2/serverless/${e.body.id}`)).body;
    expect(shown.env).toEqual({ OPENAI_API_KEY: "{{ RUNPOD_SECRET_openai }}" });
  });

  it("gives a rotated value to workers started after the rotation, not to the one already up", async () => {
    const id = await secret("hf-token", TOKEN);
    const e = await endpointWithEnv({ HF_TOKEN: "{{ RUNPOD_SECRET_hf-token }}" });
    expect(await envOfWorker(api, e.id, "HF_TOKEN")).toBe(TOKEN);
    await api.patch(`${SECRETS}/${id}`, { value: ROTATED });
    // The worker that is up keeps what it started with...
    expect(await envOfWorker(api, e.id, "HF_TOKEN")).toBe(TOKEN);
    // ...until it stops (idle timeout: 5 s); the next worker starts with the new value.
    await ctx.clock.advance(6_000);
    expect((await api.get(`/v2/serverless/${e.id}/workers`)).body.workers).toEqual([]);
    expect(await envOfWorker(api, e.id, "HF_TOKEN")).toBe(ROTATED);
  });

  it("leaves a worker unable to start while its env names a missing secret: jobs wait, the log names it", async () => {
    const e = await endpointWithEnv({ HF_TOKEN: "{{ RUNPOD_SECRET_not-yet }}" });
    const job = await api.post(`/v2/${e.id}/run`, { input: { key: "HF_TOKEN" } });
    const listed = (await api.get(`/v2/serverless/${e.id}/workers`)).body;
    expect(listed.summary).toMatchObject({ unhealthy: 1, running: 0, idle: 0, total: 1 });
    expect(listed.workers[0].status).toBe("UNHEALTHY");
    expect((await api.get(`/v2/${e.id}/health`)).body).toMatchObject({
      jobs: { inQueue: 1, inProgress: 0 },
      workers: { unhealthy: 1 },
    });
    expect(await workerLog(e.id)).toEqual([
      expect.stringMatching(
        /^worker \S+ cannot start: env HF_TOKEN holds \{\{ RUNPOD_SECRET_not-yet \}\}, but the account has no secret named "not-yet"; trying again every 30 s$/,
      ),
    ]);
    // Retries without the secret change nothing; creating it lets the worker start at once.
    await ctx.clock.advance(WORKER_BOOT_RETRY_MS);
    expect((await api.get(`/v2/${e.id}/status/${job.body.id}`)).body.status).toBe("IN_QUEUE");
    await secret("not-yet", TOKEN);
    const status = (await api.get(`/v2/${e.id}/status/${job.body.id}`)).body;
    expect(status).toMatchObject({ status: "COMPLETED", output: { key: "HF_TOKEN", value: TOKEN } });
  });
});

describe("secret placeholders in the env of pods", () => {
  const POD = { name: "p", image: "runpod/pytorch:2.1.0", gpu: { id: "NVIDIA L4", count: 1 } };

  async function podLog(id: string): Promise<string> {
    return String((await api.get(`/v2/pods/${id}/logs?source=system`)).body);
  }

  it("starts a pod with its secrets (rotations reach the next start); a missing one leaves it in ERROR", async () => {
    const id = await secret("wandb", TOKEN);
    const ok = await api.post("/v2/pods", { ...POD, env: { WANDB_API_KEY: "{{ RUNPOD_SECRET_wandb }}" } });
    expect(ok.body).toMatchObject({ status: "RUNNING", env: { WANDB_API_KEY: "{{ RUNPOD_SECRET_wandb }}" } });
    const firstSet = (await api.get(`${SECRETS}/${id}`)).body.valueLastUpdatedAt;
    expect(await podLog(ok.body.id)).toContain(`env WANDB_API_KEY gets secret \\"wandb\\" (value set ${firstSet})`);
    await ctx.clock.advance(1_000);
    const rotatedAt = (await api.patch(`${SECRETS}/${id}`, { value: ROTATED })).body.valueLastUpdatedAt;
    await api.post(`/v2/pods/${ok.body.id}/action`, { action: "restart" });
    expect(await podLog(ok.body.id)).toContain(`(value set ${rotatedAt})`);

    const broken = await api.post("/v2/pods", { ...POD, name: "b", env: { KEY: "{{ RUNPOD_SECRET_missing }}" } });
    expect(broken.status).toBe(201);
    expect(broken.body.status).toBe("ERROR");
    expect(await podLog(broken.body.id)).toContain(
      'container cannot start: env KEY holds {{ RUNPOD_SECRET_missing }}, but the account has no secret named \\"missing\\"',
    );
    // Created since, the secret is there when the container starts again.
    await secret("missing", TOKEN);
    await api.post(`/v2/pods/${broken.body.id}/action`, { action: "restart" });
    expect((await api.get(`/v2/pods/${broken.body.id}`)).body.status).toBe("RUNNING");
    expect(JSON.stringify((await api.get("/_emulator/state")).body)).not.toContain(TOKEN);
  });
});
