import { afterEach, describe, expect, it } from "vitest";
import { clusterTypeWarning } from "../../../provider/cluster";
import { clusterProvider } from "../../../provider/cluster-provider";
import { clusterCreateBody, clusterOutputs, replaceNotice } from "../../../provider/cluster-state";
import { takeUndeliveredNotices } from "../../../provider/engine-notice";
import { CLUSTER_FIELDS } from "../../../provider/field-rules";
import { platformValueWarnings } from "../../../provider/platform-value-warnings";
import { UNKNOWN } from "../../../provider/property-values";
import { configureDirect } from "../../../provider/provider-config";
import type * as V2 from "../../../sdk/schemas/v2";

const noChange = { changes: false, replaces: [], deleteBeforeReplace: false };
const update = { changes: true, replaces: [], deleteBeforeReplace: false };
const replace = (key: string) => ({ changes: true, replaces: [key], deleteBeforeReplace: false });

const URN = "urn:pulumi:dev::training::pulumi-nodejs:dynamic/runpod:Cluster::train";
const HF_TOKEN = "hf_UnitClusterSecret42";
const state = {
  name: "train-abc1234",
  type: "TRAINING",
  gpuTypeId: "NVIDIA L4",
  gpuCountPerPod: 1,
  podCount: 2,
  imageName: "trainer:1.0",
  env: { HF_TOKEN },
  ports: ["8888/http", "22/tcp"],
  dataCenterIds: ["EU-RO-1", "US-TX-3"],
  dataCenterId: "EU-RO-1",
  pods: [{ id: "p0", rank: 0 }],
  costPerHr: 0.86,
};
const inputs = (over: Record<string, unknown> = {}) => {
  const { dataCenterId: _d, pods: _p, costPerHr: _c, ...rest } = state;
  return { ...rest, __urn: URN, ...over };
};

afterEach(() => configureDirect({}));

describe("Cluster diff", () => {
  it("finds no change when nothing changed, and none when only sets are reordered", async () => {
    expect(await clusterProvider.diff("id", state, inputs())).toEqual(noChange);
    const reordered = inputs({ ports: ["22/tcp", "8888/http"], dataCenterIds: ["US-TX-3", "EU-RO-1"] });
    expect(await clusterProvider.diff("id", state, reordered)).toEqual(noChange);
  });

  it.each([
    ["name", "renamed", update],
    ["type", "SLURM", replace("type")],
    ["gpuTypeId", "NVIDIA A40", replace("gpuTypeId")],
    ["gpuCountPerPod", 2, replace("gpuCountPerPod")],
    ["podCount", 4, replace("podCount")],
    ["imageName", "trainer:1.1", replace("imageName")],
    ["env", { HF_TOKEN, EPOCHS: "3" }, replace("env")],
    ["ports", ["22/tcp"], replace("ports")],
    ["containerDiskInGb", 80, replace("containerDiskInGb")],
    ["volumeInGb", 40, replace("volumeInGb")],
    ["volumeMountPath", "/data", replace("volumeMountPath")],
    ["dockerStartCmd", ["torchrun", "train.py"], replace("dockerStartCmd")],
    ["networkVolumeId", "vol-1", replace("networkVolumeId")],
    ["dataCenterIds", ["US-TX-3"], replace("dataCenterIds")],
    ["startSsh", true, replace("startSsh")],
    ["startJupyter", true, replace("startJupyter")],
    ["podCount", UNKNOWN, replace("podCount")],
  ])("%s -> %j is %j", async (key, value, expected) => {
    expect(await clusterProvider.diff("id", state, inputs({ [key]: value }))).toEqual(expected);
  });

  it("changes only the name in place: the platform's one update is a rename", () => {
    const inPlace = Object.entries(CLUSTER_FIELDS).filter(([, rule]) => !rule.replaces);
    expect(inPlace.map(([key]) => key)).toEqual(["name"]);
  });
});

