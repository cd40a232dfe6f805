import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Client, createEndpoint, useTestEmulator } from "./helpers";

/**
 * How a declared template runs (docs/emulator.md, "Templates and handlers"): its `imageName` picks
 * the handler by the image's last path segment without tag or digest.
 */
let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), "emulator-image-handlers-"));
  await writeFile(
    path.join(dir, "upper.mjs"),
    "export default async ({ input }) => ({ text: String(input.text).toUpperCase() });\n",
  );
});
afterAll(() => rm(dir, { recursive: true, force: true }));
// Registered after the hook that writes the handler file: hooks run in order.
const ctx = useTestEmulator(() => ({ handlersDir: dir }), "file");
const { api } = ctx;

let counter = 0;
/** A serverless template of `imageName` and an endpoint running it. */
async function endpointForImage(
  client: Client,
  imageName: string,
): Promise<{ templateId: string; endpointId: string }> {
  const t = await client.post("/v1/templates", { name: `img-${++counter}`, imageName, isServerless: true });
  expect(t.status).toBe(200);
  return { templateId: t.body.id, endpointId: await createEndpoint(client, { templateId: t.body.id }) };
}

describe("templates created through /templates run the handler their image names", () => {
  it("runs the built-in echo for ghcr.io/acme/echo:1.0", async () => {
    const { endpointId } = await endpointForImage(api, "ghcr.io/acme/echo:1.0");
    const res = await api.post(`/v2/${endpointId}/runsync`, { input: { said: "hello" } });
    expect(res.body).toMatchObject({ status: "COMPLETED", output: { said: "hello" } });
  });

  it("runs a --handlers file for an image named by digest (registry.example.com/team/upper@sha256:...)", async () => {
    const digest = `sha256:${"ab".repeat(32)}`;
    const { endpointId } = await endpointForImage(api, `registry.example.com/team/upper@${digest}`);
    const res = await api.post(`/v2/${endpointId}/runsync`, { input: { text: "quiet" } });
    expect(res.body).toMatchObject({ status: "COMPLETED", output: { text: "QUIET" } });
  });

  it("accepts an image that names no handler; its jobs fail with an error naming the image", async () => {
    const image = "ghcr.io/acme/no-such-worker:2.3";
    const { endpointId } = await endpointForImage(api, image);
    const res = await api.post(`/v2/${endpointId}/runsync`, { input: {} });
    expect(res.status).toBe(200);
    expect(res.body.status).toBe("FAILED");
    expect(res.body.error).toContain(`cannot run image "${image}"`);
    expect(res.body.error).toContain('no handler "no-such-worker"');
  });

  it("runs what the template's image names now: an update changes what new jobs run", async () => {
    const { templateId, endpointId } = await endpointForImage(api, "ghcr.io/acme/echo:1.0");
    expect((await api.post(`/v2/${endpointId}/runsync`, { input: { text: "a" } })).body.output).toEqual({ text: "a" });
    await api.patch(`/v1/templates/${templateId}`, { imageName: "ghcr.io/acme/upper:2.0" });
    expect((await api.post(`/v2/${endpointId}/runsync`, { input: { text: "a" } })).body.output).toEqual({ text: "A" });
    await api.post(`/v1/templates/${templateId}/update`, { imageName: "ghcr.io/acme/fail:3.0" });
    expect((await api.post(`/v2/${endpointId}/runsync`, { input: { message: "boom" } })).body).toMatchObject({
      status: "FAILED",
      error: "boom",
    });
  });

  it("keeps the handler ids working as built-in templates", async () => {
    const endpointId = await createEndpoint(api, { templateId: "upper" });
    const res = await api.post(`/v2/${endpointId}/runsync`, { input: { text: "x" } });
    expect(res.body.output).toEqual({ text: "X" });
  });
});
