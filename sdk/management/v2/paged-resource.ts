import * as V2 from "../../schemas/v2";
import type { CallOptions, Transport } from "../../transport";
import { ManagementResource, type ReadQuery, type ResourceDescription, sendOnVersion } from "../management-resource";
import {
  type ListPage,
  type PageOptions,
  type PageReader,
  type PageSchema,
  type PagesOptions,
  readAllPages,
  walkItems,
  walkPages,
} from "../paged-list";

/**
 * A management API v2 resource whose list pages (`GET /v2/pods?limit=&cursor=`): `list` reads every
 * page, and `pages` and `items` hand them out one at a time as the caller iterates, each next
 * page read only when it is reached:
 *
 * ```ts
 * for await (const pod of client.v2.pods.items()) console.log(pod.id);
 * for await (const page of client.v2.pods.pages({ limit: 100 })) console.log(page.items.length, page.nextCursor);
 * ```
 *
 * Every page is the same request with the same parameters, plus the cursor of the page before.
 *
 * @typeParam T - the resource as the API returns it
 * @typeParam C - the create input
 * @typeParam R - the options of `get` and `list` (query parameters, if the resource has any)
 */
export abstract class PagedResourceV2<T, C, R extends CallOptions = CallOptions> extends ManagementResource<T, C, R> {
  private readonly pageSchema: PageSchema<T>;

  /** `listKey`: where the list's answer holds the items (`pods` of `{"pods": [...], "pagination": {...}}`). */
  constructor(transport: Transport, resource: ResourceDescription<T>, listKey: string) {
    super(transport, resource);
    this.pageSchema = V2.pagedList(listKey, resource.schema);
  }

  /** Lists the account's, every page of them (`limit`: items per page, 1 to 1000, default 1000). */
  override async list(options?: R & PageOptions): Promise<T[]> {
    return readAllPages(this.pageReader(options), this.resource.path, options);
  }

  /** The account's, one page at a time (`cursor`: start at a page read earlier; `limit`: its size). */
  pages(options?: R & PagesOptions): AsyncGenerator<ListPage<T>, void, undefined> {
    return walkPages(this.pageReader(options), this.resource.path, options);
  }

  /** The account's, one at a time, across every page (`limit`: items per page). */
  items(options?: R & PageOptions): AsyncGenerator<T> {
    return walkItems(this.pageReader(options), this.resource.path, options);
  }

  /** Reads one page: the list's query, the same for every page, plus `cursor` and `limit`. */
  private pageReader(options: R | undefined): PageReader<T> {
    return (cursor, limit) =>
      this.send("list", {
        method: "GET",
        path: this.resource.path,
        query: { ...this.readQuery(options), limit, cursor },
        idempotent: true,
        schema: this.pageSchema,
        options,
      });
  }
}

/**
 * Every page of a v2 list that is not a resource's own (`/v2/clusters/{id}/pods`, the catalog, the
 * ECR delegations), read to its end: the same `query` on every page, plus `cursor` and `limit`.
 * `operation` names it in errors (`v2.catalog.gpus`).
 */
export function readEveryPage<T>(
  transport: Transport,
  operation: string,
  path: string,
  schema: PageSchema<T>,
  query: ReadQuery | undefined,
  options: PageOptions | undefined,
): Promise<T[]> {
  const read: PageReader<T> = (cursor, limit) =>
    sendOnVersion(transport, "v2", operation, {
      method: "GET",
      path,
      query: { ...query, limit, cursor },
      idempotent: true,
      schema,
      options,
    });
  return readAllPages(read, path, options);
}
