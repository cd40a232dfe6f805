import { describe, expect, it } from "vitest";
import { NETWORK_VOLUME_FIELDS, SERVERLESS_ENDPOINT_FIELDS } from "../../../provider/field-rules";
import { networkVolumeProvider } from "../../../provider/network-volume-provider";
import { UNKNOWN } from "../../../provider/property-values";
import { configureDirect } from "../../../provider/provider-config";
import { serverlessEndpointProvider } from "../../../provider/serverless-endpoint-provider";

const noChange = { changes: false, replaces: [], deleteBeforeReplace: false };
const update = { changes: true, replaces: [], deleteBeforeReplace: false };
const replace = (key: string) => ({ changes: true, replaces: [key], deleteBeforeReplace: false });

const volumeState = { name: "v", size: 10, dataCenterId: "EU-RO-1", __provider: "x" };

describe("NetworkVolume diff", () => {
  it("finds no change when nothing changed, whatever __provider holds", async () => {
    expect(await networkVolumeProvider.diff("id", volumeState, { ...volumeState, __provider: "y" })).toEqual(noChange);
  });

  it.each([
    ["name", "renamed", update],
    ["size", 20, update],
    ["dataCenterId", "US-TX-3", replace("dataCenterId")],
    ["size", UNKNOWN, update],
    ["dataCenterId", UNKNOWN, replace("dataCenterId")],
    ["type", "HIGH_PERFORMANCE", replace("type")],
  ])("%s -> %j is %j", async (key, value, expected) => {
    expect(await networkVolumeProvider.diff("id", volumeState, { ...volumeState, [key]: value })).toEqual(expected);
  });

  it("covers every volume field with a rule", () => {
    expect(Object.keys(NETWORK_VOLUME_FIELDS).sort()).toEqual(["dataCenterId", "name", "size", "type"]);
  });
});

describe("ServerlessEndpoint diff", () => {
  const state = {
    templateId: "echo",
    name: "e",
    gpuTypeIds: ["NVIDIA L4", "NVIDIA A40"],
    dataCenterIds: ["EU-RO-1", "US-TX-3"],
    workersMin: 0,
    workersMax: 2,
    idleTimeout: 5,
    computeType: "GPU",
    createdAt: "2026-01-01T00:00:00Z",
    url: "http://x/v2/e",
  };

  it("compares only what the user set, ignoring defaults and computed outputs", async () => {
    expect(await serverlessEndpointProvider.diff("id", state, { templateId: "echo", name: "e" })).toEqual(noChange);
  });

  it("treats a reordered GPU priority list as an update on v1, and as no change on v2 (pools have no order)", async () => {
    const news = { ...state, gpuTypeIds: ["NVIDIA A40", "NVIDIA L4"] };
    try {
      configureDirect({ apiUrl: "https://rest.runpod.io/v1" });
      expect(await serverlessEndpointProvider.diff("id", state, news)).toEqual(update);
      configureDirect({ apiUrl: "https://api.runpod.io/v2" });
      expect(await serverlessEndpointProvider.diff("id", state, news)).toEqual(noChange);
      // The set still matters on v2: another card is a change.
      const other = { ...state, gpuTypeIds: ["NVIDIA A40", "NVIDIA L40"] };
      expect(await serverlessEndpointProvider.diff("id", state, other)).toEqual(update);
    } finally {
      configureDirect({});
    }
  });

  it("takes true and FLASHBOOT, false and OFF, unset type and QUEUE for the same setting", async () => {
    const old = { ...state, flashboot: true, type: undefined };
    expect(await serverlessEndpointProvider.diff("id", old, { ...old, flashboot: "FLASHBOOT" })).toEqual(noChange);
    expect(await serverlessEndpointProvider.diff("id", old, { ...old, type: "QUEUE" })).toEqual(noChange);
    expect(await serverlessEndpointProvider.diff("id", old, { ...old, flashboot: "PRIORITY_FLASHBOOT" })).toEqual(
      update,
    );
    expect(await serverlessEndpointProvider.diff("id", old, { ...old, type: "LOAD_BALANCER" })).toEqual(
      replace("type"),
    );
  });

  it("compares GPU pools and excluded types as sets", async () => {
    const pooled = { ...state, gpuTypeIds: undefined, gpuPools: ["ADA_24", "AMPERE_48"], excludedGpuTypes: ["A", "B"] };
    const reordered = { ...pooled, gpuPools: ["AMPERE_48", "ADA_24"], excludedGpuTypes: ["B", "A"] };
    expect(await serverlessEndpointProvider.diff("id", pooled, reordered)).toEqual(noChange);
    expect(await serverlessEndpointProvider.diff("id", pooled, { ...pooled, excludedGpuTypes: ["A"] })).toEqual(update);
  });

  it("ignores the order of data centers", async () => {
    const news = { ...state, dataCenterIds: ["US-TX-3", "EU-RO-1"] };
    expect(await serverlessEndpointProvider.diff("id", state, news)).toEqual(noChange);
  });

  it("replaces on a computeType change", async () => {
    expect(await serverlessEndpointProvider.diff("id", state, { ...state, computeType: "CPU" })).toEqual(
      replace("computeType"),
    );
  });

  it.each(
    Object.entries(SERVERLESS_ENDPOINT_FIELDS)
      .filter(([, rule]) => !rule.replaces)
      .map(([key]) => key),
  )("updates %s in place", async (key) => {
    const news = { ...state, [key]: UNKNOWN };
    expect(await serverlessEndpointProvider.diff("id", state, news)).toEqual(update);
  });

  it("ignores adoptId after creation", async () => {
    expect(await serverlessEndpointProvider.diff("id", state, { ...state, adoptId: "other" })).toEqual(noChange);
  });
});
