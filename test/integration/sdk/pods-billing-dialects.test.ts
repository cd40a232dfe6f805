import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ManualClock, type RunningEmulator, startEmulator } from "../../../emulator";
import {
  type ApiVersion,
  APIError,
  BadRequestError,
  NotFoundError,
  RequestValidationError,
  RunpodClient,
  UnsupportedOperationError,
} from "../../../sdk";

/**
 * Pods and billing through one client, two dialects: the
 * version-neutral operations behave alike on v1 and v2 against the emulator over HTTP, on one
 * account; what one version cannot do is refused before anything is sent.
 */
const T0 = Date.UTC(2026, 5, 1);
const HOUR = 3_600_000;
let emulator: RunningEmulator;
let clock: ManualClock;
const clients = {} as Record<ApiVersion, RunpodClient>;

beforeAll(async () => {
  clock = new ManualClock({ epochOrigin: T0 });
  // No A40 anywhere: a create listing it first falls through to the next type.
  const capacity = {
    stock: Object.fromEntries(["EU-RO-1", "US-TX-3", "EU-SE-1"].map((dc) => [dc, { "NVIDIA A40": 0 }])),
  };
  emulator = await startEmulator({ port: 0, apiKeys: ["pods"], rateLimits: false, clock, capacity });
  clients.v1 = new RunpodClient({ apiKey: "pods", apiUrl: emulator.apiUrlV1, queueUrl: emulator.queueUrl });
  clients.v2 = new RunpodClient({ apiKey: "pods", apiUrl: emulator.apiUrlV2, queueUrl: emulator.queueUrl });
});
afterAll(async () => {
  await Promise.all([clients.v1.close(), clients.v2.close()]);
  await emulator.close();
});

const requests = async () => {
  const res = await fetch(`${emulator.url}/_emulator/stats`, { headers: { authorization: "Bearer pods" } });
  return ((await res.json()) as { requests: { total: number } }).requests.total;
};

