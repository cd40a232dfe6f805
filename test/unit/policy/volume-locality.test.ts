import { describe, expect, it } from "vitest";
import policyPackage from "../../../policy/package.json";
import {
  type LinkedResource,
  type NamedProps,
  RESOURCE_TYPES,
  type ServerlessEndpointProps,
} from "../../../policy/resource-types";
import { UNKNOWN } from "../../../policy/unknown-values";
import { checkVolumeLocality, VOLUME_LOCALITY_POLICY, volumeLocalityPolicy } from "../../../policy/volume-locality";
import { runPolicies } from "./engine-harness";

const volume = (name: string, dataCenterId: unknown): LinkedResource => ({
  type: RESOURCE_TYPES.NetworkVolume,
  name,
  props: { dataCenterId },
});
const models = volume("models", "EU-RO-1");
const cache = volume("cache", "US-TX-3");
const ep = (
  props: ServerlessEndpointProps,
  dependsOn: Record<string, LinkedResource[]> = {},
): NamedProps<ServerlessEndpointProps> => ({ name: "api", props, dependsOn });
const mounts = (dataCenterIds?: string[]) =>
  ep({ networkVolumeId: UNKNOWN, dataCenterIds }, { networkVolumeId: [models] });
const SUBJECT = 'ServerlessEndpoint "api": dataCenterIds';

describe("volume locality: one volume of the stack", () => {
  it("accepts an endpoint restricted to the volume's data center", () => {
    expect(checkVolumeLocality([mounts(["EU-RO-1"])])).toEqual([]);
  });

  it("refuses a data center list without the volume's", () => {
    expect(checkVolumeLocality([mounts(["US-TX-3", "CA-MTL-1"])])).toEqual([
      `${SUBJECT} = ["US-TX-3","CA-MTL-1"]: leaves out EU-RO-1, so no worker mounts NetworkVolume "models", and lists CA-MTL-1, US-TX-3, where workers start without the endpoint's network volume; set dataCenterIds to ["EU-RO-1"]`,
    ]);
  });

  it("refuses a list that includes the volume's data center and others", () => {
    expect(checkVolumeLocality([mounts(["EU-RO-1", "US-TX-3"])])).toEqual([
      `${SUBJECT} = ["EU-RO-1","US-TX-3"]: lists US-TX-3, where workers start without the endpoint's network volume; set dataCenterIds to ["EU-RO-1"]`,
    ]);
  });

  it("refuses an empty list", () => {
    expect(checkVolumeLocality([mounts([])])).toEqual([
      `${SUBJECT} = []: leaves out EU-RO-1, so no worker mounts NetworkVolume "models"; set dataCenterIds to ["EU-RO-1"]`,
    ]);
  });

  it("refuses an unset list, the platform default being every data center", () => {
    expect(checkVolumeLocality([mounts(undefined)])).toEqual([
      `${SUBJECT} = unset (platform default: every data center): lets workers start in data centers without the endpoint's network volume (NetworkVolume "models" in EU-RO-1); set dataCenterIds to ["EU-RO-1"] (requireExplicitDataCenters)`,
    ]);
  });

  it("accepts an unset list when requireExplicitDataCenters is false, per stack too", () => {
    expect(checkVolumeLocality([mounts(undefined)], { requireExplicitDataCenters: false })).toEqual([]);
    const config = { byStack: { "dev*": { requireExplicitDataCenters: false } } };
    expect(checkVolumeLocality([mounts(undefined)], config, { stackName: "dev-1", stackTags: new Map() })).toEqual([]);
    expect(checkVolumeLocality([mounts(undefined)], config, { stackName: "prod", stackTags: new Map() })).toHaveLength(
      1,
    );
  });

  it("links the volume by the known id too, once the engine knows it", () => {
    const known = ep({ networkVolumeId: "vol-123", dataCenterIds: ["US-TX-3"] }, { networkVolumeId: [models] });
    expect(checkVolumeLocality([known])).toHaveLength(1);
  });
});

describe("volume locality: several volumes", () => {
  it("accepts a multi-region endpoint listing exactly its volumes' data centers", () => {
    const multi = ep(
      { networkVolumeIds: [UNKNOWN, UNKNOWN], dataCenterIds: ["US-TX-3", "EU-RO-1"] },
      {
        networkVolumeIds: [models, cache],
      },
    );
    expect(checkVolumeLocality([multi])).toEqual([]);
  });

  it("refuses a multi-region endpoint that leaves a volume's data center out", () => {
    const multi = ep(
      { networkVolumeIds: [UNKNOWN, UNKNOWN], dataCenterIds: ["US-TX-3"] },
      {
        networkVolumeIds: [models, cache],
      },
    );
    expect(checkVolumeLocality([multi])).toEqual([
      `${SUBJECT} = ["US-TX-3"]: leaves out EU-RO-1, so no worker mounts NetworkVolume "models"; set dataCenterIds to ["EU-RO-1","US-TX-3"]`,
    ]);
  });

  it("counts a volume named by both fields once", () => {
    const both = ep(
      { networkVolumeId: UNKNOWN, networkVolumeIds: [UNKNOWN] },
      {
        networkVolumeId: [models],
        networkVolumeIds: [models],
      },
    );
    expect(checkVolumeLocality([both])).toEqual([
      `${SUBJECT} = unset (platform default: every data center): lets workers start in data centers without the endpoint's network volume (NetworkVolume "models" in EU-RO-1); set dataCenterIds to ["EU-RO-1"] (requireExplicitDataCenters)`,
    ]);
  });
});

