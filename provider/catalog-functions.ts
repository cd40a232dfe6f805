import { z } from "zod";
import type { RunpodClient } from "../sdk/client";
import { RequestValidationError, UnsupportedOperationError } from "../sdk/errors";
import { type FieldProblem, fieldProblems, renderValue } from "../sdk/schemas";
import type * as V2 from "../sdk/schemas/v2";
import type { Expect } from "./check-inputs";
import { configSettingName } from "./provider-config";
import type {
  CatalogCpuFlavor,
  CatalogDataCenter,
  CatalogFunctionName,
  CatalogFunctions,
  CatalogGpuType,
  GetCpuFlavorsArgs,
  GetDataCentersArgs,
  GetGpuTypesArgs,
} from "./catalog-types";

/*
 * The catalog functions themselves, over a client: argument checks, the version check, the read.
 * The program's `getGpuTypes` (catalog.ts) and the provider plugin's invoke of the same name run
 * exactly this, each with the client of its own configuration.
 */

/** `true` when `A` and `B` are assignable both ways (the same type, open value sets aside). */
type Alike<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
/** `true` when `A` and `B` are alike and have the same fields (an optional field more is not alike). */
type SameShape<A, B> = Alike<A, B> extends true ? Alike<keyof A, keyof B> : false;
// The results are what the client's schemas read from the wire: a field one has and the other lacks is a tsc error.
type _GpuTypesAreTheWire = Expect<SameShape<CatalogGpuType, V2.GpuType>>;
type _CpuFlavorsAreTheWire = Expect<SameShape<CatalogCpuFlavor, V2.CpuType>>;
type _DataCentersAreTheWire = Expect<SameShape<CatalogDataCenter, V2.DataCenter>>;

const list = <T extends z.ZodType>(item: T) => z.array(item, "must be a list").optional();
const oneOf = <const T extends readonly [string, ...string[]]>(values: T) =>
  z.enum(values, { error: `must be one of ${values.join(", ")}` });

/**
 * The platform's rules of the availability filters (OpenAPI v2 `listGpuTypes`, `listCpuTypes`):
 * each filter needs `include: ["AVAILABILITY"]`, which needs a `product`.
 */
function availabilityRules(filters: readonly string[]) {
  return (args: Record<string, unknown>, ctx: z.RefinementCtx) => {
    const withAvailability = Array.isArray(args.include) && args.include.includes("AVAILABILITY");
    for (const field of filters) {
      if (args[field] !== undefined && !withAvailability) {
        ctx.addIssue({
          code: "custom",
          path: [field],
          message: 'applies to availability: add include: ["AVAILABILITY"]',
        });
      }
    }
    if (withAvailability && !(Array.isArray(args.product) && args.product.length > 0)) {
      ctx.addIssue({
        code: "custom",
        path: ["product"],
        message: 'is required with include: ["AVAILABILITY"] (availability differs by product)',
      });
    }
  };
}

const include = list(z.literal("AVAILABILITY", 'must be "AVAILABILITY"')).refine(
  (v) => v === undefined || v.length <= 1,
  "takes one value: AVAILABILITY",
);

const GetGpuTypesArgsSchema = z
  .strictObject({
    include,
    product: list(oneOf(["POD", "CLUSTER", "SERVERLESS"])),
    count: z.number("must be a number").int("must be a whole number").min(1, "must be at least 1").optional(),
    cloud: oneOf(["SECURE", "COMMUNITY"]).optional(),
    countryCodes: list(z.string().regex(/^[A-Z]{2}$/, "must be an ISO 3166-1 alpha-2 country code in upper case")),
    cudaVersions: list(z.string().regex(/^\d+\.\d+$/, 'must be a CUDA version written major.minor, such as "12.8"')),
    minCudaVersion: z
      .string("must be a string")
      .regex(/^\d+(?:\.\d+)?$/, 'must be a major or major.minor CUDA version, such as "12" or "12.4"')
      .optional(),
  })
  .superRefine(availabilityRules(["product", "count", "cloud", "countryCodes", "cudaVersions", "minCudaVersion"]))
  .refine((a) => a.cudaVersions === undefined || a.minCudaVersion === undefined, {
    path: ["minCudaVersion"],
    message: "cannot be combined with cudaVersions: give one of the two",
  });

