import * as V2 from "../../schemas/v2";
import type { CallOptions, Transport } from "../../transport";
import { PagedResourceV2 } from "./paged-resource";

/**
 * Templates of management API v2 (`/v2/templates`), in v2's own shapes: `create`, `get` (the
 * account's own templates and public catalog ones), `list` (the account's own, unwrapped from
 * `{"templates": [...]}`), `update` (`PATCH`: only the given fields change; `category` and
 * `serverless` may change too), `delete` (refused while an endpoint or pod uses the template).
 * A template is applied once, when a pod or endpoint is created from it: later edits do not reach
 * them. The public catalog is `client.v2.catalog.templates()`.
 */
export class TemplatesV2 extends PagedResourceV2<V2.Template, V2.CreateTemplateRequest> {
  constructor(transport: Transport) {
    super(
      transport,
      {
        version: "v2",
        api: "v2.templates",
        path: "/templates",
        noun: "template",
        schema: V2.TemplateSchema,
        listSchema: V2.TemplateListSchema,
        createSchema: V2.CreateTemplateRequestSchema,
      },
      "templates",
    );
  }

  /** `PATCH /v2/templates/{id}`: only the given fields change (an owned template only: a catalog one is a 404). */
  async update(id: string, input: V2.UpdateTemplateRequest, options?: CallOptions): Promise<V2.Template> {
    return this.sendUpdate(id, this.validated(V2.UpdateTemplateRequestSchema, input, "update"), options);
  }
}
