import { describe, expect, it } from "vitest";
import { forgetListings } from "../../../provider/listings";
import { networkVolumeProvider as volumes } from "../../../provider/network-volume-provider";
import { podProvider as pods } from "../../../provider/pod-provider";
import { serverlessEndpointProvider as endpoints } from "../../../provider/serverless-endpoint-provider";
import { API_VERSIONS, useProviderAgainstEmulator } from "./emulator-fixture";

/*
 * Reads as a refresh sends them: one per resource, at once, in a new provider process (listings
 * forgotten). Each resource type is read with one list; by id only what the list does not hold.
 */

const volume = (name: string) => ({ name, size: 10, dataCenterId: "EU-RO-1", __autoNamed: false });
const pod = (name: string) => ({
  name,
  imageName: "ubuntu:24.04",
  computeType: "CPU",
  cpuFlavorIds: ["cpu3m"],
  vcpuCount: 2,
  desiredStatus: "RUNNING",
  __autoNamed: false,
});

/** The emulator's counts by route, each path parameter written `{id}`. */
function byCall(counts: Record<string, number>): Record<string, number> {
  const out: Record<string, number> = {};
  for (const [route, n] of Object.entries(counts)) {
    const key = route.replace(/\/:[^/]+/g, "/{id}");
    out[key] = (out[key] ?? 0) + n;
  }
  return out;
}

describe.each(API_VERSIONS)("refresh reads through listings, on %s", (version) => {
  const fixture = useProviderAgainstEmulator(version);
  const path = (v1: string, v2: string) => (version === "v1" ? `/v1/${v1}` : `/v2/${v2}`);
  const VOLUMES = path("networkvolumes", "network-volumes");
  const PODS = path("pods", "pods");

  it("reads every volume and pod with one list per type, and a deleted one by id (gone)", async () => {
    const made = await Promise.all(["a", "b", "c"].map((n) => volumes.create(volume(`listed-${n}`))));
    const madePods = await Promise.all(["p", "q"].map((n) => pods.create(pod(`listed-${n}`))));
    await fixture.current.client.networkVolumes.update(made[0]!.id, { name: "renamed-by-hand" });
    await fixture.current.client.networkVolumes.delete(made[1]!.id);
    await fixture.current.client.pods.stop(madePods[0]!.id);
    forgetListings();
    await fixture.current.takeRequestCounts();

    const [read, readPods] = await Promise.all([
      Promise.all(made.map(({ id, outs }) => volumes.read(id, outs))),
      Promise.all(madePods.map(({ id, outs }) => pods.read(id, outs))),
    ]);
    expect(read.map((r) => r.props?.name)).toEqual(["renamed-by-hand", undefined, "listed-c"]);
    expect(read[1]).toEqual({});
    expect(readPods.map((r) => r.props?.desiredStatus)).toEqual(["EXITED", "RUNNING"]);
    expect(byCall(await fixture.current.takeRequestCounts())).toEqual({
      [`GET ${VOLUMES}`]: 1,
      [`GET ${VOLUMES}/{id}`]: 1,
      [`GET ${PODS}`]: 1,
    });
  });

  it("lists again after a change through the provider, and sees it", async () => {
    const { id, outs } = await volumes.create(volume("changed"));
    const other = await volumes.create(volume("other"));
    forgetListings();
    await volumes.read(id, outs);
    const { outs: grown } = await volumes.update(other.id, other.outs, { ...other.outs, size: 20 });
    // The update made the listing stale: the next read lists again and sees the new size.
    await fixture.current.takeRequestCounts();
    expect((await volumes.read(other.id, other.outs)).props).toMatchObject({ size: 20 });
    expect(grown).toMatchObject({ size: 20 });
    expect(byCall(await fixture.current.takeRequestCounts())).toEqual({ [`GET ${VOLUMES}`]: 1 });
  });

  it("a second read of the same resource lists again: a later refresh sees a change made since", async () => {
    const { id, outs } = await endpoints.create({
      templateId: "echo",
      name: "twice",
      gpuTypeIds: ["NVIDIA L4"],
      workersMax: 1,
      __autoNamed: false,
    });
    forgetListings();
    expect((await endpoints.read(id, outs)).props).toMatchObject({ workersMax: 1 });
    await fixture.current.client.endpoints.update(id, { workersMax: 4 });
    expect((await endpoints.read(id, outs)).props).toMatchObject({ workersMax: 4 });
  });
});