describe.each(["v1", "v2"] as const)("version-neutral pods on %s", (version) => {
  it("creates, reads, lists, updates, stops, starts, restarts and deletes with v1's field names", async () => {
    const client = clients[version];
    const pod = await client.pods.create({
      name: `neutral-${version}`,
      imageName: "runpod/pytorch:2.1.0",
      gpuTypeIds: ["NVIDIA A40", "NVIDIA L4"],
      gpuTypePriority: "custom",
      gpuCount: 1,
      dataCenterIds: ["EU-RO-1", "US-TX-3"],
      env: { MODEL: "llama" },
      ports: ["8888/http", "22/tcp"],
      volumeInGb: 20,
      volumeMountPath: "/workspace",
      locked: true,
    });
    expect(pod).toMatchObject({
      name: `neutral-${version}`,
      image: "runpod/pytorch:2.1.0",
      desiredStatus: "RUNNING",
      gpu: { id: "NVIDIA L4", count: 1 },
      costPerHr: 0.43,
      adjustedCostPerHr: 0.43,
      env: { MODEL: "llama" },
      volumeInGb: 20,
      volumeMountPath: "/workspace",
      locked: true,
      publicIp: expect.stringMatching(/^203\.0\.113\./),
      portMappings: { "22": expect.any(Number) },
    });
    expect(await client.pods.get(pod.id)).toMatchObject({ id: pod.id, desiredStatus: "RUNNING" });
    expect((await client.pods.list({ name: `neutral-${version}` })).map((p) => p.id)).toEqual([pod.id]);
    expect(await client.pods.list({ name: `neutral-${version}`, desiredStatus: "EXITED" })).toEqual([]);
    expect((await client.pods.list({ gpuTypeId: ["NVIDIA L4"], computeType: "GPU" })).map((p) => p.id)).toContain(
      pod.id,
    );

    await expect(client.pods.stop(pod.id)).rejects.toBeInstanceOf(APIError);
    expect(await client.pods.updateInPlace(pod.id, { name: "renamed", locked: false })).toMatchObject({
      name: "renamed",
      locked: false,
    });
    await client.pods.stop(pod.id);
    await client.pods.stop(pod.id); // already stopped: no error, as on v1
    expect((await client.pods.get(pod.id)).desiredStatus).toBe("EXITED");
    await client.pods.start(pod.id);
    await client.pods.start(pod.id);
    expect((await client.pods.get(pod.id)).desiredStatus).toBe("RUNNING");
    await client.pods.restart(pod.id);
    const updated = await client.pods.update(pod.id, {
      imageName: "runpod/pytorch:2.2.0",
      env: { MODEL: "mistral" },
      dockerStartCmd: ["python", "-m", "train"],
    });
    expect(updated).toMatchObject({
      image: "runpod/pytorch:2.2.0",
      env: { MODEL: "mistral" },
      dockerStartCmd: ["python", "-m", "train"],
      name: "renamed",
    });
    const grown = await client.pods.update(pod.id, { volumeInGb: 40 });
    expect(grown.volumeInGb).toBe(40);
    await client.pods.delete(pod.id);
    await expect(client.pods.get(pod.id)).rejects.toBeInstanceOf(NotFoundError);
  });

  it("creates a CPU pod and one on a network volume, in the volume's data center", async () => {
    const client = clients[version];
    const cpu = await client.pods.create({
      imageName: "img:1",
      computeType: "CPU",
      cpuFlavorIds: ["cpu3c"],
      vcpuCount: 4,
    });
    expect(cpu).toMatchObject({ cpuFlavorId: "cpu3c", vcpuCount: 4, costPerHr: 0.12 });
    const volume = await client.networkVolumes.create({ name: "v", size: 10, dataCenterId: "EU-SE-1" });
    const mounted = await client.pods.create({
      imageName: "img:1",
      gpuTypeIds: ["NVIDIA L4"],
      networkVolumeId: volume.id,
      volumeMountPath: "/data",
    });
    expect(mounted).toMatchObject({ volumeMountPath: "/data", volumeInGb: 0 });
    expect((await client.pods.list({ networkVolumeId: volume.id })).map((p) => p.id)).toEqual([mounted.id]);
    const where =
      version === "v1"
        ? (await client.v1.pods.get(mounted.id, { includeMachine: true })).machine?.dataCenterId
        : mounted.dataCenterId;
    expect(where).toBe("EU-SE-1");
    await Promise.all([client.pods.delete(cpu.id), client.pods.delete(mounted.id)]);
  });

  it("fails a create that cannot be placed with the platform's 400, saying what was not found", async () => {
    const err = await clients[version].pods
      .create({ imageName: "img:1", gpuTypeIds: ["NVIDIA A40"], dataCenterIds: ["EU-RO-1"], gpuTypePriority: "custom" })
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(BadRequestError);
    expect((err as Error).message).toMatch(/no GPU type of "NVIDIA A40" has 1 free GPU in data centers "EU-RO-1"/);
  });
});

describe("placement filters", () => {
  it("places on a machine that meets them and reads the allocation on both versions, under one name", async () => {
    // One name through the neutral client on either version (v1's wire names them its own way).
    const v2 = await clients.v2.pods.create({ imageName: "img:1", gpuTypeIds: ["NVIDIA L4"], minRamPerGpu: 100 });
    expect(v2).toMatchObject({ vcpuCount: 16, memoryInGb: 125 });
    expect(await clients.v1.pods.get(v2.id)).toMatchObject({ vcpuCount: 16, memoryInGb: 125 });
    const v1 = await clients.v1.pods.create({ imageName: "img:1", gpuTypeIds: ["NVIDIA L4"], minVcpuCountPerGpu: 12 });
    expect(await clients.v2.pods.get(v1.id)).toMatchObject({ vcpuCount: 16, memoryInGb: 125 });
    // Without filters, the standard machine: what the platform gives may be more than a filter asks.
    const plain = await clients.v2.pods.create({ imageName: "img:1", gpuTypeIds: ["NVIDIA L4"], minRamPerGpu: 8 });
    expect(plain).toMatchObject({ vcpuCount: 8, memoryInGb: 62 });
    await Promise.all([v2, v1, plain].map((p) => clients.v2.pods.delete(p.id)));
  });

  it("refuses before sending a filter below 1 on either version, and a filter no machine meets with the platform's 400", async () => {
    const before = await requests();
    const low = await clients.v2.pods
      .create({ imageName: "img:1", gpuTypeIds: ["NVIDIA L4"], minVcpuCountPerGpu: 0 })
      .catch((e: unknown) => e);
    expect(low).toBeInstanceOf(RequestValidationError);
    expect((low as Error).message).toMatch(/minVcpuCountPerGpu = 0: must be at least 1/);
    const onV1 = await clients.v1.pods
      .create({ imageName: "img:1", gpuTypeIds: ["NVIDIA L4"], minRamPerGpu: 0 })
      .catch((e: unknown) => e);
    expect((onV1 as Error).message).toMatch(/minRamPerGpu = 0: must be at least 1/);
    expect(await requests()).toBe(before);
    const tooMuch = await clients.v2.pods
      .create({ imageName: "img:1", gpuTypeIds: ["NVIDIA L4"], minRamPerGpu: 500 })
      .catch((e: unknown) => e);
    expect(tooMuch).toBeInstanceOf(BadRequestError);
    expect((tooMuch as Error).message).toMatch(/no machine offers more than 125 GB of RAM per GPU/);
  });
});

