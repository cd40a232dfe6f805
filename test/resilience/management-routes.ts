/**
 * Fault and kill routes of the management API the emulator advertises (`apiUrl`: v2 by default),
 * so the resilience stages follow the version the stacks talk instead of naming `/v1`.
 * A fault rule's route is `METHOD /path-prefix` (emulator/faults/route-pattern.ts).
 */
export interface ManagementRoutes {
  /** The API's path prefix, `/v2` or `/v1`: every management request (and, on v2, the job routes under it). */
  base: string;
  /** The network volumes' collection, `/v2/network-volumes` or `/v1/networkvolumes`. */
  networkVolumes: string;
  /** The serverless endpoints' collection, `/v2/serverless` or `/v1/endpoints`. */
  endpoints: string;
}

/** The management routes under the advertised `apiUrl`. */
export function managementRoutes(apiUrl: string): ManagementRoutes {
  const base = new URL(apiUrl).pathname.replace(/\/+$/, "");
  const v2 = base.endsWith("/v2");
  return {
    base,
    networkVolumes: `${base}/${v2 ? "network-volumes" : "networkvolumes"}`,
    endpoints: `${base}/${v2 ? "serverless" : "endpoints"}`,
  };
}
