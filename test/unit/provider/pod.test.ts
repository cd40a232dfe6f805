import { afterEach, describe, expect, it } from "vitest";
import { takeUndeliveredNotices } from "../../../provider/engine-notice";
import { POD_FIELDS } from "../../../provider/field-rules";
import { podProvider } from "../../../provider/pod-provider";
import {
  envToSend,
  lockProblem,
  oldsInNewSpelling,
  planPodUpdate,
  podOutputs,
  resetNotice,
} from "../../../provider/pod-state";
import { UNKNOWN } from "../../../provider/property-values";
import { platformValueWarnings } from "../../../provider/platform-value-warnings";
import { configureDirect } from "../../../provider/provider-config";

const noChange = { changes: false, replaces: [], deleteBeforeReplace: false };
const update = { changes: true, replaces: [], deleteBeforeReplace: false };
const replace = (key: string) => ({ changes: true, replaces: [key], deleteBeforeReplace: false });

const URN = "urn:pulumi:dev::training::pulumi-nodejs:dynamic/runpod:Pod::gpu";
const state = {
  name: "gpu-abc1234",
  imageName: "pytorch/pytorch:2.4.0",
  gpuTypeIds: ["NVIDIA L4", "NVIDIA A40"],
  dataCenterIds: ["EU-RO-1", "US-TX-3"],
  ports: ["8888/http", "22/tcp"],
  env: { MODEL: "llama" },
  desiredStatus: "RUNNING",
  locked: false,
  costPerHr: 0.43,
  adjustedCostPerHr: 0.43,
};
const inputs = (over: Record<string, unknown> = {}) => {
  const { costPerHr: _c, adjustedCostPerHr: _a, ...rest } = state;
  return { ...rest, __urn: URN, ...over };
};

afterEach(() => configureDirect({}));

describe("Pod diff", () => {
  it("finds no change when nothing changed, and none when only sets are reordered", async () => {
    expect(await podProvider.diff("id", state, inputs())).toEqual(noChange);
    const reordered = inputs({ ports: ["22/tcp", "8888/http"], dataCenterIds: ["US-TX-3", "EU-RO-1"] });
    expect(await podProvider.diff("id", state, reordered)).toEqual(noChange);
  });

  it.each([
    // In place.
    ["name", "renamed", update],
    ["locked", true, update],
    ["desiredStatus", "EXITED", update],
    // Through the reset (v1) or PATCH (v2): the same pod, an update.
    ["imageName", "pytorch/pytorch:2.5.0", update],
    ["env", { MODEL: "mistral" }, update],
    ["ports", ["8888/http"], update],
    ["containerDiskInGb", 80, update],
    ["volumeInGb", 40, update],
    ["volumeMountPath", "/data", update],
    ["dockerStartCmd", ["python", "train.py"], update],
    ["imageName", UNKNOWN, update],
    // The machine: replaced.
    ["gpuTypeIds", ["NVIDIA A40", "NVIDIA L4"], replace("gpuTypeIds")],
    ["gpuCount", 2, replace("gpuCount")],
    ["computeType", "CPU", replace("computeType")],
    ["cloudType", "COMMUNITY", replace("cloudType")],
    ["dataCenterIds", ["US-TX-3"], replace("dataCenterIds")],
    ["interruptible", true, replace("interruptible")],
    ["networkVolumeId", "vol-1", replace("networkVolumeId")],
    ["cpuFlavorIds", ["cpu3m"], replace("cpuFlavorIds")],
    ["vcpuCount", 8, replace("vcpuCount")],
    ["templateId", "tpl-1", replace("templateId")],
    ["minRamPerGpu", 32, replace("minRamPerGpu")],
    ["minVcpuCountPerGpu", 8, replace("minVcpuCountPerGpu")],
    ["startSsh", true, replace("startSsh")],
  ])("%s -> %j is %j", async (key, value, expected) => {
    expect(await podProvider.diff("id", state, inputs({ [key]: value }))).toEqual(expected);
  });

  it("has a rule for every input, each in place, through a reset, or by replacement, never two", () => {
    const kinds = Object.entries(POD_FIELDS).map(([key, rule]) => [
      key,
      rule.replaces ? "replace" : rule.resets ? "reset" : "in place",
    ]);
    expect(Object.fromEntries(kinds.filter(([, kind]) => kind !== "replace"))).toEqual({
      name: "in place",
      locked: "in place",
      desiredStatus: "in place",
      imageName: "reset",
      env: "reset",
      ports: "reset",
      containerDiskInGb: "reset",
      volumeInGb: "reset",
      volumeMountPath: "reset",
      dockerEntrypoint: "reset",
      dockerStartCmd: "reset",
      containerRegistryAuthId: "reset",
      globalNetworking: "reset",
    });
    expect(Object.values(POD_FIELDS).every((rule) => !(rule.replaces && rule.resets))).toBe(true);
  });
});

