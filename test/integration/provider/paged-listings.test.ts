import { describe, expect, it } from "vitest";
import { importRead } from "../../../plugin/import-read";
import { loadLiveCatalog } from "../../../policy/live-catalog";
import { CATALOG_FUNCTIONS } from "../../../provider/catalog-functions";
import { forgetListings } from "../../../provider/listings";
import { networkVolumeProvider as volumes } from "../../../provider/network-volume-provider";
import { templateProvider as templates } from "../../../provider/template-provider";
import { useProviderAgainstEmulator } from "./emulator-fixture";

/*
 * Management API v2's lists page; here the emulator's default page holds 2 items, so a stack's
 * resources sit on the second page and after. A refresh reads each kind with one listing of every
 * page (no GET per resource), and the lookup that keeps creates idempotent finds a lost create on
 * whatever page it sits. (v1's lists answer every resource at once: refresh-listings.test.ts.)
 */

const PAGE = 2;
// Many pages on the real clock would spend v2's default quota (60 a minute) within the file: off.
const volume = (name: string, autoNamed = false) => ({
  name,
  size: 10,
  dataCenterId: "EU-RO-1",
  __autoNamed: autoNamed,
});
const template = (name: string) => ({
  name,
  imageName: "ghcr.io/acme/worker:1.0",
  isServerless: true,
  __autoNamed: false,
});

describe("listings read every page of v2's lists", () => {
  const fixture = useProviderAgainstEmulator("v2", { pageSize: PAGE, managementQuota: false });
  const pagesOf = (n: number) => Math.ceil(n / PAGE);

  it("refreshes resources past the first page with no change, one request per page, no GET by id", async () => {
    // Others' resources first, so the stack's sit on later pages.
    const { client } = fixture.current;
    for (let i = 0; i < 3; i++) {
      await client.networkVolumes.create({ name: `not-ours-${i}`, size: 10, dataCenterId: "EU-RO-1" });
      await client.templates.create({ name: `not-ours-${i}`, imageName: "img:1", isServerless: true });
    }
    const stackVolumes = await Promise.all(["a", "b", "c"].map((n) => volumes.create(volume(`stack-${n}`))));
    const stackTemplates = await Promise.all(["a", "b"].map((n) => templates.create(template(`stack-${n}`))));
    forgetListings();
    await fixture.current.takeRequestCounts();

    const [readVolumes, readTemplates] = await Promise.all([
      Promise.all(stackVolumes.map(({ id, outs }) => volumes.read(id, outs))),
      Promise.all(stackTemplates.map(({ id, outs }) => templates.read(id, outs))),
    ]);
    expect(readVolumes.map((r) => r.props)).toEqual(stackVolumes.map((v) => v.outs));
    expect(readTemplates.map((r) => r.props)).toEqual(stackTemplates.map((t) => t.outs));
    // The refresh's diffs: nothing changed.
    for (const [i, v] of stackVolumes.entries()) {
      expect((await volumes.diff(v.id, v.outs, { ...volume(v.outs.name as string) })).changes).toBe(false);
      expect(readVolumes[i]!.id).toBe(v.id);
    }
    expect(await fixture.current.takeRequestCounts()).toEqual({
      "GET /v2/network-volumes": pagesOf(6),
      "GET /v2/templates": pagesOf(5),
    });
  });

  it("finds a create whose answer was lost on a later page, and adopts it: never made twice", async () => {
    const { client } = fixture.current;
    const before = (await client.networkVolumes.list()).length;
    expect(before).toBeGreaterThan(2 * PAGE);
    forgetListings();
    await fixture.current.setFaults([{ route: "POST /v2/network-volumes", lostResponseRate: 1 }]);
    try {
      await fixture.current.takeRequestCounts();
      const { id, outs } = await volumes.create(volume("stack-lost-create-7f3a", true));
      const counts = await fixture.current.takeRequestCounts();
      // Listed (every page) before the create, one create sent and its answer lost, listed again: found.
      expect(counts).toEqual({
        "POST /v2/network-volumes": 1,
        "GET /v2/network-volumes": pagesOf(before) + pagesOf(before + 1),
      });
      expect(outs).toMatchObject({ name: "stack-lost-create-7f3a", size: 10 });
      const all = await client.networkVolumes.list();
      expect(all).toHaveLength(before + 1);
      expect(all.filter((v) => v.name === "stack-lost-create-7f3a").map((v) => v.id)).toEqual([id]);
      expect(all.findIndex((v) => v.id === id)).toBeGreaterThanOrEqual(2 * PAGE);
    } finally {
      await fixture.current.setFaults([]);
    }
  });

  it("imports an endpoint whose template sits past the first page with the template it was made from", async () => {
    const { client } = fixture.current;
    for (let i = 0; i < 4; i++) {
      await client.templates.create({ name: `other-${i}`, imageName: `ghcr.io/acme/other:${i}`, isServerless: true });
    }
    const worker = await client.templates.create({
      name: "imported-worker",
      imageName: "ghcr.io/acme/worker:9.1",
      isServerless: true,
    });
    expect((await client.templates.list()).findIndex((t) => t.id === worker.id)).toBeGreaterThanOrEqual(2 * PAGE);
    const endpoint = await client.endpoints.create({
      name: "imported",
      templateId: worker.id,
      gpuTypeIds: ["NVIDIA L4"],
    });
    const imported = await importRead("ServerlessEndpoint", endpoint.id);
    expect(imported.inputs).toMatchObject({ templateId: worker.id, name: "imported" });
  });

  it("reads the whole catalog: the catalog functions and the policy pack's live checks", async () => {
    const { client, emulator } = fixture.current;
    const everyGpu = (await client.v2.catalog.gpus({ limit: 1000 })).map((g) => g.id);
    expect(everyGpu.length).toBeGreaterThan(2 * PAGE);
    const { gpuTypes } = await CATALOG_FUNCTIONS.getGpuTypes.read(client, {});
    expect(gpuTypes.map((g) => g.id)).toEqual(everyGpu);
    const live = await loadLiveCatalog(emulator.apiUrlV2, { RUNPOD_API_KEY: "provider-it-key" });
    expect([...live.gpuPools.keys()]).toEqual(everyGpu);
    expect(live.dataCenterTiers.size).toBe((await client.v2.catalog.dataCenters({ limit: 1000 })).length);
  });
});