describe("volume locality: volumes outside the stack", () => {
  const external = { externalVolumeDataCenters: { "vol-shared": "US-KS-2" } };

  it("uses externalVolumeDataCenters for a known id without a volume of the stack behind it", () => {
    expect(checkVolumeLocality([ep({ networkVolumeId: "vol-shared", dataCenterIds: ["US-KS-2"] })], external)).toEqual(
      [],
    );
    expect(checkVolumeLocality([ep({ networkVolumeId: "vol-shared", dataCenterIds: ["EU-RO-1"] })], external)).toEqual([
      `${SUBJECT} = ["EU-RO-1"]: leaves out US-KS-2, so no worker mounts network volume "vol-shared" (externalVolumeDataCenters), and lists EU-RO-1, where workers start without the endpoint's network volume; set dataCenterIds to ["US-KS-2"]`,
    ]);
  });

  it("does not judge an endpoint whose only volume is of unknown whereabouts", () => {
    expect(checkVolumeLocality([ep({ networkVolumeId: "vol-elsewhere", dataCenterIds: ["EU-RO-1"] })])).toEqual([]);
    expect(checkVolumeLocality([ep({ networkVolumeId: "vol-elsewhere" })])).toEqual([]);
  });

  it("with a volume of unknown whereabouts, still reports a known volume left out, but no extra data center", () => {
    const mixed = ep(
      { networkVolumeIds: [UNKNOWN, "vol-elsewhere"], dataCenterIds: ["US-TX-3"] },
      {
        networkVolumeIds: [models],
      },
    );
    expect(checkVolumeLocality([mixed])).toEqual([
      `${SUBJECT} = ["US-TX-3"]: leaves out EU-RO-1, so no worker mounts NetworkVolume "models"; add EU-RO-1`,
    ]);
    const unset = ep({ networkVolumeIds: [UNKNOWN, "vol-elsewhere"] }, { networkVolumeIds: [models] });
    expect(checkVolumeLocality([unset])).toEqual([]);
  });

  it("does not guess when one id depends on several volumes", () => {
    const ambiguous = ep(
      { networkVolumeId: UNKNOWN, dataCenterIds: ["CA-MTL-1"] },
      { networkVolumeId: [models, cache] },
    );
    expect(checkVolumeLocality([ambiguous])).toEqual([]);
  });
});

describe("volume locality: endpoints without volumes and odd values", () => {
  it("ignores endpoints without a volume and values the provider's check reports", () => {
    expect(checkVolumeLocality([ep({ dataCenterIds: ["EU-RO-1"] }), ep({})])).toEqual([]);
    const odd = ep({ networkVolumeId: UNKNOWN, dataCenterIds: "EU-RO-1" as never }, { networkVolumeId: [models] });
    expect(checkVolumeLocality([odd])).toEqual([]);
    const noDc = ep({ networkVolumeId: UNKNOWN, dataCenterIds: ["EU-RO-1"] }, { networkVolumeId: [volume("v", 5)] });
    expect(checkVolumeLocality([noDc])).toEqual([]);
  });
});

describe("volume locality under the engine", () => {
  it("links a new volume through the engine's property dependencies during preview", async () => {
    const result = await runPolicies([volumeLocalityPolicy], {
      stack: "prod",
      resources: [
        { type: "NetworkVolume", name: "models", props: { size: 10, dataCenterId: "EU-RO-1" } },
        {
          type: "ServerlessEndpoint",
          name: "api",
          props: { networkVolumeId: UNKNOWN, dataCenterIds: ["US-TX-3"] },
          dependsOn: { networkVolumeId: ["models"] },
        },
      ],
    });
    expect(volumeLocalityPolicy.enforcementLevel).toBe("mandatory");
    expect(result.mandatory).toEqual([
      {
        policy: VOLUME_LOCALITY_POLICY,
        message: `${SUBJECT} = ["US-TX-3"]: leaves out EU-RO-1, so no worker mounts NetworkVolume "models", and lists US-TX-3, where workers start without the endpoint's network volume; set dataCenterIds to ["EU-RO-1"]`,
      },
    ]);
  });

  it("reports, as advisory, that it can't run during preview when the volume's data center is unknown", async () => {
    const result = await runPolicies([volumeLocalityPolicy], {
      resources: [
        { type: "NetworkVolume", name: "models", props: { size: 10, dataCenterId: UNKNOWN } },
        {
          type: "ServerlessEndpoint",
          name: "api",
          props: { networkVolumeId: UNKNOWN, dataCenterIds: ["US-TX-3"] },
          dependsOn: { networkVolumeId: ["models"] },
        },
      ],
    });
    expect(result.mandatory).toEqual([]);
    expect(result.advisory).toEqual([
      {
        policy: VOLUME_LOCALITY_POLICY,
        message: `can't run policy 'runpod-volume-locality' from policy pack 'runpod@v${policyPackage.version}' during preview: string value at .dataCenterId can't be known during preview`,
      },
    ]);
  });
});
