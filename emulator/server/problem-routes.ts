import type { FastifyInstance } from "fastify";
import "./fastify-types";

/**
 * Which requests are answered in management API v2's error dialect, RFC 9457 problem objects:
 * the routes of the route trees that say so (api/route-trees.ts), and any other path under one of
 * their collections (`/v2/pods/...`, `/v2/serverless/...`), so a path no route matches, a method
 * not served or a route not built yet answers as its collection does. The collections are learned
 * from the routes as fastify registers them, so there is no list of paths to keep beside the tree:
 * every other `/v2/<id>/...` path is the job API's, which kept v1's error bodies.
 */
export class ProblemRoutes {
  /** `/<prefix>/<first segment>` of every problem route, e.g. `/v2/pods`. */
  private readonly collections = new Set<string>();

  /**
   * Makes every route registered in `scope` (one route tree's fastify plugin) a problem route, and
   * learns its collection: the first segment below the tree's prefix, unless it is a parameter.
   */
  adopt(scope: FastifyInstance): void {
    scope.addHook("onRoute", (route) => {
      route.config = { ...(route.config ?? {}), problems: true };
      const [, first, second] = route.url.split("/");
      if (first !== undefined && second && !second.startsWith(":")) this.collections.add(`/${first}/${second}`);
    });
  }

  /** Whether a request path (or route pattern) lies under a collection of the problem routes. */
  covers(url: string): boolean {
    const [, first, second] = url.split("?", 1)[0]!.split("/");
    return first !== undefined && second !== undefined && this.collections.has(`/${first}/${second}`);
  }
}
