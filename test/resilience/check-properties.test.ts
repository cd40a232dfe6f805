import type { CheckFailure } from "@pulumi/pulumi/dynamic";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { containerRegistryAuthProvider } from "../../provider/container-registry-auth-provider";
import {
  CONTAINER_REGISTRY_AUTH_FIELDS,
  NETWORK_VOLUME_FIELDS,
  SERVERLESS_ENDPOINT_FIELDS,
  TEMPLATE_FIELDS,
} from "../../provider/field-rules";
import { networkVolumeProvider } from "../../provider/network-volume-provider";
import { UNKNOWN } from "../../provider/property-values";
import { serverlessEndpointProvider } from "../../provider/serverless-endpoint-provider";
import { templateProvider } from "../../provider/template-provider";
import { DATA_CENTER_IDS, GPU_TYPE_IDS } from "../../sdk/schemas";
import { serverlessPools } from "../../sdk/schemas/platform-catalog";
import { announceSeed, resilienceSeed } from "./seed";

/** The run's seed drives every generated case (fast-check prints it, with a replay path, on failure). */
const SEED = resilienceSeed();
fc.configureGlobal({ ...fc.readConfigureGlobal(), seed: SEED });
announceSeed("check-properties", SEED);

/**
 * Property-based bad input, the resources' `check`: thousands of random and malformed inputs. It
 * never throws (a throw is an opaque engine error), every failure names a property the user can
 * find, and no failure repeats a value, so a secret typed into the wrong field stays out of logs.
 */
const RUNS = 2500;
const SECRET = "sk_live_RESILIENCE_check_7f3a9c";

/** Keys the provider may name besides the input's own: its fields and bookkeeping inputs. */
const VOLUME_KEYS = [...Object.keys(NETWORK_VOLUME_FIELDS), "adoptId", "__autoNamed"];
const ENDPOINT_KEYS = [...Object.keys(SERVERLESS_ENDPOINT_FIELDS), "adoptId", "__autoNamed"];
const TEMPLATE_KEYS = [...Object.keys(TEMPLATE_FIELDS), "adoptId", "__autoNamed"];
const AUTH_KEYS = [...Object.keys(CONTAINER_REGISTRY_AUTH_FIELDS), "__autoNamed"];

/** Values users and the engine can put in a property bag, valid and not. */
const value = fc.oneof(
  fc.anything({ maxDepth: 2 }),
  fc.constantFrom(UNKNOWN, SECRET, "", " ", null, -1, 0, 1.5, 4001, 2 ** 53, Number.NaN),
  fc.integer({ min: -10, max: 5000 }),
  fc.constantFrom(...DATA_CENTER_IDS, ...GPU_TYPE_IDS, "GPU", "CPU", "QUEUE_DELAY", "echo", "NVIDIA", "8000/http"),
  // env-shaped maps holding the secret, under valid and invalid variable names.
  fc.dictionary(fc.constantFrom("TOKEN", "bad name", "", "9LIVES"), fc.oneof(fc.constant(SECRET), fc.anything()), {
    maxKeys: 3,
  }),
  fc.array(
    fc.oneof(fc.constantFrom(...GPU_TYPE_IDS, ...DATA_CENTER_IDS, SECRET, UNKNOWN), fc.anything({ maxDepth: 1 })),
    {
      maxLength: 4,
    },
  ),
);

/** A property bag: known keys and random ones, with any values; sometimes a valid base with a few keys broken. */
function bag(keys: string[], valid: Record<string, unknown>) {
  const key = fc.oneof({ weight: 3, arbitrary: fc.constantFrom(...keys) }, { weight: 1, arbitrary: fc.string() });
  const random = fc.dictionary(key, value, { maxKeys: 8 });
  const broken = fc.tuple(fc.dictionary(fc.constantFrom(...keys), value, { maxKeys: 3 })).map(([over]) => ({
    ...valid,
    ...over,
  }));
  return fc.oneof(random, broken);
}

const validVolume = { name: "vol-abc1234", size: 10, dataCenterId: "EU-RO-1", __autoNamed: true };
/** The GPU types a serverless endpoint can rent on management API v2 (those of a serverless pool). */
const SERVERLESS_GPU_TYPES = [...serverlessPools().values()].flat();

const validEndpoint = { templateId: "echo", name: "ep-abc1234", gpuTypeIds: ["NVIDIA L4"], workersMax: 2 };
const validTemplate = {
  name: "worker-abc1234",
  __autoNamed: true,
  imageName: "ghcr.io/acme/worker:1.0",
  isServerless: true,
  env: { TOKEN: SECRET },
};
const validAuth = { name: "ghcr-abc1234", __autoNamed: true, username: "bot", password: SECRET };

/**
 * What every check result must satisfy, whatever the inputs. Templates and registry credentials
 * may hand on another `name` (the next of its series, on a replacement); nothing else changes.
 */
