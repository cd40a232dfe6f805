import { afterEach, describe, expect, it } from "vitest";
import { configureDirect } from "../../../provider/provider-config";
import { gpuPoolFailures } from "../../../provider/endpoint-check";
import { endpointOutputs, gpuTypesInDeclaredOrder } from "../../../provider/endpoint-outputs";
import { serverlessEndpointProvider as endpoints } from "../../../provider/serverless-endpoint-provider";
import { splitInjectedEnv, withInjectedEnv } from "../../../provider/template-env";
import { templateProvider as templates } from "../../../provider/template-provider";
import { networkVolumeProvider as volumes } from "../../../provider/network-volume-provider";
import { containerOfTemplate, holdsSettings } from "../../../provider/template-rollout";

/**
 * Both management API versions at the provider level, without a platform: what each API version refuses at preview,
 * the GPU pool check (snapshot first, the live catalog only for a new unknown type), outputs in the
 * program's order and spelling, injected env, and which endpoints hold a template's settings.
 */
const V1 = "https://rest.runpod.io/v1";
const V2 = "https://api.runpod.io/v2";
const endpoint = { templateId: "echo", name: "api-abc1234", gpuTypeIds: ["NVIDIA L4"], workersMax: 2 };
const template = { name: "worker", imageName: "ghcr.io/acme/echo:1.0", isServerless: true };

afterEach(() => configureDirect({}));

describe("check refuses what the configured version cannot do, naming the field and the version", () => {
  it.each([
    [
      "v1",
      V1,
      "endpoint",
      { ...endpoint, type: "LOAD_BALANCER" },
      "type",
      "load-balancing endpoints (type LOAD_BALANCER) exist only on management API v2, and the API URL names v1",
    ],
    [
      "v1",
      V1,
      "endpoint",
      { ...endpoint, gpuTypeIds: undefined, gpuPools: ["ADA_24"] },
      "gpuPools",
      "GPU pools (gpuPools; on v1 name the GPU types in gpuTypeIds) exist only on management API v2",
    ],
    [
      "v1",
      V1,
      "endpoint",
      { ...endpoint, flashboot: "PRIORITY_FLASHBOOT" },
      "flashboot",
      "priority flash-boot modes (PRIORITY_FLASHBOOT) exist only on management API v2",
    ],
    [
      "v1",
      V1,
      "template",
      { ...template, startSsh: true },
      "startSsh",
      "template SSH switches (startSsh) exist only on management API v2",
    ],
    ["v1", V1, "template", { ...template, args: "--port 8000" }, "args", "exist only on management API v2"],
    [
      "v2",
      V2,
      "template",
      { ...template, readme: "# hi" },
      "readme",
      "template readmes (readme) exist only on management API v1, and the API URL names v2",
    ],
    [
      "v1",
      V1,
      "volume",
      { name: "v", size: 10, dataCenterId: "EU-RO-1", type: "HIGH_PERFORMANCE" },
      "type",
      "storage tiers (STANDARD, HIGH_PERFORMANCE) exist only on management API v2, and the API URL names v1",
    ],
  ] as const)("%s: %s %j", async (_v, apiUrl, kind, inputs, property, reason) => {
    configureDirect({ apiUrl });
    const provider = kind === "endpoint" ? endpoints : kind === "template" ? templates : volumes;
    const { failures } = await provider.check({}, inputs as Record<string, unknown>);
    expect(failures.find((f) => f.property === property)?.reason).toContain(reason);
  });

  it("accepts the neutral values of v2-only inputs on v1 (QUEUE, true/false, FLASHBOOT)", async () => {
    configureDirect({ apiUrl: V1 });
    const { failures } = await endpoints.check({}, { ...endpoint, type: "QUEUE", flashboot: "FLASHBOOT" });
    expect(failures).toEqual([]);
  });

  it("refuses queue-delay scaling on a load balancer on either version, and REQUEST_COUNT with an idle timeout on a v2 queue", async () => {
    configureDirect({ apiUrl: V2 });
    const lb = await endpoints.check({}, { ...endpoint, type: "LOAD_BALANCER", scalerType: "QUEUE_DELAY" });
    expect(lb.failures).toEqual([
      {
        property: "scalerType",
        reason:
          '"QUEUE_DELAY": a LOAD_BALANCER endpoint has no queue; it scales on REQUEST_COUNT (its default; the platform refuses QUEUE_DELAY): remove scalerType or set "REQUEST_COUNT"',
      },
    ]);
    const queue = { ...endpoint, scalerType: "REQUEST_COUNT", idleTimeout: 30 };
    expect((await endpoints.check({}, queue)).failures[0]?.property).toBe("idleTimeout");
    // A stack deployed through v1 with that combination previews unchanged on v2: nothing is sent.
    expect((await endpoints.check(queue, queue)).failures).toEqual([]);
    configureDirect({ apiUrl: V1 });
    expect((await endpoints.check({}, queue)).failures).toEqual([]);
  });

  it("fails at preview, once, naming a URL that names no version", async () => {
    configureDirect({ apiUrl: "http://127.0.0.1:8787" });
    const { failures } = await endpoints.check({}, endpoint);
    expect(failures).toEqual([{ property: "", reason: expect.stringContaining("must end in /v1 or /v2") }]);
  });
});

