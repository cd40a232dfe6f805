import { type ResourceValidationPolicy, validateResourceOfType } from "@pulumi/policy/policy";
import { z } from "zod";
import { nearestValues, suggestionText } from "../sdk/schemas/known-values";
import { formatValue, resourceLabel, violationList } from "./format";
import { parsePolicyConfig, toPolicyConfigSchema } from "./policy-config";
import {
  type NetworkVolumeProps,
  NetworkVolumeResource,
  type ServerlessEndpointProps,
  ServerlessEndpointResource,
  stubsOfEachType,
} from "./resource-types";

/** Name of the policy (the key of its settings in `--policy-pack-config`). */
export const LIVE_CATALOG_POLICY = "runpod-live-catalog";

/** The settings of `runpod-live-catalog`. */
export const LiveCatalogConfigSchema = z.object({
  catalogUrl: z
    .string()
    .url()
    .optional()
    .describe(
      "Management API v2 base URL the catalog is read from. Default: RUNPOD_API_URL when it names v2, else https://api.runpod.io/v2 (the catalog exists on v2 only).",
    ),
});

/** The configuration of `runpod-live-catalog`. */
export type LiveCatalogConfig = z.infer<typeof LiveCatalogConfigSchema>;

/**
 * What the live catalog says (`GET /v2/catalog/gpus` and `/v2/catalog/datacenters`): each GPU
 * type's serverless pool (null: serverless cannot rent it) and each data center's storage tiers.
 */
export interface LiveCatalog {
  readonly gpuPools: ReadonlyMap<string, string | null>;
  readonly dataCenterTiers: ReadonlyMap<string, readonly string[]>;
}

/**
 * The live catalog rule for an endpoint: every GPU type it names (`gpuTypeIds`, `excludedGpuTypes`)
 * is one the platform lists today, every type of `gpuTypeIds` has a serverless pool, every pool of
 * `gpuPools` holds a type, every data center exists. Unlike runpod-known-platform-values (this
 * release's snapshot), it knows what the platform added or retired since the release.
 */
export function checkEndpointAgainstCatalog(
  name: string,
  props: ServerlessEndpointProps,
  catalog: LiveCatalog,
): string[] {
  const found = violationList(resourceLabel("ServerlessEndpoint", name));
  const pools = new Set([...catalog.gpuPools.values()].filter((p): p is string => p !== null));
  const each = (
    field: "gpuTypeIds" | "excludedGpuTypes" | "gpuPools" | "dataCenterIds",
    judge: (v: string) => string | undefined,
  ) => {
    const list: unknown = props[field];
    if (!Array.isArray(list)) return;
    list.forEach((value: unknown, i) => {
      if (typeof value !== "string") return;
      const rule = judge(value);
      if (rule) found.add(`${field}[${i}]`, formatValue(value), rule);
    });
  };
  const gpuType = (serverless: boolean) => (id: string) => {
    const pool = catalog.gpuPools.get(id);
    if (pool === undefined) {
      const near = suggestionText(nearestValues(id, catalog.gpuPools.keys()));
      return `is not a GPU type of the platform's live catalog (GET /v2/catalog/gpus)${near}`;
    }
    if (serverless && pool === null)
      return "is in no serverless GPU pool of the live catalog: serverless endpoints cannot rent it";
    return undefined;
  };
  each("gpuTypeIds", gpuType(true));
  each("excludedGpuTypes", gpuType(false));
  each("gpuPools", (p) => (pools.has(p) ? undefined : "is not a serverless GPU pool of the platform's live catalog"));
  each("dataCenterIds", (dc) =>
    catalog.dataCenterTiers.has(dc) ? undefined : "is not a data center of the platform's live catalog",
  );
  return found.messages;
}

/** The live catalog rule for a volume: its data center exists and offers its storage tier. */
export function checkVolumeAgainstCatalog(name: string, props: NetworkVolumeProps, catalog: LiveCatalog): string[] {
  const found = violationList(resourceLabel("NetworkVolume", name));
  const dc = props.dataCenterId;
  if (typeof dc !== "string") return [];
  const tiers = catalog.dataCenterTiers.get(dc);
  if (tiers === undefined) {
    return found.add("dataCenterId", formatValue(dc), "is not a data center of the platform's live catalog");
  }
  if (typeof props.type === "string" && !tiers.includes(props.type)) {
    found.add("type", formatValue(props.type), `is not a storage tier of ${dc}, which offers ${formatValue(tiers)}`);
  }
  return found.messages;
}

/** Why the policy cannot read the live catalog, or undefined when it can (an API key in the pack's environment). */
export function catalogUnavailableReason(env: NodeJS.ProcessEnv = process.env): string | undefined {
  if (env.RUNPOD_API_KEY?.trim()) return undefined;
  return "no RUNPOD_API_KEY in the policy pack's environment, so the live catalog was not read (runpod-known-platform-values still checks this release's snapshot)";
}

