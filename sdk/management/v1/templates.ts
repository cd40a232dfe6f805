import {
  type Template,
  type TemplateCreateInput,
  TemplateCreateInputSchema,
  TemplateListSchema,
  TemplateSchema,
  type TemplateUpdateInput,
  TemplateUpdateInputSchema,
} from "../../schemas";
import type { CallOptions, Transport } from "../../transport";
import { ManagementResource, type ReadQuery, type UpdateMethodOptions } from "../management-resource";

/** Options of {@link TemplatesV1.get} and {@link TemplatesV1.list}: the OpenAPI's query flags (all default false). */
export interface TemplateReadOptions extends CallOptions {
  /** Include templates bound to serverless endpoints. */
  includeEndpointBoundTemplates?: boolean | undefined;
  /** Include community-made public templates. */
  includePublicTemplates?: boolean | undefined;
  /** Include the platform's official templates (`isRunpod: true`). */
  includeRunpodTemplates?: boolean | undefined;
}

/** Options of {@link TemplatesV1.update}: `method` picks `PATCH` (default) or `POST .../update`. */
export type TemplateUpdateOptions = UpdateMethodOptions;

/**
 * Templates of the management API (`/v1/templates`): the image, disks, ports and env an
 * endpoint's workers run. `create` (names are unique in the account), `get` and `list` (with the
 * OpenAPI's query flags), `update`, and `delete` (refused by the platform while an endpoint uses
 * the template: a `BadRequestError`). v2's own inputs (`startSsh`, `startJupyter`, `args`) are
 * refused before sending.
 */
export class TemplatesV1 extends ManagementResource<Template, TemplateCreateInput, TemplateReadOptions> {
  constructor(transport: Transport) {
    super(transport, {
      version: "v1",
      api: "v1.templates",
      path: "/templates",
      noun: "template",
      schema: TemplateSchema,
      listSchema: TemplateListSchema,
      createSchema: TemplateCreateInputSchema,
      versionFields: "template",
    });
  }

  /**
   * Updates a template: a rolling release of every endpoint that uses it, on the platform. Each
   * given field replaces the stored one whole; `containerRegistryAuthId: ""` takes the registry
   * auth off. `category` and `isServerless` cannot change (refused before sending).
   */
  update(id: string, input: TemplateUpdateInput, options?: TemplateUpdateOptions): Promise<Template> {
    return this.updateWith(TemplateUpdateInputSchema, id, input, options);
  }

  protected override readQuery(o: TemplateReadOptions | undefined): ReadQuery {
    return {
      includeEndpointBoundTemplates: o?.includeEndpointBoundTemplates,
      includePublicTemplates: o?.includePublicTemplates,
      includeRunpodTemplates: o?.includeRunpodTemplates,
    };
  }
}