describe("the GPU pool check on v2", () => {
  const noLive = async () => {
    throw new Error("the live catalog must not be read");
  };

  it("names a type of the snapshot in no serverless pool, from the snapshot alone", async () => {
    const failures = await gpuPoolFailures(undefined, { gpuTypeIds: ["NVIDIA L4", "Tesla T4"] }, "v2", noLive);
    expect(failures).toEqual([
      {
        property: "gpuTypeIds",
        reason: expect.stringContaining('"Tesla T4" (gpuTypeIds[1]) is in no serverless GPU pool'),
      },
    ]);
    expect(await gpuPoolFailures(undefined, { gpuTypeIds: ["Tesla T4"] }, "v1", noLive)).toEqual([]);
  });

  it("reads the live catalog for a type the snapshot does not know, only when the value is new or changed", async () => {
    let reads = 0;
    const live = async () => {
      reads++;
      return [
        { id: "NVIDIA B300", pool: "BLACKWELL_288" },
        { id: "NVIDIA X1", pool: null },
      ];
    };
    expect(await gpuPoolFailures(undefined, { gpuTypeIds: ["NVIDIA B300"] }, "v2", live)).toEqual([]);
    expect(reads).toBe(1);
    const x1 = await gpuPoolFailures(undefined, { gpuTypeIds: ["NVIDIA X1", "NVIDIA Z9"] }, "v2", live);
    expect(x1.map((f) => f.reason)).toEqual([
      expect.stringContaining('"NVIDIA X1" (gpuTypeIds[0]) is in no serverless GPU pool'),
      expect.stringContaining('"NVIDIA Z9" (gpuTypeIds[1]) is not a GPU type of the platform\'s live catalog'),
    ]);
    // The same set, in another order: no change on v2, so nothing is read.
    const olds = { gpuTypeIds: ["NVIDIA B300", "NVIDIA L4"] };
    expect(await gpuPoolFailures(olds, { gpuTypeIds: ["NVIDIA L4", "NVIDIA B300"] }, "v2", noLive)).toEqual([]);
    // A type the live catalog lists in another case or spacing is named in the failure.
    const cased = await gpuPoolFailures(undefined, { gpuTypeIds: ["nvidia b300"] }, "v2", live);
    expect(cased.map((f) => f.reason)).toEqual([
      '"nvidia b300" (gpuTypeIds[0]) is not a GPU type of the platform\'s live catalog (GET /v2/catalog/gpus) (did you mean "NVIDIA B300"?)',
    ]);
    // A type one character off names the live catalog's nearest.
    const typo = await gpuPoolFailures(undefined, { gpuTypeIds: ["NVIDIA B30"] }, "v2", live);
    expect(typo.map((f) => f.reason)).toEqual([
      '"NVIDIA B30" (gpuTypeIds[0]) is not a GPU type of the platform\'s live catalog (GET /v2/catalog/gpus) (did you mean "NVIDIA B300"?)',
    ]);
    // An unreachable catalog leaves the type to the create, which names it too.
    expect(await gpuPoolFailures(undefined, { gpuTypeIds: ["NVIDIA Q7"] }, "v2", noLive)).toEqual([]);
  });
});