/**
 * The management v2 URL the catalog is read from: `RUNPOD_API_URL` when it names v2, the same
 * origin's `/v2` when it names v1 on another host than the platform's (the emulator serves both),
 * else the platform's (the catalog exists on v2 only, whichever version the stack's resources talk).
 */
export function catalogApiUrl(env: NodeJS.ProcessEnv = process.env, configured?: string): string {
  if (configured) return configured.replace(/\/+$/, "");
  const url = env.RUNPOD_API_URL?.trim().replace(/\/+$/, "");
  if (url?.endsWith("/v2")) return url;
  // A v1 URL of another host than the platform's (an emulator, a proxy) serves v2 beside it.
  if (url?.endsWith("/v1") && !/^https?:\/\/rest\.runpod\.io\//.test(url)) return `${url.slice(0, -3)}/v2`;
  return "https://api.runpod.io/v2";
}

const loaded = new Map<string, Promise<LiveCatalog>>();

/** The live catalog at `apiUrl`, read once per policy-pack process (the client is loaded on first use only). */
export function loadLiveCatalog(apiUrl: string, env: NodeJS.ProcessEnv = process.env): Promise<LiveCatalog> {
  const cached = loaded.get(apiUrl);
  if (cached) return cached;
  const catalog = (async () => {
    const { RunpodClient } = await import("../sdk/client.js");
    const client = new RunpodClient({ apiKey: env.RUNPOD_API_KEY, apiUrl, maxAttempts: 3 });
    try {
      const [gpus, dataCenters] = await Promise.all([client.v2.catalog.gpus(), client.v2.catalog.dataCenters()]);
      return {
        gpuPools: new Map(gpus.map((g) => [g.id, g.pool])),
        dataCenterTiers: new Map(dataCenters.map((d) => [d.id, d.networkVolumeTypes])),
      };
    } finally {
      await client.close();
    }
  })();
  loaded.set(apiUrl, catalog);
  catalog.catch(() => loaded.delete(apiUrl));
  return catalog;
}

/** Reads the catalog (or says why not) and reports what `check` finds in it. */
async function judge(
  args: { getConfig(): unknown; notApplicable(reason: string): void },
  reportViolation: (message: string) => void,
  check: (catalog: LiveCatalog) => string[],
): Promise<void> {
  const why = catalogUnavailableReason();
  if (why !== undefined) return args.notApplicable(why);
  const config = parsePolicyConfig(LIVE_CATALOG_POLICY, LiveCatalogConfigSchema, args.getConfig());
  let catalog: LiveCatalog;
  try {
    catalog = await loadLiveCatalog(catalogApiUrl(process.env, config.catalogUrl));
  } catch (err) {
    return reportViolation(`the live catalog could not be read: ${(err as Error).message}`);
  }
  for (const message of check(catalog)) reportViolation(message);
}

/**
 * The policy (advisory, so a new policy breaks no stack): endpoints and volumes against the
 * platform's live catalog, where the pack has credentials (`RUNPOD_API_KEY` in its environment);
 * without them it says so, as "not applicable", and checks nothing. A catalog that cannot be read
 * is reported once per resource, naming the error, never as a pass.
 */
export const liveCatalogPolicy: ResourceValidationPolicy & { readonly name: typeof LIVE_CATALOG_POLICY } = {
  name: LIVE_CATALOG_POLICY,
  description:
    "With RUNPOD_API_KEY in the pack's environment: the GPU types, GPU pools, data centers and storage tiers the stack names exist in the platform's live catalog (GET /v2/catalog/gpus, /v2/catalog/datacenters), and every GPU type of an endpoint's gpuTypeIds has a serverless pool.",
  enforcementLevel: "advisory",
  remediationSteps:
    "Choose values the live catalog lists (client.v2.catalog.gpus(), client.v2.catalog.dataCenters()), or wait until the platform offers them.",
  configSchema: toPolicyConfigSchema(LiveCatalogConfigSchema),
  validateResource: [
    ...stubsOfEachType(ServerlessEndpointResource).map((stub) =>
      validateResourceOfType(stub, (props, args, reportViolation) =>
        judge(args, reportViolation, (catalog) =>
          checkEndpointAgainstCatalog(args.name, props as ServerlessEndpointProps, catalog),
        ),
      ),
    ),
    ...stubsOfEachType(NetworkVolumeResource).map((stub) =>
      validateResourceOfType(stub, (props, args, reportViolation) =>
        judge(args, reportViolation, (catalog) =>
          checkVolumeAgainstCatalog(args.name, props as NetworkVolumeProps, catalog),
        ),
      ),
    ),
  ],
};
