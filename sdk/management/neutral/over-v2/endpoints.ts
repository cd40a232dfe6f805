import { validateForVersion } from "../../../request-validation";
import {
  type Endpoint,
  type EndpointCreateInput,
  EndpointCreateInputSchema,
  type EndpointUpdateInput,
  EndpointUpdateInputSchema,
} from "../../../schemas";
import type { CallOptions } from "../../../transport";
import type { EndpointOperations } from "../api";
import type { ServerlessV2 } from "../../v2/serverless";
import { endpointCreateToV2, endpointFromV2, endpointUpdateToV2, NEUTRAL_NAMES } from "./endpoint-translation";
import type { GpuCatalogCache } from "./gpu-catalog-cache";
import { renamedProblems } from "./neutral-fields";

const KIND = "endpoint";

/**
 * The version-neutral endpoint operations on management API v2: v1's field names translated to
 * and from `client.v2.serverless`. GPU types become pools through the live catalog
 * (`client.v2.catalog.gpus()`, kept a few minutes per client). Errors of v2's own request rules
 * name the neutral fields (`workersMin`, not `workers.min`).
 */
export class NeutralEndpointsOverV2 implements EndpointOperations {
  /**
   * Built by `RunpodClient`, which passes the client's GPU catalog cache.
   * @internal
   */
  constructor(
    private readonly v2: ServerlessV2,
    private readonly catalog: GpuCatalogCache,
  ) {}

  async create(input: EndpointCreateInput, options?: CallOptions): Promise<Endpoint> {
    const valid = validateForVersion(EndpointCreateInputSchema, input, "create endpoint", KIND, "v2");
    const catalog = await this.catalog.get();
    const body = endpointCreateToV2(valid, catalog);
    const created = await renamedProblems(NEUTRAL_NAMES, () => this.v2.create(body, options), "create endpoint");
    return endpointFromV2(created, catalog);
  }

  async get(id: string, options?: CallOptions): Promise<Endpoint> {
    const [endpoint, catalog] = await Promise.all([this.v2.get(id, options), this.catalog.get()]);
    return endpointFromV2(endpoint, catalog);
  }

  async list(options?: CallOptions): Promise<Endpoint[]> {
    const [endpoints, catalog] = await Promise.all([this.v2.list(options), this.catalog.get()]);
    return endpoints.map((e) => endpointFromV2(e, catalog));
  }

  async update(id: string, input: EndpointUpdateInput, options?: CallOptions): Promise<Endpoint> {
    const context = `update endpoint ${id}`;
    const valid = validateForVersion(EndpointUpdateInputSchema, input, context, KIND, "v2");
    const catalog = await this.catalog.get();
    // v2 sets a scaler, and a CPU selection, whole: a change to one part needs the other part.
    const partial =
      valid.scalerType !== undefined ||
      valid.scalerValue !== undefined ||
      valid.idleTimeout !== undefined ||
      (valid.vcpuCount !== undefined) !== (valid.cpuFlavorIds !== undefined);
    const current = partial ? await this.v2.get(id, options) : undefined;
    const body = endpointUpdateToV2(valid, current, catalog, context);
    if (Object.keys(body).length === 0) return endpointFromV2(current ?? (await this.v2.get(id, options)), catalog);
    const updated = await renamedProblems(NEUTRAL_NAMES, () => this.v2.update(id, body, options), context);
    return endpointFromV2(updated, catalog);
  }

  delete(id: string, options?: CallOptions): Promise<void> {
    return this.v2.delete(id, options);
  }
}