describe("Pod placement filters", () => {
  it("reads a filter a state holds under v1's earlier name, its value kept, as no change; another value replaces", async () => {
    const earlier = { ...state, minRAMPerGPU: 32, minVCPUPerGPU: 4 };
    expect(await podProvider.diff("id", earlier, inputs({ minRamPerGpu: 32, minVcpuCountPerGpu: 4 }))).toEqual(
      noChange,
    );
    expect(await podProvider.diff("id", earlier, inputs({ minRamPerGpu: 64 }))).toEqual(replace("minRamPerGpu"));
    // Respelled beside a reset: the reset is still said.
    expect(
      resetNotice(
        oldsInNewSpelling(earlier, inputs({ minRamPerGpu: 32, ports: [] })),
        inputs({ minRamPerGpu: 32, ports: [] }),
        "v2",
      ),
    ).toMatch(/^Pod "gpu": changing ports updates through PATCH/);
  });

  it("takes the filters on both versions under one name, and refuses one below 1 at check", async () => {
    for (const version of ["v2", "v1"]) {
      configureDirect({ apiUrl: `http://127.0.0.1:1/${version}` });
      const low = await podProvider.check({}, { imageName: "x:1", minRamPerGpu: 0, minVcpuCountPerGpu: 2.5 });
      expect(low.failures, version).toEqual([
        { property: "minRamPerGpu", reason: "must be at least 1: leave it out for no filter" },
        { property: "minVcpuCountPerGpu", reason: "must be a whole number" },
      ]);
      const ok = await podProvider.check({}, { imageName: "x:1", minRamPerGpu: 64, minVcpuCountPerGpu: 8 });
      expect(ok.failures, version).toEqual([]);
    }
  });

  it("outputs the vCPUs and RAM the pod was given, whichever version answered them", () => {
    const pod = { id: "p1", name: "big", desiredStatus: "RUNNING", costPerHr: 0.4, vcpuCount: 16, memoryInGb: 125 };
    expect(podOutputs(pod, { minRamPerGpu: 100 })).toMatchObject({
      minRamPerGpu: 100,
      allocatedVcpuCount: 16,
      allocatedMemoryGb: 125,
    });
    expect(podOutputs({ id: "p2", name: "old" }, {})).not.toHaveProperty("allocatedVcpuCount");
  });
});

describe("Pod preview notice", () => {
  it("names the resource, the fields, the route of each version and what happens to the disks", () => {
    const news = inputs({ imageName: "pytorch/pytorch:2.5.0", env: { MODEL: "mistral" } });
    const tail = "the container restarts and its disk is wiped; the pod volume and network volume stay";
    expect(resetNotice(state, news, "v1")).toBe(
      `Pod "gpu": changing imageName, env updates through the reset update POST /pods/{id}/update (management API v1): ${tail}`,
    );
    expect(resetNotice(state, news, "v2")).toBe(
      `Pod "gpu": changing imageName, env updates through PATCH /pods/{id} (management API v2): ${tail}`,
    );
  });

  it("says nothing for in-place changes and replacements, and flags values unknown until apply", () => {
    expect(resetNotice(state, inputs({ name: "x", desiredStatus: "EXITED" }), "v2")).toBeUndefined();
    expect(resetNotice(state, inputs({ imageName: "x:1", gpuCount: 2 }), "v2")).toBeUndefined();
    expect(resetNotice(state, inputs({ imageName: UNKNOWN }), "v2")).toMatch(
      /changing imageName .* stay \(values not known until apply count as changed\)$/,
    );
  });

  it("is sent from diff for the resource's URN", async () => {
    takeUndeliveredNotices();
    configureDirect({ apiUrl: "http://127.0.0.1:1/v2" });
    await podProvider.diff("id", state, inputs({ ports: ["8888/http"] }));
    expect(takeUndeliveredNotices()).toEqual([
      {
        urn: URN,
        message:
          'Pod "gpu": changing ports updates through PATCH /pods/{id} (management API v2): the container restarts and its disk is wiped; the pod volume and network volume stay',
      },
    ]);
  });
});

describe("Pod update plan", () => {
  it("unlocks and renames first, resets, stops or starts, and locks last", () => {
    expect(
      planPodUpdate({ ...state, locked: true }, inputs({ locked: false, desiredStatus: "EXITED", name: "n" })),
    ).toEqual({
      inPlaceFirst: { name: "n", locked: false },
      reset: [],
      status: "stop",
      lockAfter: false,
    });
    expect(planPodUpdate({ ...state, desiredStatus: "EXITED" }, inputs({ locked: true, imageName: "i:2" }))).toEqual({
      inPlaceFirst: {},
      reset: ["imageName"],
      status: "start",
      lockAfter: true,
    });
  });

  it("refuses at check a stop or reset of a pod that is locked and stays locked, naming the field and rule", async () => {
    expect(lockProblem({ ...state, locked: true }, inputs({ locked: true, desiredStatus: "EXITED" }))).toBe(
      "the pod is locked and stays locked, and a locked pod cannot be stopped or reset, which desiredStatus = EXITED (a stop) needs: set locked to false in the same change (the provider unlocks before the change), or leave it unchanged",
    );
    expect(lockProblem({ ...state, locked: true }, inputs({ locked: false, desiredStatus: "EXITED" }))).toBeUndefined();
    configureDirect({ apiUrl: "http://127.0.0.1:1/v1" });
    const { failures } = await podProvider.check({ ...state, locked: true }, inputs({ locked: true, env: { A: "b" } }));
    expect(failures).toEqual([
      {
        property: "locked",
        reason:
          "true: the pod is locked and stays locked, and a locked pod cannot be stopped or reset, which env needs: set locked to false in the same change (the provider unlocks before the change), or leave it unchanged",
      },
    ]);
  });
});

