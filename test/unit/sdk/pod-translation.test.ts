import { describe, expect, it } from "vitest";
import { RequestValidationError, V2 } from "../../../sdk";
import {
  argsToStartCommand,
  desiredStatusFromV2,
  endpointBillingFromV2,
  podBillingFromV2,
  podCreateToV2,
  podFromV2,
  podMatchesFilters,
  podUpdateToV2,
  startCommandToArgs,
  v1FieldName,
  versionFieldProblems,
  volumeBillingFromV2,
} from "../../../sdk/internal";

const V2_POD: V2.Pod = {
  id: "pod1",
  name: "trainer",
  status: "RUNNING",
  actions: ["stop", "restart", "terminate"],
  image: "runpod/pytorch:2.1.0",
  args: 'python "train it.py"',
  disk: 50,
  env: { MODEL: "llama" },
  ports: ["8888/http", "22/tcp"],
  registry: null,
  mounts: { persistent: { size: 20, path: "/workspace" } },
  gpu: { id: "NVIDIA L4", count: 2 },
  cloud: "SECURE",
  dataCenterId: "EU-RO-1",
  cudaVersion: "12.8",
  ssh: { proxy: null, direct: null },
  template: null,
  cost: 0.86,
  locked: false,
  globalNetworking: { enabled: false },
  runtime: {
    uptime: 10,
    ports: [
      { private: 22, public: 10022, type: "tcp", ip: "203.0.113.9" },
      { private: 8888, public: null, type: "http", ip: null },
    ],
  },
  createdAt: "2026-06-01T00:00:00Z",
  startedAt: "2026-06-01T00:00:00Z",
};

describe("v2 pods in the version-neutral shape", () => {
  it("reads v2's pod with v1's names", () => {
    expect(podFromV2(V2_POD)).toEqual({
      id: "pod1",
      name: "trainer",
      image: "runpod/pytorch:2.1.0",
      desiredStatus: "RUNNING",
      status: "RUNNING",
      costPerHr: 0.86,
      adjustedCostPerHr: 0.86,
      gpu: { id: "NVIDIA L4", count: 2 },
      containerDiskInGb: 50,
      volumeInGb: 20,
      volumeMountPath: "/workspace",
      env: { MODEL: "llama" },
      ports: ["8888/http", "22/tcp"],
      portMappings: { "22": 10022 },
      publicIp: "203.0.113.9",
      locked: false,
      interruptible: false,
      templateId: null,
      containerRegistryAuthId: null,
      dockerStartCmd: ["python", "train it.py"],
      dataCenterId: "EU-RO-1",
      lastStartedAt: "2026-06-01T00:00:00Z",
    });
  });

  it("reads a stopped CPU pod on a network volume", () => {
    const pod = podFromV2({
      ...V2_POD,
      status: "EXITED",
      runtime: null,
      gpu: undefined,
      cpu: { id: "cpu5c", vcpuCount: 4, memory: 8 },
      mounts: { network: [{ volumeId: "vol1", path: "/data" }] },
    });
    expect(pod).toMatchObject({
      desiredStatus: "EXITED",
      portMappings: null,
      publicIp: null,
      cpuFlavorId: "cpu5c",
      vcpuCount: 4,
      memoryInGb: 8,
      volumeInGb: 0,
      volumeMountPath: "/data",
      networkVolume: { id: "vol1" },
    });
    expect(pod.gpu).toBeUndefined();
  });

  it("reads a GPU pod's allocation as v1's vCPUs and memory, and sends the placement filters in v2's gpu", () => {
    const pod = podFromV2({ ...V2_POD, gpu: { id: "NVIDIA L4", count: 2, vcpuCount: 32, memory: 250 } });
    expect(pod).toMatchObject({ gpu: { id: "NVIDIA L4", count: 2 }, vcpuCount: 32, memoryInGb: 250 });
    const [body] = podCreateToV2({
      imageName: "i",
      gpuTypeIds: ["NVIDIA L4"],
      minRamPerGpu: 100,
      minVcpuCountPerGpu: 12,
    });
    expect(body!.gpu).toEqual({ id: "NVIDIA L4", count: 1, minRamPerGpu: 100, minVcpuCountPerGpu: 12 });
    expect(podCreateToV2({ imageName: "i", gpuTypeIds: ["NVIDIA L4"] })[0]!.gpu).toEqual({ id: "NVIDIA L4", count: 1 });
  });

  it.each([
    ["PROVISIONING", "RUNNING"],
    ["STARTING", "RUNNING"],
    ["RUNNING", "RUNNING"],
    ["EXITED", "EXITED"],
    ["ERROR", "EXITED"],
    ["TERMINATED", "TERMINATED"],
  ])("reads status %s as desiredStatus %s", (status, desired) => {
    expect(desiredStatusFromV2(status)).toBe(desired);
  });

  it("filters as v1's list does", () => {
    const pod = podFromV2(V2_POD);
    expect(podMatchesFilters(pod, { gpuTypeId: ["NVIDIA L4"], computeType: "GPU", dataCenterId: ["EU-RO-1"] })).toBe(
      true,
    );
    expect(podMatchesFilters(pod, { computeType: "CPU" })).toBe(false);
    expect(podMatchesFilters(pod, { desiredStatus: "EXITED" })).toBe(false);
    expect(podMatchesFilters(pod, { imageName: "runpod/pytorch:2.1.0", name: "trainer", id: "pod1" })).toBe(true);
  });
});

