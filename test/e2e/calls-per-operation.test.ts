import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createE2EStack, type E2EApiVersion, type E2EStack } from "./harness";

/*
 * The management calls each operation makes, counted by the emulator (`/_emulator/stats`), on a
 * stack of 20 resources (4 of each type) through the real engine, on each API version: their
 * lists differ (v1 answers arrays and takes include flags, v2 wraps them; v2 counts every call
 * against a per-user quota). `up` makes one create per resource plus one lookup list per type;
 * a refresh reads each type with one list, and by id only what a list does not hold (a resource
 * deleted outside Pulumi, whose 404 drops it from the state); `destroy` makes one delete per
 * resource.
 */

const COUNT = 4;
const TYPES = ["volumes", "endpoints", "templates", "auths", "pods"] as const;
type Kind = (typeof TYPES)[number];

/** Each type's collection path on each version. */
const COLLECTIONS: Record<E2EApiVersion, Record<Kind, string>> = {
  v1: {
    volumes: "/v1/networkvolumes",
    endpoints: "/v1/endpoints",
    templates: "/v1/templates",
    auths: "/v1/containerregistryauth",
    pods: "/v1/pods",
  },
  v2: {
    volumes: "/v2/network-volumes",
    endpoints: "/v2/serverless",
    templates: "/v2/templates",
    auths: "/v2/registries",
    pods: "/v2/pods",
  },
};

/**
 * The emulator's counts by route with every path parameter written `{id}` (`GET /v2/pods/{id}`),
 * so the expectations name the calls, not the emulator's parameter names.
 */
async function callsOf(e: E2EStack): Promise<Record<string, number>> {
  const counts: Record<string, number> = {};
  for (const [route, n] of Object.entries(await e.takeRequestCounts())) {
    const key = route.replace(/\/:[^/]+/g, "/{id}");
    counts[key] = (counts[key] ?? 0) + n;
  }
  return counts;
}

/** `{ "<METHOD> <collection><suffix>": n }` for each type in `n` (0s left out). */
function each(version: E2EApiVersion, method: string, suffix: string, n: Partial<Record<Kind, number>>) {
  const out: Record<string, number> = {};
  for (const kind of TYPES) if (n[kind]) out[`${method} ${COLLECTIONS[version][kind]}${suffix}`] = n[kind];
  return out;
}

const all = (n: number): Record<Kind, number> => ({ volumes: n, endpoints: n, templates: n, auths: n, pods: n });
/** v2's endpoint answers map pools to GPU types with the live catalog, read once per provider process. */
const catalog = (version: E2EApiVersion) => (version === "v2" ? { "GET /v2/catalog/gpus": 1 } : {});

/** The outputs the state holds, by resource name. */
async function stateOutputs(e: E2EStack): Promise<Map<string, Record<string, unknown>>> {
  const { deployment } = await e.stack.exportStack();
  const resources = deployment.resources as { urn: string; outputs?: Record<string, unknown> }[];
  return new Map(resources.map((r) => [r.urn.slice(r.urn.lastIndexOf("::") + 2), r.outputs ?? {}]));
}

describe.each(["v2", "v1"] as const)("management calls per operation on %s", (version) => {
  let e: E2EStack;
  let ids: Record<Kind, string[]>;

  beforeAll(async () => {
    e = await createE2EStack(
      "calls",
      { "e2e:count": { value: String(COUNT) }, "e2e:password": { value: "registry-token-e2e", secret: true } },
      { label: `calls-${version}`, apiVersion: version },
    );
  }, 180_000);
  afterAll(() => e?.dispose());

  it("up: one create per resource, plus one lookup list per type", { timeout: 300_000 }, async () => {
    await callsOf(e);
    const up = await e.stack.up();
    expect(up.summary.result).toBe("succeeded");
    expect(await callsOf(e)).toEqual({
      ...each(version, "POST", "", all(COUNT)),
      ...each(version, "GET", "", all(1)),
      ...catalog(version),
    });
    ids = (up.outputs.ids!.value as Record<Kind, string[]>) ?? {};
    for (const kind of TYPES) expect(ids[kind]).toHaveLength(COUNT);
  });

  it("refresh of the unchanged stack: one list per type, no read by id, no change", { timeout: 300_000 }, async () => {
    const refresh = await e.stack.refresh();
    expect(await callsOf(e)).toEqual({ ...each(version, "GET", "", all(1)), ...catalog(version) });
    expect(Object.keys(refresh.summary.resourceChanges ?? {})).toEqual(["same"]);
  });

  it(
    "refresh sees drift and what was deleted outside Pulumi, reading by id only those",
    { timeout: 300_000 },
    async () => {
      const { client } = e;
      await client.networkVolumes.update(ids.volumes[0]!, { name: "renamed-by-hand" });
      await client.endpoints.update(ids.endpoints[0]!, { workersMax: 3 });
      await client.pods.stop(ids.pods[0]!);
      await client.networkVolumes.delete(ids.volumes[1]!);
      await client.templates.delete(ids.templates[1]!);
      await client.pods.delete(ids.pods[1]!);
      await callsOf(e); // the changes above are not the refresh's

      const refresh = await e.stack.refresh();
      expect(refresh.summary.result).toBe("succeeded");
      const gone = { volumes: 1, templates: 1, pods: 1 };
      expect(await callsOf(e)).toEqual({
        ...each(version, "GET", "", all(1)),
        ...each(version, "GET", "/{id}", gone),
        ...catalog(version),
      });
      const state = await stateOutputs(e);
      for (const name of ["vol-1", "tpl-1", "pod-1"]) expect(state.has(name), name).toBe(false);
      expect(state.get("vol-0")).toMatchObject({ name: "renamed-by-hand" });
      expect(state.get("ep-0")).toMatchObject({ workersMax: 3 });
      expect(state.get("pod-0")).toMatchObject({ desiredStatus: "EXITED" });
      expect(state.get("vol-2")).toMatchObject({ size: 10, dataCenterId: "EU-RO-1" });
    },
  );

  it("destroy: one delete per resource left, nothing else", { timeout: 300_000 }, async () => {
    const destroy = await e.stack.destroy();
    expect(destroy.summary.result).toBe("succeeded");
    const left = { ...all(COUNT), volumes: COUNT - 1, templates: COUNT - 1, pods: COUNT - 1 };
    expect(await callsOf(e)).toEqual(each(version, "DELETE", "/{id}", left));
  });
});
