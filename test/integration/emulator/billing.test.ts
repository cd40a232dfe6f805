import { describe, expect, it } from "vitest";
import { ManualClock } from "../../../emulator";
import { useTestEmulator } from "./helpers";
import { openApiProblems } from "./openapi-shape";
import { v2ResponseProblems } from "./openapi-v2";

/** Platform time 0 is midnight UTC on 2026-06-01: buckets line up with the clock. */
const T0 = Date.UTC(2026, 5, 1);
const HOUR = 3_600_000;
const ctx = useTestEmulator(() => ({ clock: new ManualClock({ epochOrigin: T0 }) }));
const { api, other } = ctx;

const at = (ms: number) => new Date(T0 + ms).toISOString().replace(".000Z", "Z");
const window = (from: number, to: number, bucketSize = "hour") =>
  `bucketSize=${bucketSize}&startTime=${at(from)}&endTime=${at(to)}`;

async function v2(path: string, template: string) {
  const res = await api.get(path);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  expect(v2ResponseProblems("GET", template, 200, res.body)).toEqual([]);
  return res.body;
}

/** An L4 pod on secure cloud ($0.43/h) that runs an hour, stops for an hour, then runs half an hour. */
async function podRunningOneAndAHalfHours(): Promise<string> {
  const pod = await api.post("/v1/pods", { imageName: "img:1", gpuTypeIds: ["NVIDIA L4"], dataCenterIds: ["EU-RO-1"] });
  expect(pod.status).toBe(201);
  await ctx.clock.advance(HOUR);
  await api.post(`/v1/pods/${pod.body.id}/stop`);
  await ctx.clock.advance(HOUR);
  await api.post(`/v1/pods/${pod.body.id}/start`);
  await ctx.clock.advance(HOUR / 2);
  return pod.body.id;
}