describe("Cluster preview notice", () => {
  it("names the resource and the fields, says why and what happens to the pods and the stock", () => {
    expect(replaceNotice(state, inputs({ podCount: 4, imageName: "trainer:1.1" }))).toBe(
      'Cluster "train": changing podCount, imageName replaces the cluster: management API v2 fixes a cluster\'s type, shape and container settings at creation and changes only its name in place (PATCH /v2/clusters/{id}); a new cluster is placed, then the old one is deleted with its member pods, their container disks and pod volumes (a network volume stays); until then the stock must hold both, unless the resource sets deleteBeforeReplace',
    );
  });

  it("says nothing for a rename, flags values unknown until apply, and never shows an env value", () => {
    expect(replaceNotice(state, inputs({ name: "renamed" }))).toBeUndefined();
    const notice = replaceNotice(state, inputs({ env: { HF_TOKEN: "hf_Rotated99" }, gpuTypeId: UNKNOWN }));
    expect(notice).toMatch(
      /^Cluster "train": changing gpuTypeId, env replaces the cluster: .*\(values not known until apply count as changed\)$/,
    );
    expect(notice).not.toContain("hf_");
  });

  it("is sent from diff for the resource's URN", async () => {
    takeUndeliveredNotices();
    await clusterProvider.diff("id", state, inputs({ podCount: 3 }));
    await clusterProvider.diff("id", state, inputs({ name: "renamed" }));
    const sent = takeUndeliveredNotices();
    expect(sent).toHaveLength(1);
    expect(sent[0]).toMatchObject({
      urn: URN,
      message: expect.stringMatching(/^Cluster "train": changing podCount replaces/),
    });
  });
});

describe("Cluster check", () => {
  it("fails at preview on management API v1, naming the resource, the version and the setting", async () => {
    configureDirect({ apiUrl: "http://127.0.0.1:1/v1" });
    const { failures } = await clusterProvider.check({}, inputs());
    expect(failures).toEqual([
      {
        property: "",
        reason:
          "Cluster exists only on management API v2, and the API URL names v1: point runpod:apiUrl (or RUNPOD_API_URL) at a .../v2 URL, or remove the Cluster",
      },
    ]);
  });

  it("judges the container settings by the pod's rules and the shape by v2's bounds, never repeating a secret", async () => {
    configureDirect({ apiUrl: "http://127.0.0.1:1/v2" });
    const { failures } = await clusterProvider.check(
      {},
      inputs({
        type: "",
        podCount: 1,
        gpuCountPerPod: 0.5,
        imageName: undefined,
        ports: ["99999/http"],
        env: { "BAD-NAME": HF_TOKEN },
        dataCenterIds: ["EU-RO-1", "EU-RO-1"],
      }),
    );
    expect(failures).toEqual([
      { property: "imageName", reason: "is required" },
      {
        property: "env",
        reason:
          "is not a valid environment variable name (letters, digits and _, not starting with a digit) (at env[BAD-NAME])",
      },
      {
        property: "ports",
        reason: 'must be "<port>/<http|tcp>" with a port from 1 to 65535, e.g. "8888/http" (at ports[0])',
      },
      { property: "dataCenterIds", reason: "repeats index 0; each data center may appear once (at dataCenterIds[1])" },
      { property: "type", reason: "must not be empty" },
      { property: "gpuCountPerPod", reason: "must be a whole number" },
      { property: "podCount", reason: "must be at least 2" },
    ]);
    expect(JSON.stringify(failures)).not.toContain(HF_TOKEN);
    const big = await clusterProvider.check({}, inputs({ podCount: 251 }));
    expect(big.failures).toEqual([{ property: "podCount", reason: "must be at most 250" }]);
  });

  it("gives an auto-named replacement the next name of its series, and keeps the name of a rename", async () => {
    configureDirect({ apiUrl: "http://127.0.0.1:1/v2" });
    const auto = { ...state, name: "train-abc1234", __autoNamed: true };
    const replaced = await clusterProvider.check(
      auto,
      inputs({ name: "train-abc1234", __autoNamed: true, podCount: 4 }),
    );
    expect(replaced.inputs).toMatchObject({ name: "train-abc1234-1", podCount: 4 });
    const same = await clusterProvider.check(auto, inputs({ name: "train-abc1234", __autoNamed: true }));
    expect(same.inputs).toMatchObject({ name: "train-abc1234" });
  });
});