describe("what only one version has", () => {
  it("stops through v2 a pod created through v1, and starts it again through v1", async () => {
    const pod = await clients.v1.pods.create({ imageName: "img:1", gpuTypeIds: ["NVIDIA L4"] });
    await clients.v2.pods.stop(pod.id);
    expect((await clients.v1.pods.get(pod.id)).desiredStatus).toBe("EXITED");
    const raw = await clients.v2.v2.pods.get(pod.id);
    expect(raw).toMatchObject({ status: "EXITED", actions: ["start", "terminate"], cost: 0 });
    await clients.v1.pods.start(pod.id);
    expect((await clients.v2.pods.get(pod.id)).status).toBe("RUNNING");
    await clients.v2.pods.delete(pod.id);
  });

  it("resets on v1 and refuses reset on v2 before sending, saying what to use instead", async () => {
    const pod = await clients.v1.pods.create({ imageName: "img:1", gpuTypeIds: ["NVIDIA L4"] });
    await clients.v1.pods.reset(pod.id);
    expect((await clients.v1.pods.get(pod.id)).lastStatusChange).toMatch(/^Reset by User: container disk wiped/);
    const before = await requests();
    const err = await clients.v2.pods.reset(pod.id).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(UnsupportedOperationError);
    expect((err as Error).message).toMatch(
      /^pods\.reset is not available on management API v2 \(only on v1\).*update \(PATCH\) replaces the container/,
    );
    expect(await requests()).toBe(before);
    await clients.v1.pods.delete(pod.id);
  });

  it("refuses inputs only one version has before sending, naming the field and both versions", async () => {
    const before = await requests();
    const spot = await clients.v2.pods
      .create({ imageName: "img:1", gpuTypeIds: ["NVIDIA L4"], interruptible: true })
      .catch((e: unknown) => e);
    expect(spot).toBeInstanceOf(RequestValidationError);
    expect((spot as Error).message).toMatch(
      /interruptible = true: interruptible \(spot\) pods exist only on management API v1/,
    );
    const priority = await clients.v2.pods
      .create({ imageName: "img:1", gpuTypeIds: ["NVIDIA L4"], dataCenterPriority: "custom", minDownloadMbps: 100 })
      .catch((e: unknown) => e);
    expect((priority as RequestValidationError).problems.map((p) => p.field)).toEqual([
      "dataCenterPriority",
      "minDownloadMbps",
    ]);
    const ssh = await clients.v1.pods
      .create({ imageName: "img:1", gpuTypeIds: ["NVIDIA L4"], startSsh: true })
      .catch((e: unknown) => e);
    expect((ssh as Error).message).toMatch(/startSsh = true: .* only on management API v2/);
    const byType = await clients.v2.billing.pods({ grouping: "gpuTypeId" }).catch((e: unknown) => e);
    expect((byType as Error).message).toMatch(
      /grouping = "gpuTypeId": pod billing groupings by GPU type exist only on management API v1/,
    );
    const lastN = await clients.v1.billing.pods({ lastN: 3 }).catch((e: unknown) => e);
    expect((lastN as Error).message).toMatch(/lastN = 3: lastN billing windows exist only on management API v2/);
    const smallVolume = await clients.v2.pods
      .create({ imageName: "img:1", gpuTypeIds: ["NVIDIA L4"], volumeInGb: 5 })
      .catch((e: unknown) => e);
    expect((smallVolume as Error).message).toMatch(/volumeInGb = 5: must be at least 10 GB \(on management API v2\)/);
    const v1Only = await clients.v2.v1.pods.list().catch((e: unknown) => e);
    expect(v1Only).toMatchObject({ code: "unsupported_operation", operation: "v1.pods.list" });
    expect(await requests()).toBe(before);
  });

  it("answers the same billing on both versions, in v1's record shape", async () => {
    const start = clock.now();
    const pod = await clients.v2.pods.create({ imageName: "img:1", gpuTypeIds: ["NVIDIA L4"] });
    const volume = await clients.v1.networkVolumes.create({ name: "billed", size: 730, dataCenterId: "EU-RO-1" });
    await clock.advance(2 * HOUR);
    const startTime = new Date(T0 + start).toISOString();
    const endTime = new Date(T0 + start + 2 * HOUR).toISOString();
    for (const client of [clients.v1, clients.v2]) {
      const pods = await client.billing.pods({
        bucketSize: "day",
        startTime,
        endTime,
        grouping: "podId",
        podId: pod.id,
      });
      expect(pods).toEqual([expect.objectContaining({ amount: 0.86, podId: pod.id })]);
      const volumes = await client.billing.networkVolumes({ bucketSize: "day", startTime, endTime });
      // This volume and the two 10 GB ones of the tests above, two hours at $0.07 per GB-month of 730 hours.
      expect(volumes.reduce((s, r) => s + r.amount, 0)).toBeCloseTo((750 * 0.07 * 2) / 730, 5);
      expect(await client.billing.endpoints({ bucketSize: "day", startTime, endTime })).toEqual([]);
    }
    const v2 = await clients.v2.v2.billing.all({ bucketSize: "day", startTime, endTime });
    expect(v2.metadata.totals.podGpuAmount).toBe(0.86);
    const byVolume = await clients.v2.v2.billing.networkVolumes({ networkVolumeId: volume.id, lastN: 1 });
    expect(byVolume.records.every((r) => r.networkVolumeId === volume.id)).toBe(true);
    await clients.v2.pods.delete(pod.id);
  });

  it("runs v2's own pod actions, logs, clusters and SSH keys", async () => {
    const { v2 } = clients.v2;
    expect(await v2.account.sshKeys.put(["ssh-ed25519 AAAAone me"])).toEqual(["ssh-ed25519 AAAAone me"]);
    expect(await v2.account.sshKeys.get()).toEqual(["ssh-ed25519 AAAAone me"]);
    await expect(v2.account.sshKeys.put(["nope"])).rejects.toBeInstanceOf(RequestValidationError);
    const pod = await v2.pods.create({ name: "raw", image: "img:1", gpu: { id: "NVIDIA L4" }, startSsh: true });
    expect(pod.env.PUBLIC_KEY).toBe("ssh-ed25519 AAAAone me");
    expect((await v2.pods.action(pod.id, "stop"))?.status).toBe("EXITED");
    const logs = await v2.pods.logs(pod.id, { source: "system" });
    expect(logs.map((l) => l.line)).toEqual([expect.stringMatching(/^pod created/), "pod stopped"]);
    expect(logs[1]!.id).toMatch(/\/000000000003$/);
    expect(await v2.pods.action(pod.id, "terminate")).toBeUndefined();
    const cluster = await v2.clusters.create({
      name: "c",
      type: "TRAINING",
      image: "img:1",
      compute: { gpuTypeId: "NVIDIA L4", gpuCountPerPod: 1, podCount: 2 },
    });
    expect((await v2.clusters.pods(cluster.id)).map((p) => p.cluster?.rank)).toEqual([0, 1]);
    expect((await v2.clusters.rename(cluster.id, "renamed")).name).toBe("renamed");
    expect((await v2.clusters.list()).map((c) => c.id)).toContain(cluster.id);
    expect((await v2.pods.list({ includeClusterPods: true })).filter((p) => p.cluster?.id === cluster.id)).toHaveLength(
      2,
    );
    await v2.clusters.delete(cluster.id);
    await expect(v2.clusters.get(cluster.id)).rejects.toBeInstanceOf(NotFoundError);
  });
});
