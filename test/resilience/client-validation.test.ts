import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { RunpodClient } from "../../sdk/client";
import { APIError, RequestValidationError } from "../../sdk/errors";
import { DATA_CENTER_IDS, GPU_TYPE_IDS } from "../../sdk/schemas";
import { scriptedServer } from "../integration/sdk/scripted-server";
import { announceSeed, resilienceSeed } from "./seed";

/** The run's seed drives every generated case (fast-check prints it, with a replay path, on failure). */
const SEED = resilienceSeed();
fc.configureGlobal({ ...fc.readConfigureGlobal(), seed: SEED });
announceSeed("client-validation", SEED);

/**
 * Property-based bad input, the client's request validation: random and malformed inputs to every
 * operation that validates. Each call either is refused before anything is sent, with a
 * RequestValidationError naming the field, or is sent once (the server answers 500, no retry);
 * it never throws anything else, and no error repeats a credential.
 */
const RUNS = 3000;
const API_KEY = "rpa_RESILIENCE_CLIENT_KEY_4c1d";
const S3_ID = "AKIARESILIENCE0ID42";
const S3_SECRET = "s3-secret-RESILIENCE-9b8a7";
const REGISTRY_PASSWORD = "ghp_RESILIENCE0REGISTRY0PW0e3f";
const ENV_SECRET = "env-secret-RESILIENCE-77aa";
const CREDENTIALS = [API_KEY, S3_ID, S3_SECRET, REGISTRY_PASSWORD, ENV_SECRET];

let server: Awaited<ReturnType<typeof scriptedServer>>;
let client: RunpodClient;

beforeAll(async () => {
  server = await scriptedServer([]); // answers 500 to everything it receives
  client = new RunpodClient({
    apiKey: API_KEY,
    apiUrl: `${server.url}/v1`,
    queueUrl: `${server.url}/v2`,
    maxAttempts: 1,
  });
});
afterAll(async () => {
  await client?.close();
  await server?.close();
});

const cyclic: Record<string, unknown> = { a: 1 };
cyclic.self = cyclic;

const anyValue = fc.oneof(
  fc.anything({ maxDepth: 2 }),
  fc.constantFrom("", "EU-RO-1", "NVIDIA L4", "echo", -1, 0, 1.5, 10, 4001, Number.NaN, null),
  fc.integer({ min: -5, max: 400_000 }),
);
const s3Config = fc.oneof(
  fc.record(
    { accessId: fc.constant(S3_ID), accessSecret: fc.constant(S3_SECRET), bucketName: anyValue, endpointUrl: anyValue },
    { requiredKeys: ["accessId", "accessSecret"] },
  ),
  fc.constantFrom(`${S3_ID}:${S3_SECRET}`, [S3_ID, S3_SECRET], { accessId: 5, accessSecret: S3_SECRET }),
);
/** A body: random keys of the operation and others, or not an object at all. */
const body = (keys: string[], extra: Record<string, fc.Arbitrary<unknown>> = {}) =>
  fc.oneof(
    { weight: 4, arbitrary: fc.dictionary(fc.oneof(fc.constantFrom(...keys), fc.string()), anyValue, { maxKeys: 6 }) },
    { weight: 4, arbitrary: fc.record(extra, { requiredKeys: [] }) },
    { weight: 1, arbitrary: fc.anything({ maxDepth: 1 }) },
  );

const volumeKeys = ["name", "size", "dataCenterId"];
const endpointKeys = ["name", "templateId", "gpuTypeIds", "workersMin", "workersMax", "idleTimeout", "scalerType"];
const jobInput = fc.oneof(
  fc.dictionary(fc.string(), fc.anything({ maxDepth: 2 }), { maxKeys: 3 }),
  fc.constantFrom({ big: 10n }, { nested: { cyclic } }, [1, 2], "text"),
);
const volumeBody = body(volumeKeys, {
  name: fc.oneof(fc.string(), anyValue),
  size: fc.oneof(fc.integer({ min: -10, max: 5000 }), anyValue),
  dataCenterId: fc.oneof(fc.constantFrom(...DATA_CENTER_IDS), anyValue),
});
const endpointBody = body(endpointKeys, {
  templateId: fc.oneof(fc.constant("echo"), anyValue),
  gpuTypeIds: fc.oneof(fc.array(fc.constantFrom(...GPU_TYPE_IDS, "H9000")), anyValue),
  workersMin: fc.oneof(fc.integer({ min: -2, max: 10 }), anyValue),
  workersMax: fc.oneof(fc.integer({ min: -2, max: 10 }), anyValue),
});
const templateKeys = ["name", "imageName", "env", "ports", "containerDiskInGb", "volumeMountPath", "category"];
const templateBody = body(templateKeys, {
  name: fc.oneof(fc.string(), anyValue),
  imageName: fc.oneof(fc.constantFrom("ghcr.io/acme/echo:1.0", "a b"), anyValue),
  env: fc.oneof(
    fc.dictionary(fc.constantFrom("TOKEN", "1BAD", "A-B", ""), fc.oneof(fc.constant(ENV_SECRET), anyValue), {
      maxKeys: 3,
    }),
    fc.constantFrom(ENV_SECRET, [ENV_SECRET], `TOKEN=${ENV_SECRET}`),
  ),
  ports: fc.oneof(fc.array(fc.constantFrom("8888/http", "22/tcp", "22/udp", "99999/tcp", "x")), anyValue),
  containerDiskInGb: fc.oneof(fc.integer({ min: -2, max: 100 }), anyValue),
  category: fc.oneof(fc.constantFrom("NVIDIA", "AMD", "CPU", "TPU"), anyValue),
  isServerless: anyValue,
});
const registryAuthBody = body(["name", "username", "password"], {
  name: fc.oneof(fc.string(), anyValue),
  username: fc.oneof(fc.string(), anyValue),
  password: fc.oneof(
    fc.constant(REGISTRY_PASSWORD),
    fc.constantFrom([REGISTRY_PASSWORD], { value: REGISTRY_PASSWORD }, "", 5),
  ),
});
const jobBody = body(["input", "webhook", "policy", "s3Config"], {
  input: jobInput,
  webhook: fc.oneof(fc.constantFrom("https://hooks.example/x", "ftp://x", "not a url"), anyValue),
  policy: fc.oneof(
    fc.record({ ttl: anyValue, executionTimeout: anyValue, lowPriority: anyValue }, { requiredKeys: [] }),
    anyValue,
  ),
  s3Config,
});

