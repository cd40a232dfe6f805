import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createE2EStack, type E2EApiVersion, type E2EStack } from "./harness";

/**
 * The real Pulumi engine against the emulator, one stack through its whole life, on each
 * management API version (v2 first; v1 where the GPU list is a priority order and a
 * storage tier is refused at preview, and where its reads meet drift and deletes made outside;
 * the steps that do not depend on the version run on v2 only). The steps build on each other, so
 * they run in order.
 */
const out = (outputs: Record<string, { value: unknown }>, key: string) => outputs[key]?.value;

function describeLifecycle(version: E2EApiVersion): void {
  describe(`a stack through the real Pulumi engine, on ${version}`, { timeout: 180_000 }, () => {
    let e: E2EStack;
    beforeAll(async () => {
      e = await createE2EStack(
        "stack",
        { "e2e:volumeSize": { value: "10" } },
        { label: "lifecycle", apiVersion: version },
      );
    });
    afterAll(async () => e?.dispose());
    /** What the platform lists: v1 keeps the priority order, v2 lists what the pools rent in catalog order. */
    const listed = (declared: string[]) => (version === "v1" ? declared : ["NVIDIA L4", "NVIDIA A40"]);

    let volumeId: string;
    let endpointId: string;

    it("creates a volume and an endpoint, and the emulator holds exactly them", async () => {
      const result = await e.stack.up();
      expect(result.summary.result).toBe("succeeded");
      expect(result.summary.resourceChanges).toMatchObject({ create: 3 });
      volumeId = String(out(result.outputs, "volumeId"));
      endpointId = String(out(result.outputs, "endpointId"));
      const volumes = await e.client.networkVolumes.list();
      const endpoints = await e.client.endpoints.list();
      expect(volumes).toEqual([
        {
          id: volumeId,
          name: out(result.outputs, "volumeName"),
          size: 10,
          dataCenterId: "EU-RO-1",
          ...(version === "v2" ? { type: "STANDARD" } : {}),
        },
      ]);
      expect(endpoints.map((x) => x.id)).toEqual([endpointId]);
      expect(endpoints[0]).toMatchObject({
        networkVolumeId: volumeId,
        gpuTypeIds: listed(["NVIDIA L4", "NVIDIA A40"]),
      });
      expect(out(result.outputs, "gpuTypeIds")).toEqual(["NVIDIA L4", "NVIDIA A40"]);
      expect(out(result.outputs, "endpointUrl")).toBe(`${e.emulator.queueUrl}/${endpointId}`);
      expect(String(out(result.outputs, "volumeName"))).toMatch(/^vol-[0-9a-z]{7}$/);
    });

    it("previews the unchanged stack with no changes and zero API requests", async () => {
      const before = await e.requestCount();
      const preview = await e.stack.preview();
      expect(preview.changeSummary).toEqual({ same: 3 });
      expect(await e.requestCount()).toBe(before);
    });

    it("finds a change in a reordered GPU list on v1 (a priority order) and none on v2 (pools have no order)", async () => {
      await e.stack.setConfig("e2e:gpuTypeIds", { value: JSON.stringify(["NVIDIA A40", "NVIDIA L4"]) });
      const before = await e.requestCount();
      const preview = await e.stack.preview();
      expect(preview.changeSummary).toEqual(version === "v1" ? { same: 2, update: 1 } : { same: 3 });
      expect(await e.requestCount()).toBe(before);
    });

    it("grows, renames, reorders the GPU list and changes workers in place, keeping the ids", async () => {
      await e.stack.setAllConfig({
        "e2e:volumeSize": { value: "25" },
        "e2e:volumeName": { value: "weights" },
        "e2e:gpuTypeIds": { value: JSON.stringify(["NVIDIA A40", "NVIDIA L4"]) },
        "e2e:workersMax": { value: "4" },
      });
      const result = await e.stack.up();
      expect(result.summary.resourceChanges).toMatchObject({ update: 2, same: 1 });
      expect(out(result.outputs, "volumeId")).toBe(volumeId);
      expect(out(result.outputs, "endpointId")).toBe(endpointId);
      expect(await e.client.networkVolumes.get(volumeId)).toMatchObject({ name: "weights", size: 25 });
      expect(await e.client.endpoints.get(endpointId)).toMatchObject({
        gpuTypeIds: listed(["NVIDIA A40", "NVIDIA L4"]),
        workersMax: 4,
      });
      expect(out(result.outputs, "gpuTypeIds")).toEqual(["NVIDIA A40", "NVIDIA L4"]);
    });

    it(
      version === "v1"
        ? "refuses a storage tier at preview on v1, naming the field and the version, and sends nothing"
        : "replaces the volume for another storage tier on v2 (a tier is fixed at creation)",
      async () => {
        await e.stack.setConfig("e2e:volumeType", { value: "HIGH_PERFORMANCE" });
        if (version === "v1") {
          const before = await e.requestCount();
          const err = await e.stack.preview().catch((x: Error) => x);
          expect(err).toBeInstanceOf(Error);
          expect(String((err as Error).message)).toContain(
            'property type value {HIGH_PERFORMANCE} has a problem: "HIGH_PERFORMANCE": storage tiers (STANDARD, HIGH_PERFORMANCE) exist only on management API v2, and the API URL names v1',
          );
          expect(await e.requestCount()).toBe(before);
        } else {
          const result = await e.stack.up();
          expect(result.summary.resourceChanges).toMatchObject({ replace: 1 });
          const replaced = String(out(result.outputs, "volumeId"));
          expect(replaced).not.toBe(volumeId);
          expect(await e.client.networkVolumes.get(replaced)).toMatchObject({ type: "HIGH_PERFORMANCE", size: 25 });
          volumeId = replaced;
        }
        await e.stack.removeConfig("e2e:volumeType");
        if (version === "v2") await e.stack.setConfig("e2e:volumeType", { value: "HIGH_PERFORMANCE" });
      },
    );

    // Where the versions do not differ (the check's refusal, a replacement's create and delete),
    // v2 alone: v1's reads, drift and deletes outside are the steps below, on both.
    if (version === "v2") {
      it("refuses to shrink the volume at preview with the check's message, leaving the emulator untouched", async () => {
        await e.stack.setConfig("e2e:volumeSize", { value: "5" });
        const before = await e.requestCount();
        const err = await e.stack.preview().catch((x: Error) => x);
        expect(err).toBeInstanceOf(Error);
        expect(String((err as Error).message)).toContain(
          "size can only grow: the volume has 25 GB and 5 GB was requested; network volumes cannot shrink",
        );
        expect(await e.requestCount()).toBe(before);
        expect(await e.client.networkVolumes.get(volumeId)).toMatchObject({ size: 25 });
        await e.stack.setConfig("e2e:volumeSize", { value: "25" });
      });

      it("replaces the volume when its data center changes, and the old one is gone", async () => {
        await e.stack.setConfig("e2e:dataCenterId", { value: "US-TX-3" });
        const result = await e.stack.up();
        expect(result.summary.resourceChanges).toMatchObject({ replace: 1 });
        const newVolumeId = String(out(result.outputs, "volumeId"));
        expect(newVolumeId).not.toBe(volumeId);
        await expect(e.client.networkVolumes.get(volumeId)).rejects.toMatchObject({ code: "not_found" });
        expect(await e.client.networkVolumes.get(newVolumeId)).toMatchObject({ dataCenterId: "US-TX-3", size: 25 });
        expect(await e.client.endpoints.get(endpointId)).toMatchObject({ networkVolumeId: newVolumeId });
        volumeId = newVolumeId;
      });
    }

    it("finds drift with refresh, and the next up restores the declared value", async () => {
      await e.client.endpoints.update(endpointId, { workersMax: 9 });
      const refresh = await e.stack.refresh();
      expect(refresh.summary.resourceChanges).toMatchObject({ update: 1 });
      const state = await e.stack.exportStack();
      const ep = state.deployment.resources.find((r: { id?: string }) => r.id === endpointId);
      expect(ep.outputs.workersMax).toBe(9);
      const up = await e.stack.up();
      expect(up.summary.resourceChanges).toMatchObject({ update: 1 });
      expect(await e.client.endpoints.get(endpointId)).toMatchObject({ workersMax: 4 });
    });

    it("drops a resource deleted outside Pulumi on refresh and recreates it on the next up", async () => {
      await e.client.endpoints.delete(endpointId);
      const refresh = await e.stack.refresh();
      expect(refresh.summary.resourceChanges).toMatchObject({ delete: 1 });
      const up = await e.stack.up();
      expect(up.summary.resourceChanges).toMatchObject({ create: 1 });
      const recreated = String(out(up.outputs, "endpointId"));
      expect(recreated).not.toBe(endpointId);
      expect((await e.client.endpoints.list()).map((x) => x.id)).toEqual([recreated]);
      endpointId = recreated;
    });

    // Adoption and what state holds do not depend on the version (plugin-v1.test.ts adopts on v1).
    if (version === "v2") {
      it("adopts a volume created outside Pulumi without creating another", async () => {
        const existing = await e.client.networkVolumes.create({ name: "by-hand", size: 30, dataCenterId: "EU-RO-1" });
        await e.stack.setConfig("e2e:adoptVolumeId", { value: existing.id });
        const up = await e.stack.up();
        expect(up.summary.resourceChanges).toMatchObject({ create: 1 });
        expect(out(up.outputs, "adoptedId")).toBe(existing.id);
        const volumes = await e.client.networkVolumes.list();
        expect(volumes).toHaveLength(2);
        expect(volumes.find((v) => v.id === existing.id)).toMatchObject({ name: "adopted-volume", size: 30 });
      });

      it("keeps the API key out of state, and stores each serialized provider as one small module reference", async () => {
        const exported = await e.cli(["stack", "export", "--show-secrets"]);
        expect(exported.code).toBe(0);
        expect(exported.stdout).not.toContain(e.apiKey);
        const state = JSON.parse(exported.stdout);
        const providers = state.deployment.resources.filter((r: { type: string }) => r.type.includes("dynamic/runpod"));
        expect(providers.length).toBe(3);
        for (const r of providers) {
          expect(r.inputs.__provider).toBe(r.outputs.__provider);
          expect(Buffer.byteLength(r.outputs.__provider)).toBeLessThanOrEqual(1000);
          expect(r.outputs.__provider).toMatch(/^exports\.handler = \(\) => require\("runpod-iac\/impl"\)\.\w+;\n$/);
        }
      });
    }

    it("destroys everything, leaving the emulator empty", async () => {
      const result = await e.stack.destroy();
      expect(result.summary.result).toBe("succeeded");
      expect(await e.client.networkVolumes.list()).toEqual([]);
      expect(await e.client.endpoints.list()).toEqual([]);
    });
  });
}

describeLifecycle("v2");
describeLifecycle("v1");