const GetCpuFlavorsArgsSchema = z
  .strictObject({
    include,
    product: list(oneOf(["POD", "SERVERLESS"])),
    vcpuCount: z
      .number("must be a number")
      .int("must be a whole number")
      .min(2, "must be at least 2")
      .refine((n) => (n & (n - 1)) === 0, "must be a power of two")
      .optional(),
  })
  .superRefine(availabilityRules(["product", "vcpuCount"]));

const GetDataCentersArgsSchema = z.strictObject({
  include: list(oneOf(["GPU_AVAILABILITY", "CPU_AVAILABILITY"])),
  regions: list(z.string().min(1, "must not be empty")),
  networkVolumeTypes: list(z.string().min(1, "must not be empty")),
  compliance: list(z.string().min(1, "must not be empty")),
  globalNetwork: z.boolean("must be true or false").optional(),
});

/** `true` when the args interface and its schema have the same fields. */
type SameFields<Args, Schema extends z.ZodType> = Alike<keyof Args, keyof z.input<Schema>>;
type _GpuArgs = Expect<SameFields<GetGpuTypesArgs, typeof GetGpuTypesArgsSchema>>;
type _CpuArgs = Expect<SameFields<GetCpuFlavorsArgs, typeof GetCpuFlavorsArgsSchema>>;
type _DataCenterArgs = Expect<SameFields<GetDataCentersArgs, typeof GetDataCentersArgsSchema>>;

/** One catalog function: the route it reads, its arguments' schema, and the read. */
interface CatalogFunction<N extends CatalogFunctionName> {
  readonly route: string;
  readonly args: z.ZodType<CatalogFunctions[N]["args"]>;
  read(client: RunpodClient, args: CatalogFunctions[N]["args"]): Promise<CatalogFunctions[N]["result"]>;
}

/** The catalog functions, by the name programs call them and the provider plugin serves them under. */
export const CATALOG_FUNCTIONS: { readonly [N in CatalogFunctionName]: CatalogFunction<N> } = {
  getGpuTypes: {
    route: "GET /v2/catalog/gpus",
    args: GetGpuTypesArgsSchema,
    read: async (client, args) => ({ gpuTypes: await client.v2.catalog.gpus(args) }),
  },
  getCpuFlavors: {
    route: "GET /v2/catalog/cpus",
    args: GetCpuFlavorsArgsSchema,
    read: async (client, args) => ({ cpuFlavors: await client.v2.catalog.cpus(args) }),
  },
  getDataCenters: {
    route: "GET /v2/catalog/datacenters",
    args: GetDataCentersArgsSchema,
    read: async (client, args) => ({ dataCenters: await client.v2.catalog.dataCenters(args) }),
  },
};

/** Whether `name` is a catalog function's name. */
export function isCatalogFunctionName(name: string): name is CatalogFunctionName {
  return Object.hasOwn(CATALOG_FUNCTIONS, name);
}

/** The problems of a call's arguments; an argument the function does not take is named, with those it takes. */
function argumentProblems(name: CatalogFunctionName, error: z.ZodError, input: unknown): FieldProblem[] {
  const takes = Object.keys((CATALOG_FUNCTIONS[name].args as unknown as { shape?: object }).shape ?? {});
  const given = input as Record<string, unknown>;
  return error.issues.flatMap((issue) =>
    issue.code === "unrecognized_keys"
      ? issue.keys.map((key) => ({
          field: key,
          value: renderValue(given[key], key),
          rule: `is not an argument of ${name} (it takes ${takes.join(", ")})`,
        }))
      : fieldProblems(new z.ZodError([issue]), input),
  );
}

/**
 * Runs the catalog function `name` with `args` over `client`: arguments the platform would refuse
 * are refused first (naming the function, the field, the value and the rule), and on management
 * API v1, which has no catalog, nothing is sent and the error names the version and the setting.
 */
export async function invokeCatalogFunction<N extends CatalogFunctionName>(
  name: N,
  client: RunpodClient,
  args: unknown,
): Promise<CatalogFunctions[N]["result"]> {
  const fn = CATALOG_FUNCTIONS[name] as CatalogFunction<N>;
  const input = args ?? {};
  const parsed = fn.args.safeParse(input);
  if (!parsed.success) throw new RequestValidationError(argumentProblems(name, parsed.error, input), name);
  if (client.apiVersion !== "v2") {
    throw new UnsupportedOperationError(
      name,
      client.apiVersion,
      `management API v1 has no catalog (${fn.route}); point ${configSettingName("apiUrl")} (or RUNPOD_API_URL) at a .../v2 URL`,
    );
  }
  return fn.read(client, parsed.data);
}