describe("version-neutral inputs as v2 bodies", () => {
  it("makes one create body per GPU type, in the list's order, with v1's defaults", () => {
    const bodies = podCreateToV2({
      imageName: "img:1",
      gpuTypeIds: ["NVIDIA A40", "NVIDIA L4"],
      gpuCount: 2,
      allowedCudaVersions: ["12.8"],
      dataCenterIds: ["EU-RO-1"],
      cloudType: "COMMUNITY",
      dockerStartCmd: ["python", "-m", "train"],
      containerRegistryAuthId: "reg1",
      startSsh: true,
    });
    expect(bodies).toEqual([
      {
        name: "my pod",
        image: "img:1",
        ports: ["8888/http", "22/tcp"],
        disk: 50,
        registry: "reg1",
        args: "python -m train",
        cloud: "COMMUNITY",
        dataCenterIds: ["EU-RO-1"],
        startSsh: true,
        mounts: { persistent: { size: 20, path: "/workspace" } },
        gpu: { id: "NVIDIA A40", count: 2, allowedCudaVersions: ["12.8"] },
      },
      expect.objectContaining({ gpu: { id: "NVIDIA L4", count: 2, allowedCudaVersions: ["12.8"] } }),
    ]);
  });

  it("mounts a network volume at volumeMountPath instead of a pod volume; a CPU pod gets no pod volume", () => {
    const [withVolume] = podCreateToV2({
      imageName: "i",
      gpuTypeIds: ["NVIDIA L4"],
      networkVolumeId: "v1",
      volumeMountPath: "/data",
    });
    expect(withVolume!.mounts).toEqual({ network: [{ volumeId: "v1", path: "/data" }] });
    const cpu = podCreateToV2({ imageName: "i", computeType: "CPU", cpuFlavorIds: ["cpu3c", "cpu5c"], vcpuCount: 4 });
    expect(cpu.map((b) => [b.cpu, b.mounts])).toEqual([
      [{ id: "cpu3c", vcpuCount: 4 }, undefined],
      [{ id: "cpu5c", vcpuCount: 4 }, undefined],
    ]);
    expect(podCreateToV2({ imageName: "i", gpuTypeIds: ["NVIDIA L4"], volumeInGb: 0 })[0]!.mounts).toBeUndefined();
  });

  it("makes a PATCH body of the reset update, a mount kept within its kind", () => {
    expect(
      podUpdateToV2({
        imageName: "img:2",
        env: {},
        containerDiskInGb: 80,
        containerRegistryAuthId: "",
        dockerStartCmd: [],
        name: "n",
      }),
    ).toEqual({ image: "img:2", env: {}, disk: 80, registry: null, args: "", name: "n" });
    expect(podUpdateToV2({ volumeInGb: 40 }, V2_POD)).toEqual({
      mounts: { persistent: { size: 40, path: "/workspace" } },
    });
    const network = { ...V2_POD, mounts: { network: [{ volumeId: "v", path: "/a" }] } };
    expect(podUpdateToV2({ volumeMountPath: "/b" }, network)).toEqual({
      mounts: { network: [{ volumeId: "v", path: "/b" }] },
    });
    expect(() => podUpdateToV2({ volumeInGb: 40 }, network)).toThrow(
      /volumeInGb = 40: the pod mounts network volume v/,
    );
    const bare = { ...V2_POD, mounts: {} };
    expect(() => podUpdateToV2({ volumeInGb: 40 }, bare)).toThrow(RequestValidationError);
  });

  it("names v2's fields as v1 does in errors", () => {
    expect(v1FieldName("disk")).toBe("containerDiskInGb");
    expect(v1FieldName("mounts.persistent.size")).toBe("volumeInGb");
    expect(v1FieldName("mounts.network.0.path")).toBe("volumeMountPath");
    expect(v1FieldName("gpu.allowedCudaVersions.1")).toBe("allowedCudaVersions.1");
    expect(v1FieldName("cpu.vcpuCount")).toBe("vcpuCount");
    expect(v1FieldName("name")).toBe("name");
  });

  it("writes a start command as args and reads it back, arguments with spaces or quotes included", () => {
    for (const command of [[], ["python", "-m", "x"], ["sh", "-c", 'echo "hi there"'], ["a\\b", ""]]) {
      expect(argsToStartCommand(startCommandToArgs(command))).toEqual(command);
    }
    expect(argsToStartCommand("  run   --fast ")).toEqual(["run", "--fast"]);
  });
});