describe("Cluster create body and outputs", () => {
  it("sends the container settings as a pod's create does (with a pod's defaults), the type and the shape", () => {
    expect(clusterCreateBody({ ...inputs(), dockerStartCmd: ["torchrun", "--nproc-per-node=1", "train.py"] })).toEqual({
      name: "train-abc1234",
      type: "TRAINING",
      compute: { gpuTypeId: "NVIDIA L4", gpuCountPerPod: 1, podCount: 2 },
      image: "trainer:1.0",
      env: { HF_TOKEN },
      ports: ["8888/http", "22/tcp"],
      disk: 50,
      args: "torchrun --nproc-per-node=1 train.py",
      dataCenterIds: ["EU-RO-1", "US-TX-3"],
      mounts: { persistent: { size: 20, path: "/workspace" } },
    });
    const onVolume = clusterCreateBody(
      inputs({ networkVolumeId: "vol-1", volumeMountPath: "/data", ports: undefined }),
    );
    expect(onVolume).toMatchObject({
      mounts: { network: [{ volumeId: "vol-1", path: "/data" }] },
      ports: ["8888/http", "22/tcp"],
    });
  });

  it("outputs the declared inputs, the shape as read, the members by rank with their addresses, and the summed cost", () => {
    const cluster = {
      id: "c1",
      name: "renamed-outside",
      type: "TRAINING",
      compute: { gpuTypeId: "NVIDIA L4", gpuCountPerPod: 1, podCount: 2 },
      dataCenterId: "EU-RO-1",
      pods: { total: 2, byStatus: { RUNNING: 2 } },
      createdAt: "2026-01-01T00:00:00Z",
    } as V2.Cluster;
    const member = (id: string, rank: number, extra: Partial<V2.Pod>): V2.Pod =>
      ({
        id,
        name: `${id}`,
        status: "RUNNING",
        image: "trainer:1.0",
        args: "",
        disk: 50,
        env: {},
        ports: ["22/tcp"],
        mounts: {},
        cost: 0.43,
        ssh: { proxy: null, direct: null },
        runtime: null,
        cluster: { id: "c1", rank, ip: `10.65.0.${rank + 2}` },
        ...extra,
      }) as unknown as V2.Pod;
    const members = [
      member("p1", 1, {}),
      member("p0", 0, { runtime: { ports: [{ private: 22, public: 10022, type: "tcp", ip: "203.0.113.9" }] } }),
    ];
    expect(clusterOutputs(cluster, members, inputs())).toEqual({
      name: "renamed-outside",
      type: "TRAINING",
      gpuTypeId: "NVIDIA L4",
      gpuCountPerPod: 1,
      podCount: 2,
      imageName: "trainer:1.0",
      env: { HF_TOKEN },
      ports: ["8888/http", "22/tcp"],
      dataCenterIds: ["EU-RO-1", "US-TX-3"],
      dataCenterId: "EU-RO-1",
      pods: [
        { id: "p0", rank: 0, clusterIp: "10.65.0.2", publicIp: "203.0.113.9", portMappings: { "22": 10022 } },
        { id: "p1", rank: 1, clusterIp: "10.65.0.3" },
      ],
      costPerHr: 0.86,
    });
  });
});

describe("Cluster warnings at preview", () => {
  it("warns about a GPU type, a data center or a cluster type this release does not know, suggesting the near one", () => {
    expect(platformValueWarnings("Cluster", { gpuTypeId: "nvidia l4", dataCenterIds: ["EU-RO-1"] })).toEqual([
      'gpuTypeId = "nvidia l4": is not in this release\'s list of GPU types (did you mean "NVIDIA L4"?); it may be newer than this release of runpod-iac, and the platform decides at `pulumi up`',
    ]);
    expect(clusterTypeWarning("TRAINING")).toBeUndefined();
    expect(clusterTypeWarning("slurm")).toBe(
      'type = "slurm": is not in this release\'s list of cluster types (TRAINING, SLURM, RAY, APPLICATION) (did you mean "SLURM"?); it may be newer than this release of runpod-iac, and the platform decides at `pulumi up`',
    );
  });
});