describe("billing computed from the emulator clock", () => {
  it("bills a running pod at its costPerHr by the second, per hour bucket, on v1 and v2", async () => {
    const podId = await podRunningOneAndAHalfHours();
    const byPod = await api.get(`/v1/billing/pods?${window(0, 3 * HOUR)}&grouping=podId`);
    expect(openApiProblems("BillingRecords", byPod.body)).toEqual([]);
    expect(byPod.body).toEqual([
      { time: at(0), amount: 0.43, timeBilledMs: HOUR, podId },
      { time: at(2 * HOUR), amount: 0.215, timeBilledMs: HOUR / 2, podId },
    ]);
    const byType = await api.get(`/v1/billing/pods?${window(0, 3 * HOUR)}`);
    expect(byType.body.map((r: { gpuTypeId: string }) => r.gpuTypeId)).toEqual(["NVIDIA L4", "NVIDIA L4"]);
    const perDay = await api.get(`/v1/billing/pods?bucketSize=day&startTime=${at(0)}&endTime=${at(24 * HOUR)}`);
    expect(perDay.body).toEqual([{ time: at(0), amount: 0.645, timeBilledMs: 1.5 * HOUR, gpuTypeId: "NVIDIA L4" }]);

    const answer = await v2(`/v2/billing/pods?${window(0, 3 * HOUR)}`, "/v2/billing/pods");
    expect(answer.records).toEqual([
      { startTime: at(0), endTime: at(HOUR), podId, totalAmount: 0.43, gpuAmount: 0.43, cpuAmount: 0, diskAmount: 0 },
      {
        startTime: at(2 * HOUR),
        endTime: at(3 * HOUR),
        podId,
        totalAmount: 0.215,
        gpuAmount: 0.215,
        cpuAmount: 0,
        diskAmount: 0,
      },
    ]);
    expect(answer.metadata).toEqual({
      query: { startTime: at(0), endTime: at(3 * HOUR), bucketSize: "hour", podId: null },
      recordCount: 2,
      uniquePodCount: 1,
      totals: { totalAmount: 0.645, gpuAmount: 0.645, cpuAmount: 0, diskAmount: 0 },
    });
    // The window snaps to buckets; lastN counts back from the current (in-progress) bucket.
    const last = await v2("/v2/billing/pods?bucketSize=hour&lastN=2", "/v2/billing/pods");
    expect(last.metadata.query).toMatchObject({ startTime: at(HOUR), endTime: at(3 * HOUR) });
    expect(last.records.map((r: { totalAmount: number }) => r.totalAmount)).toEqual([0.215]);
    expect((await other.get(`/v1/billing/pods?${window(0, 3 * HOUR)}`)).body).toEqual([]);
  });

  it("bills CPU and interruptible pods at their prices, and filters by pod and GPU type", async () => {
    const cpu = await api.post("/v1/pods", {
      imageName: "img:1",
      computeType: "CPU",
      cpuFlavorIds: ["cpu5c"],
      vcpuCount: 4,
    });
    const spot = await api.post("/v1/pods", { imageName: "img:1", gpuTypeIds: ["NVIDIA A40"], interruptible: true });
    expect([cpu.body.costPerHr, spot.body.costPerHr]).toEqual([0.16, 0.2]);
    await ctx.clock.advance(2 * HOUR);
    const q = window(0, 2 * HOUR, "day");
    const a40 = await api.get(`/v1/billing/pods?${q}&gpuTypeId=NVIDIA%20A40`);
    expect(a40.body).toEqual([{ time: at(0), amount: 0.4, timeBilledMs: 2 * HOUR, gpuTypeId: "NVIDIA A40" }]);
    const onlyCpu = await api.get(`/v1/billing/pods?${q}&podId=${cpu.body.id}&grouping=podId`);
    expect(onlyCpu.body).toEqual([{ time: at(0), amount: 0.32, timeBilledMs: 2 * HOUR, podId: cpu.body.id }]);
    const answer = await v2(`/v2/billing/pods?${q}&podId=${cpu.body.id}`, "/v2/billing/pods");
    expect(answer.records[0]).toMatchObject({ podId: cpu.body.id, cpuAmount: 0.32, gpuAmount: 0, totalAmount: 0.32 });
    expect(answer.metadata.query.podId).toBe(cpu.body.id);
  });

  it("bills network volumes by the GB-hour per tier, and serverless workers by the second at their GPU's serverless price", async () => {
    await api.post("/v2/network-volumes", { name: "fast", size: 730, dataCenter: "EU-RO-1", type: "HIGH_PERFORMANCE" });
    const standard = await api.post("/v1/networkvolumes", { name: "std", size: 100, dataCenterId: "US-TX-3" });
    const endpoint = await api.post("/v1/endpoints", {
      name: "e",
      templateId: "echo",
      gpuTypeIds: ["NVIDIA L4"],
      workersMin: 1,
    });
    await ctx.clock.advance(HOUR);
    // Grown to 200 GB for the second hour.
    await api.patch(`/v1/networkvolumes/${standard.body.id}`, { size: 200 });
    await ctx.clock.advance(HOUR);
    const q = window(0, 2 * HOUR, "day");
    const volumes = await api.get(`/v1/billing/networkvolumes?${q}`);
    expect(openApiProblems("NetworkVolumeBillingRecords", volumes.body)).toEqual([]);
    // 730 GB at $0.14 per GB-month (730 hours) is $0.14 an hour, $0.28 in two; the standard
    // volume holds 100 GB for an hour, then 200 GB, at $0.07 per GB-month.
    const standardAmount = (100 * 0.07 + 200 * 0.07) / 730;
    expect(volumes.body).toEqual([
      {
        time: at(0),
        amount: Math.round((0.28 + standardAmount) * 1e6) / 1e6,
        diskSpaceBilledGb: 930,
        highPerformanceStorageAmount: 0.28,
        highPerformanceStorageDiskSpaceBilledGb: 730,
      },
    ]);
    const perVolume = await v2(
      `/v2/billing/network-volumes?${q}&networkVolumeId=${standard.body.id}`,
      "/v2/billing/network-volumes",
    );
    expect(perVolume.records).toEqual([
      expect.objectContaining({
        networkVolumeId: standard.body.id,
        standardAmount: Math.round(standardAmount * 1e6) / 1e6,
        highPerformanceAmount: 0,
      }),
    ]);

    const serverless = await api.get(`/v1/billing/endpoints?${q}`);
    expect(openApiProblems("BillingRecords", serverless.body)).toEqual([]);
    expect(serverless.body).toEqual([
      { time: at(0), amount: 1.36, timeBilledMs: 2 * HOUR, endpointId: endpoint.body.id },
    ]);
    const byWorker = await api.get(`/v1/billing/endpoints?${q}&grouping=podId`);
    expect(byWorker.body).toEqual([expect.objectContaining({ amount: 1.36, podId: expect.any(String) })]);
    const v2Serverless = await v2(`/v2/billing/serverless?${q}`, "/v2/billing/serverless");
    expect(v2Serverless.records).toEqual([
      {
        startTime: at(0),
        endTime: at(24 * HOUR),
        serverlessId: endpoint.body.id,
        totalAmount: 1.36,
        gpuAmount: 1.36,
        cpuAmount: 0,
        diskAmount: 0,
        feeAmount: 0,
      },
    ]);

    const all = await v2(`/v2/billing?${q}`, "/v2/billing");
    expect(all.records).toHaveLength(1);
    expect(all.records[0]).toMatchObject({
      totalAmount: Math.round((1.36 + 0.28 + standardAmount) * 1e6) / 1e6,
      serverlessGpuAmount: 1.36,
      storageHighPerformanceAmount: 0.28,
      podGpuAmount: 0,
    });
    expect(all.metadata.totals.totalAmount).toBe(all.records[0].totalAmount);
    // Deleting the endpoint stops its worker, and with it the bill.
    await api.del(`/v1/endpoints/${endpoint.body.id}`);
    await ctx.clock.advance(HOUR);
    const later = await api.get(`/v1/billing/endpoints?${window(0, 3 * HOUR, "day")}`);
    expect(later.body[0].amount).toBe(1.36);
  });

  it("bills clusters per cluster, and answers the public endpoints' billing with no records", async () => {
    const body = {
      name: "c",
      type: "TRAINING",
      image: "img:1",
      compute: { gpuTypeId: "NVIDIA A40", gpuCountPerPod: 2, podCount: 2 },
    };
    const cluster = await api.post("/v2/clusters", body);
    await ctx.clock.advance(HOUR);
    const q = window(0, HOUR);
    const answer = await v2(`/v2/billing/clusters?${q}`, "/v2/billing/clusters");
    expect(answer.records).toEqual([
      {
        startTime: at(0),
        endTime: at(HOUR),
        clusterId: cluster.body.id,
        totalAmount: 1.6,
        gpuAmount: 1.6,
        diskAmount: 0,
        networkingAmount: 0,
      },
    ]);
    expect(answer.metadata.uniqueClusterCount).toBe(1);
    // Cluster members are the cluster's spend, not pods'.
    expect((await v2(`/v2/billing/pods?${q}`, "/v2/billing/pods")).records).toEqual([]);
    const endpoints = await v2(`/v2/billing/endpoints?${q}`, "/v2/billing/endpoints");
    expect(endpoints).toEqual({
      records: [],
      metadata: {
        query: { startTime: at(0), endTime: at(HOUR), bucketSize: "hour" },
        recordCount: 0,
        totals: { totalAmount: 0 },
      },
    });
  });

  it("refuses a bad window naming the parameter (v2: problem objects, a malformed time is a 422)", async () => {
    const both = await api.get(`/v2/billing/pods?lastN=2&startTime=${at(0)}`);
    expect(both.status).toBe(400);
    expect(v2ResponseProblems("GET", "/v2/billing/pods", 400, both.body)).toEqual([]);
    expect(both.body.errors[0]).toMatch(/^\$\.lastN: cannot be combined with startTime or endTime/);
    const malformed = await api.get("/v2/billing?startTime=yesterday");
    expect(malformed.status).toBe(422);
    expect(v2ResponseProblems("GET", "/v2/billing", 422, malformed.body)).toEqual([]);
    expect((await api.get("/v2/billing?bucketSize=minute")).status).toBe(400);
    const v1 = await api.get("/v1/billing/pods?grouping=imageName");
    expect(v1.status).toBe(400);
    expect(v1.body.message).toMatch(/grouping = "imageName": must be one of podId, gpuTypeId/);
    const tooMany = await api.get(`/v1/billing/pods?bucketSize=hour&startTime=2020-01-01T00:00:00Z&endTime=${at(0)}`);
    expect(tooMany.body.message).toMatch(/spans more than 10000 buckets/);
  });
});