describe("Pod check", () => {
  it("defaults desiredStatus to RUNNING and requires an image or a template", async () => {
    configureDirect({ apiUrl: "http://127.0.0.1:1/v2" });
    const { inputs: checked, failures } = await podProvider.check({}, { gpuTypeIds: ["NVIDIA L4"] });
    expect(checked).toMatchObject({ desiredStatus: "RUNNING" });
    expect(failures).toEqual([
      { property: "imageName", reason: "is required: give the image the pod runs (or a templateId that names one)" },
    ]);
  });

  it("names the field, value and rule of a bad input, and of an input the configured version lacks", async () => {
    configureDirect({ apiUrl: "http://127.0.0.1:1/v2" });
    const { failures } = await podProvider.check(
      {},
      { imageName: "a b", gpuCount: 0, desiredStatus: "STOPPED", interruptible: true, ports: ["99999/http"] },
    );
    expect(failures).toEqual([
      { property: "imageName", reason: "must not contain whitespace" },
      {
        property: "ports",
        reason: 'must be "<port>/<http|tcp>" with a port from 1 to 65535, e.g. "8888/http" (at ports[0])',
      },
      { property: "gpuCount", reason: "must be at least 1" },
      { property: "desiredStatus", reason: "must be RUNNING or EXITED" },
      {
        property: "interruptible",
        reason:
          "true: interruptible (spot) pods exist only on management API v1, and the API URL names v2: point runpod:apiUrl (or RUNPOD_API_URL) at a .../v1 URL, or remove interruptible",
      },
    ]);
    configureDirect({ apiUrl: "http://127.0.0.1:1/v1" });
    const v1 = await podProvider.check({}, { imageName: "x:1", startJupyter: true });
    expect(v1.failures.map((f) => f.property)).toEqual(["startJupyter"]);
  });
});

describe("Pod outputs and env", () => {
  it("keeps env the platform injected out of the outputs, and the generated password as its own output", () => {
    const pod = {
      id: "p1",
      name: "nb",
      image: "jupyter:1",
      desiredStatus: "RUNNING",
      costPerHr: 0.43,
      env: { MODEL: "llama", PUBLIC_KEY: "ssh-ed25519 AAAA me", JUPYTER_PASSWORD: "generated" },
      portMappings: { "22": 10022 },
      publicIp: "203.0.113.9",
    };
    expect(podOutputs(pod, { imageName: "jupyter:1", env: { MODEL: "llama" }, startJupyter: true })).toEqual({
      name: "nb",
      imageName: "jupyter:1",
      desiredStatus: "RUNNING",
      env: { MODEL: "llama" },
      startJupyter: true,
      costPerHr: 0.43,
      adjustedCostPerHr: 0.43,
      publicIp: "203.0.113.9",
      portMappings: { "22": 10022 },
      jupyterPassword: "generated",
    });
  });

  it("sends the program's env plus what the program never declared, dropping what it removed", () => {
    const actual = { MODEL: "llama", OLD: "1", PUBLIC_KEY: "ssh-ed25519 AAAA me" };
    expect(envToSend({ MODEL: "mistral" }, actual, { MODEL: "llama", OLD: "1" })).toEqual({
      MODEL: "mistral",
      PUBLIC_KEY: "ssh-ed25519 AAAA me",
    });
  });
});

describe("Pod platform values at preview", () => {
  it("knows the pod-only CPU flavors cpu3m and cpu5m, and warns about a flavor this release does not know", () => {
    expect(platformValueWarnings("Pod", { cpuFlavorIds: ["cpu3m", "cpu5m"] })).toEqual([]);
    expect(platformValueWarnings("Pod", { cpuFlavorIds: ["cpu9z"] })).toEqual([
      `cpuFlavorIds[0] = "cpu9z": is not in this release's list of CPU flavors; it may be newer than this release of runpod-iac, and the platform decides at \`pulumi up\``,
    ]);
    expect(platformValueWarnings("ServerlessEndpoint", { cpuFlavorIds: ["cpu3m"] })).toHaveLength(1);
  });
});