describe("endpoint outputs in the program's order and spelling", () => {
  const answer = {
    id: "ep1",
    name: "api",
    gpuTypeIds: ["NVIDIA L4", "NVIDIA A40"],
    flashboot: true,
    type: "QUEUE",
  };

  it("keeps the declared order of the same set on v2, and on v1 only for an answer in catalog order", () => {
    expect(gpuTypesInDeclaredOrder(["NVIDIA L4", "NVIDIA A40"], ["NVIDIA A40", "NVIDIA L4"], "v2")).toEqual([
      "NVIDIA A40",
      "NVIDIA L4",
    ]);
    // v1 answering in catalog order: an endpoint written through v2.
    expect(gpuTypesInDeclaredOrder(["NVIDIA L4", "NVIDIA A40"], ["NVIDIA A40", "NVIDIA L4"], "v1")).toEqual([
      "NVIDIA A40",
      "NVIDIA L4",
    ]);
    // v1 answering against the catalog order: a reorder made outside Pulumi, which refresh shows.
    expect(gpuTypesInDeclaredOrder(["NVIDIA A40", "NVIDIA L4"], ["NVIDIA L4", "NVIDIA A40"], "v1")).toEqual([
      "NVIDIA A40",
      "NVIDIA L4",
    ]);
    expect(gpuTypesInDeclaredOrder(["NVIDIA L4"], ["NVIDIA A40", "NVIDIA L4"], "v2")).toEqual(["NVIDIA L4"]);
  });

  it("spells flash boot as declared, keeps the template id v2 does not answer, and addresses a load balancer by its base", () => {
    const declared = { templateId: "tpl1", gpuTypeIds: ["NVIDIA A40", "NVIDIA L4"], flashboot: "FLASHBOOT" };
    expect(endpointOutputs(answer, declared, "http://q/v2", "v2")).toEqual({
      name: "api",
      templateId: "tpl1",
      gpuTypeIds: ["NVIDIA A40", "NVIDIA L4"],
      flashboot: "FLASHBOOT",
      url: "http://q/v2/ep1",
      healthUrl: "http://q/v2/ep1/health",
    });
    const lb = {
      ...answer,
      type: "LOAD_BALANCER",
      requestUrls: { base: "http://o/lb/ep1", health: "http://o/lb/ep1/ping" },
    };
    expect(endpointOutputs(lb, { type: "LOAD_BALANCER" }, "http://q/v2", "v2")).toMatchObject({
      type: "LOAD_BALANCER",
      url: "http://o/lb/ep1",
      healthUrl: "http://o/lb/ep1/ping",
    });
    // Read through v1 (no type, no request URLs): the addresses the state holds.
    const stored = { type: "LOAD_BALANCER", url: "http://o/lb/ep1", healthUrl: "http://o/lb/ep1/ping" };
    expect(endpointOutputs({ id: "ep1", name: "api" }, stored, "http://q/v2", "v1")).toMatchObject(stored);
  });
});

describe("injected env and a template's settings", () => {
  it("keeps what the platform injected apart unless the program sets it, and sends it along with a new env", () => {
    const platform = { A: "1", PUBLIC_KEY: "ssh-ed25519 K", JUPYTER_PASSWORD: "gen" };
    expect(splitInjectedEnv(platform, { A: "1" })).toEqual({
      env: { A: "1" },
      injected: { PUBLIC_KEY: "ssh-ed25519 K", JUPYTER_PASSWORD: "gen" },
    });
    expect(splitInjectedEnv(platform, { A: "1", JUPYTER_PASSWORD: "x" })).toEqual({
      env: { A: "1", JUPYTER_PASSWORD: "gen" },
      injected: { PUBLIC_KEY: "ssh-ed25519 K" },
    });
    expect(withInjectedEnv({ A: "2" }, { PUBLIC_KEY: "k", OTHER: "no" })).toEqual({ PUBLIC_KEY: "k", A: "2" });
    expect(withInjectedEnv({ PUBLIC_KEY: "mine" }, { PUBLIC_KEY: "k" })).toEqual({ PUBLIC_KEY: "mine" });
  });

  it("finds the endpoints holding exactly a template's settings, never a linked one", () => {
    const settings = containerOfTemplate({
      id: "t",
      name: "t",
      imageName: "a/b:1",
      dockerStartCmd: ["--port", "8000"],
      ports: ["8000/http"],
      env: { A: "1" },
    });
    const copy = { imageName: "a/b:1", args: "--port 8000", ports: ["8000/http"], env: { A: "1", OWN: "x" } };
    expect(holdsSettings({ id: "e1", container: copy }, settings)).toBe(true);
    expect(holdsSettings({ id: "e2", container: { ...copy, imageName: "a/b:2" } }, settings)).toBe(false);
    expect(holdsSettings({ id: "e3", container: { ...copy, env: { A: "2" } } }, settings)).toBe(false);
    expect(holdsSettings({ id: "e4", templateId: "t", container: copy }, settings)).toBe(false);
  });
});