type Call = { op: string; input: unknown; run: () => Promise<unknown> };
const call = fc.oneof(
  volumeBody.map((b) => ({ op: "volumes.create", input: b, run: () => client.networkVolumes.create(b as never) })),
  volumeBody.map((b) => ({
    op: "volumes.update",
    input: b,
    run: () => client.networkVolumes.update("vol1", b as never, { currentSize: 10 }),
  })),
  endpointBody.map((b) => ({ op: "endpoints.create", input: b, run: () => client.endpoints.create(b as never) })),
  endpointBody.map((b) => ({
    op: "endpoints.update",
    input: b,
    run: () => client.endpoints.update("ep1", b as never),
  })),
  templateBody.map((b) => ({ op: "templates.create", input: b, run: () => client.templates.create(b as never) })),
  templateBody.map((b) => ({
    op: "templates.update",
    input: b,
    run: () => client.templates.update("tpl1", b as never, { method: "POST" }),
  })),
  registryAuthBody.map((b) => ({
    op: "containerRegistryAuth.create",
    input: b,
    run: () => client.containerRegistryAuth.create(b as never),
  })),
  jobBody.map((b) => ({ op: "jobs.run", input: b, run: () => client.jobs("ep1").run(b as never) })),
  fc.tuple(jobBody, fc.option(anyValue)).map(([b, wait]) => ({
    op: "jobs.runSync",
    input: b,
    run: () => client.jobs("ep1").runSync(b as never, { wait: (wait ?? undefined) as never }),
  })),
  fc.option(anyValue).map((ttl) => ({
    op: "jobs.status",
    input: {},
    run: () => client.jobs("ep1").status("job1", { ttl: (ttl ?? undefined) as never }),
  })),
) as fc.Arbitrary<Call>;

const isPlainObject = (v: unknown) => v !== null && typeof v === "object" && !Array.isArray(v);

describe("the client's request validation on random and malformed inputs", () => {
  it("refuses before sending with a RequestValidationError naming the field, or sends once; nothing else", async () => {
    const counts = { refused: 0, sent: 0 };
    await fc.assert(
      fc.asyncProperty(call, async ({ op, input, run }) => {
        const sentBefore = server.seen.length;
        const error = await run().then(
          () => undefined,
          (e: unknown) => e,
        );
        const message = error instanceof Error ? error.message : String(error);
        for (const credential of CREDENTIALS) expect(message, op).not.toContain(credential);
        if (error instanceof RequestValidationError) {
          counts.refused++;
          expect(server.seen.length, `${op} sent a refused request`).toBe(sentBefore);
          expect(error.problems.length).toBeGreaterThan(0);
          for (const p of error.problems) {
            // Only a body that is not an object at all has no field to name.
            if (p.field === "") expect(isPlainObject(input), `${op}: ${message}`).toBe(false);
            expect(p.rule.trim()).not.toBe("");
          }
          return;
        }
        counts.sent++;
        expect(error, `${op} threw ${message}`).toBeInstanceOf(APIError);
        expect((error as APIError).status).toBe(500);
        expect(server.seen.length).toBe(sentBefore + 1);
      }),
      { numRuns: RUNS },
    );
    console.log(
      `resilience/client-validation: cases=${RUNS} refusedBeforeSending=${counts.refused} sent=${counts.sent} ` +
        `otherErrors=0 credentialsInErrors=0`,
    );
    expect(counts.refused).toBeGreaterThan(RUNS / 3);
    expect(counts.sent).toBeGreaterThan(RUNS / 20);
  });

  it("refuses input that cannot be encoded as JSON (a BigInt, a cycle) before sending, naming input", async () => {
    const sentBefore = server.seen.length;
    for (const input of [{ big: 10n }, { nested: { cyclic } }]) {
      const error = await client
        .jobs("ep1")
        .run({ input })
        .catch((e: unknown) => e);
      expect(error).toBeInstanceOf(RequestValidationError);
      expect((error as RequestValidationError).problems[0]?.field).toBe("input");
    }
    expect(server.seen.length).toBe(sentBefore);
  });
});