describe("inputs only one version has", () => {
  it("passes values that mean 'not used' and names the rest with both versions", () => {
    expect(
      versionFieldProblems("pod", "v2", {
        interruptible: false,
        countryCodes: [],
        gpuTypePriority: "custom",
        dataCenterPriority: "availability",
      }),
    ).toEqual([]);
    expect(
      versionFieldProblems("pod", "v2", { countryCodes: ["FR"], gpuTypePriority: "availability" }).map((p) => p.field),
    ).toEqual(["countryCodes", "gpuTypePriority"]);
    expect(versionFieldProblems("pod", "v1", { startSsh: false, minCudaVersion: "12.4" })).toEqual([
      expect.objectContaining({
        field: "minCudaVersion",
        rule: expect.stringMatching(/only on management API v2, and the API URL names v1/),
      }),
    ]);
    expect(versionFieldProblems("endpointBilling", "v2", { grouping: "endpointId", gpuTypeId: [] })).toEqual([]);
    expect(versionFieldProblems("networkVolumeBilling", "v1", { networkVolumeId: "v" })).toHaveLength(1);
  });
});

describe("v2 billing in v1's record shape", () => {
  const window = { startTime: "2026-06-01T00:00:00Z", endTime: "2026-06-02T00:00:00Z" };
  const meta = { query: { ...window, bucketSize: "day" }, recordCount: 0 };

  it("maps pod and serverless records per resource and bucket", () => {
    const pods = podBillingFromV2({
      records: [{ ...window, podId: "p", totalAmount: 1.5, gpuAmount: 1.5, cpuAmount: 0, diskAmount: 0 }],
      metadata: {
        ...meta,
        uniquePodCount: 1,
        totals: { totalAmount: 1.5, gpuAmount: 1.5, cpuAmount: 0, diskAmount: 0 },
      },
    });
    expect(pods).toEqual([{ time: window.startTime, amount: 1.5, podId: "p" }]);
    const totals = { totalAmount: 2, gpuAmount: 2, cpuAmount: 0, diskAmount: 0, feeAmount: 0 };
    const serverless = endpointBillingFromV2({
      records: [{ ...window, serverlessId: "e", ...totals }],
      metadata: { ...meta, uniqueServerlessCount: 1, totals },
    });
    expect(serverless).toEqual([{ time: window.startTime, amount: 2, endpointId: "e" }]);
  });

  it("sums volumes per bucket, the high-performance share apart", () => {
    const totals = { totalAmount: 0, standardAmount: 0, highPerformanceAmount: 0 };
    const records = volumeBillingFromV2({
      records: [
        { ...window, networkVolumeId: "a", totalAmount: 1, standardAmount: 1, highPerformanceAmount: 0 },
        { ...window, networkVolumeId: "b", totalAmount: 3, standardAmount: 0, highPerformanceAmount: 3 },
        {
          startTime: "2026-05-31T00:00:00Z",
          endTime: window.startTime,
          networkVolumeId: "a",
          totalAmount: 1,
          standardAmount: 1,
          highPerformanceAmount: 0,
        },
      ],
      metadata: { ...meta, uniqueNetworkVolumeCount: 2, totals },
    });
    expect(records).toEqual([
      { time: "2026-05-31T00:00:00Z", amount: 1, highPerformanceStorageAmount: 0 },
      { time: window.startTime, amount: 4, highPerformanceStorageAmount: 3 },
    ]);
  });
});

describe("v2 schemas", () => {
  it("reads a Server-Sent Events text as log events", () => {
    const text =
      'id: 2026-06-01T12:02:03Z/000000000001\ndata: {"ts":"2026-06-01T12:02:03Z","source":"container","line":"Model loaded."}\n\n: comment\n\n';
    expect(V2.parsePodLogEvents(text)).toEqual([
      {
        id: "2026-06-01T12:02:03Z/000000000001",
        ts: "2026-06-01T12:02:03Z",
        source: "container",
        line: "Model loaded.",
      },
    ]);
  });
});
