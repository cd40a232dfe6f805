import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { useTestEmulator } from "./helpers";
import { v2ResponseProblems } from "./openapi-v2";

const ctx = useTestEmulator({ rateLimits: false }, "file");
const { api } = ctx;

/** Pod, cluster, key and billing writes the fuzzer sends random bodies to. */
const WRITES: [string, string, string][] = [
  ["POST", "/v1/pods", ""],
  ["PATCH", "/v1/pods/{pod}", ""],
  ["POST", "/v1/pods/{pod}/update", ""],
  ["POST", "/v2/pods", "/v2/pods"],
  ["PATCH", "/v2/pods/{pod}", "/v2/pods/{id}"],
  ["POST", "/v2/pods/{pod}/action", "/v2/pods/{id}/action"],
  ["POST", "/v2/clusters", "/v2/clusters"],
  ["PUT", "/v2/account/ssh-keys", "/v2/account/ssh-keys"],
];

/** A body that may look like a pod create: known field names with random values, or anything at all. */
const body = fc.oneof(
  fc.anything(),
  fc.record(
    {
      name: fc.anything(),
      imageName: fc.anything(),
      image: fc.anything(),
      gpuTypeIds: fc.array(fc.oneof(fc.constant("NVIDIA L4"), fc.string())),
      gpuCount: fc.oneof(fc.integer({ min: -2, max: 12 }), fc.anything()),
      gpu: fc.record({ id: fc.oneof(fc.constant("NVIDIA L4"), fc.string()), count: fc.integer({ min: -1, max: 9 }) }),
      cpu: fc.record({ id: fc.string(), vcpuCount: fc.integer({ min: 0, max: 70 }) }),
      mounts: fc.anything(),
      compute: fc.record({ gpuTypeId: fc.string(), gpuCountPerPod: fc.integer(), podCount: fc.integer() }),
      action: fc.oneof(fc.constantFrom("start", "stop", "restart"), fc.string()),
      keys: fc.array(fc.string()),
      locked: fc.anything(),
      env: fc.anything(),
    },
    { requiredKeys: [] },
  ),
);

describe("random bodies at the pod, cluster and key routes", () => {
  it("never make the emulator fail, every v2 answer conforms, and a refusal makes nothing", async () => {
    const pod = await api.post("/v1/pods", {
      imageName: "img:1",
      gpuTypeIds: ["NVIDIA L4"],
      dataCenterIds: ["EU-RO-1"],
    });
    // What a refused request must not have made: pods, clusters, or GPUs taken from the stock.
    const made = async () => {
      const state = (await api.get("/_emulator/state")).body;
      const gpus = await api.get("/v2/catalog/gpus/NVIDIA%20L4?include=AVAILABILITY&product=POD");
      return JSON.stringify([state.pods.length, state.clusters.length, gpus.body.dataCenters]);
    };
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...WRITES), body, async ([method, path, template], sent) => {
        const before = await made();
        const res = await api.send(method, path.replace("{pod}", pod.body.id), sent === undefined ? null : sent);
        expect(res.status).toBeLessThan(500);
        if (template)
          expect(v2ResponseProblems(method, template, res.status, res.body === "" ? undefined : res.body)).toEqual([]);
        if (res.status >= 400) expect(await made()).toBe(before);
      }),
      { numRuns: 300 },
    );
    expect((await api.get(`/v2/pods/${pod.body.id}`)).status).toBe(200);
  });
});
