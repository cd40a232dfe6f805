import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ManualClock, startEmulator } from "../../../emulator";
import { clientFor, KEY, OTHER_KEY } from "./helpers";

const T0 = Date.UTC(2026, 5, 1);
const HOUR = 3_600_000;
let dir: string;

beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), "emulator-pods-state-"));
});
afterAll(() => rm(dir, { recursive: true, force: true }));

/** An emulator on the state file whose manual clock starts `offset` ms after T0 (time went on while it was down). */
function emulatorAt(stateFile: string, offset: number) {
  const clock = new ManualClock({ epochOrigin: T0 + offset });
  const capacity = { gpusPerType: 0, stock: { "EU-RO-1": { "NVIDIA L4": 1 } } };
  // Workers ready at once: on a clock that stands still a boot would never end.
  return startEmulator({
    port: 0,
    apiKeys: [KEY, OTHER_KEY],
    stateFile,
    clock,
    capacity,
    rateLimits: false,
    workerBootMs: 0,
  }).then((emu) => ({ emu, clock, api: clientFor(emu, KEY) }));
}

describe("pods, clusters, SSH keys and billing across a restart with a state file", () => {
  it("keeps pods (their GPUs held again), keys, clusters and every dollar already spent", async () => {
    const stateFile = path.join(dir, "state.json");
    const first = await emulatorAt(stateFile, 0);
    await first.api.put("/v2/account/ssh-keys", { keys: ["ssh-ed25519 AAAAkept me"] });
    const running = (
      await first.api.post("/v1/pods", { imageName: "img:1", gpuTypeIds: ["NVIDIA L4"], env: { SECRET: "s3cr3t" } })
    ).body;
    const volume = (await first.api.post("/v1/networkvolumes", { name: "v", size: 730, dataCenterId: "EU-RO-1" })).body;
    const endpoint = (
      await first.api.post("/v1/endpoints", { templateId: "echo", gpuTypeIds: ["NVIDIA L4"], workersMin: 1 })
    ).body;
    await first.clock.advance(HOUR);
    await first.emu.close();
    expect(await readFile(stateFile, "utf8")).not.toContain(KEY);

    // Two hours later: the pod kept running while the emulator was down, as the platform's would.
    const second = await emulatorAt(stateFile, 2 * HOUR);
    try {
      const { api } = second;
      expect((await api.get(`/v1/pods/${running.id}`)).body).toMatchObject({
        desiredStatus: "RUNNING",
        env: { SECRET: "s3cr3t" },
      });
      expect((await api.get("/v2/account/ssh-keys")).body).toEqual({ keys: ["ssh-ed25519 AAAAkept me"] });
      // The one L4 is held by the loaded pod: a second one cannot be placed...
      const full = await api.post("/v1/pods", { imageName: "img:1", gpuTypeIds: ["NVIDIA L4"] });
      expect(full.status).toBe(400);
      // ...until the loaded pod stops.
      await api.post(`/v1/pods/${running.id}/stop`);
      expect((await api.post("/v1/pods", { imageName: "img:1", gpuTypeIds: ["NVIDIA L4"] })).status).toBe(201);

      const day = `bucketSize=day&startTime=2026-06-01T00:00:00Z&endTime=2026-06-02T00:00:00Z`;
      const pods = (await api.get(`/v1/billing/pods?${day}&grouping=podId&podId=${running.id}`)).body;
      expect(pods).toEqual([expect.objectContaining({ amount: 0.86, timeBilledMs: 2 * HOUR, podId: running.id })]);
      const volumes = (await api.get(`/v1/billing/networkvolumes?${day}`)).body;
      expect(volumes[0].amount).toBeCloseTo(2 * 730 * (0.07 / 730), 6);
      // The worker that ran the first hour was written when the emulator closed; the new one started at the restart.
      const serverless = (await api.get(`/v1/billing/endpoints?${day}&endpointId=${endpoint.id}`)).body;
      expect(serverless).toEqual([expect.objectContaining({ amount: 0.68, timeBilledMs: HOUR })]);
      expect((await api.get(`/v1/networkvolumes/${volume.id}`)).status).toBe(200);
      // An hour later the restarted worker has billed its hour too; the hour the emulator was down, no worker ran.
      await second.clock.advance(HOUR);
      const later = (await api.get(`/v1/billing/endpoints?${day}&endpointId=${endpoint.id}`)).body;
      expect(later).toEqual([expect.objectContaining({ amount: 1.36, timeBilledMs: 2 * HOUR })]);
    } finally {
      await second.emu.close();
    }
  });

  it("keeps a cluster and its members across a restart", async () => {
    const stateFile = path.join(dir, "cluster.json");
    const capacity = { gpusPerType: 2 };
    const emu = await startEmulator({ port: 0, apiKeys: [KEY], stateFile, capacity, rateLimits: false });
    const api = clientFor(emu, KEY);
    const body = {
      name: "c",
      type: "RAY",
      image: "img:1",
      dataCenterIds: ["EU-SE-1"],
      compute: { gpuTypeId: "NVIDIA A40", gpuCountPerPod: 1, podCount: 2 },
    };
    const cluster = (await api.post("/v2/clusters", body)).body;
    await emu.close();
    const again = await startEmulator({ port: 0, apiKeys: [KEY], stateFile, capacity, rateLimits: false });
    try {
      const api2 = clientFor(again, KEY);
      expect((await api2.get(`/v2/clusters/${cluster.id}`)).body).toEqual(cluster);
      // Both A40s of EU-SE-1 are the members' again.
      expect((await api2.post("/v2/clusters", body)).status).toBe(400);
    } finally {
      await again.close();
    }
  });
});