function expectWellFormed(
  result: { inputs?: Record<string, unknown>; failures?: CheckFailure[] },
  news: Record<string, unknown>,
  known: string[],
): number {
  if (result.inputs === news) expect(result.inputs).toBe(news);
  else expect({ ...result.inputs, name: news.name }).toEqual(news);
  const failures = result.failures ?? [];
  for (const f of failures) {
    expect(typeof f.property).toBe("string");
    expect(f.property).not.toBe("");
    expect(Object.keys(news).includes(f.property) || known.includes(f.property), f.property).toBe(true);
    expect(typeof f.reason).toBe("string");
    expect(f.reason.trim()).not.toBe("");
    expect(JSON.stringify(f)).not.toContain(SECRET);
  }
  return failures.length;
}

describe("the resources' check on random and malformed inputs", () => {
  it("NetworkVolume check never throws, and every failure names a property", async () => {
    let failing = 0;
    let failures = 0;
    await fc.assert(
      fc.asyncProperty(bag(VOLUME_KEYS, validVolume), fc.option(bag(VOLUME_KEYS, validVolume)), async (news, olds) => {
        const n = expectWellFormed(await networkVolumeProvider.check(olds ?? {}, news), news, VOLUME_KEYS);
        failures += n;
        if (n > 0) failing++;
      }),
      { numRuns: RUNS },
    );
    console.log(`resilience/check: NetworkVolume cases=${RUNS} refused=${failing} failures=${failures} throws=0`);
    expect(failing).toBeGreaterThan(RUNS / 2);
  });

  it("ServerlessEndpoint check never throws, and every failure names a property", async () => {
    let failing = 0;
    let failures = 0;
    await fc.assert(
      fc.asyncProperty(bag(ENDPOINT_KEYS, validEndpoint), async (news) => {
        const n = expectWellFormed(await serverlessEndpointProvider.check({}, news), news, ENDPOINT_KEYS);
        failures += n;
        if (n > 0) failing++;
      }),
      { numRuns: RUNS },
    );
    console.log(`resilience/check: ServerlessEndpoint cases=${RUNS} refused=${failing} failures=${failures} throws=0`);
    expect(failing).toBeGreaterThan(RUNS / 2);
  });

  it.each([
    ["Template", templateProvider, TEMPLATE_KEYS, validTemplate],
    ["ContainerRegistryAuth", containerRegistryAuthProvider, AUTH_KEYS, validAuth],
  ] as const)(
    "%s check never throws, every failure names a property, and no failure repeats a secret",
    async (kind, provider, keys, valid) => {
      let failing = 0;
      let failures = 0;
      await fc.assert(
        fc.asyncProperty(bag([...keys], valid), fc.option(bag([...keys], valid)), async (news, olds) => {
          const n = expectWellFormed(await provider.check(olds ?? {}, news), news, [...keys]);
          failures += n;
          if (n > 0) failing++;
        }),
        { numRuns: RUNS },
      );
      console.log(`resilience/check: ${kind} cases=${RUNS} refused=${failing} failures=${failures} throws=0`);
      expect(failing).toBeGreaterThan(RUNS / 2);
    },
  );

  it("accepts every valid input it is given, unknown values included", async () => {
    const volume = fc.record({
      name: fc.oneof(fc.string({ minLength: 1 }), fc.constant(UNKNOWN)),
      // Valid on the default version, v2: 10 to 4096 GB (v1 takes 0 to 4000).
      size: fc.oneof(fc.integer({ min: 10, max: 4096 }), fc.constant(UNKNOWN)),
      dataCenterId: fc.oneof(fc.constantFrom(...DATA_CENTER_IDS), fc.constant(UNKNOWN)),
    });
    const endpoint = fc.record(
      {
        templateId: fc.oneof(fc.string({ minLength: 1 }), fc.constant(UNKNOWN)),
        // Not empty on v2 (v1 takes an empty name).
        name: fc.string({ minLength: 1, maxLength: 191 }),
        // Valid on the default version, v2, which rents serverless GPUs by pool: types of a pool.
        gpuTypeIds: fc.uniqueArray(fc.constantFrom(...SERVERLESS_GPU_TYPES), { minLength: 1, maxLength: 4 }),
        workersMax: fc.integer({ min: 3, max: 100 }),
        workersMin: fc.integer({ min: 0, max: 3 }),
        networkVolumeId: fc.oneof(fc.string({ minLength: 1 }), fc.constant(UNKNOWN)),
      },
      { requiredKeys: ["templateId"] },
    );
    await fc.assert(
      fc.asyncProperty(volume, endpoint, async (v, ep) => {
        expect((await networkVolumeProvider.check({}, v)).failures).toEqual([]);
        expect((await serverlessEndpointProvider.check({}, ep)).failures).toEqual([]);
      }),
      { numRuns: 500 },
    );
  });
});
