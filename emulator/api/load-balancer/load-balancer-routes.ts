import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import { healthPathOf } from "../../endpoints/endpoint-render";
import type { ServerContext } from "../../server/server-context";
import { notFound } from "../../errors/http-errors";
import type { HttpRequestView } from "../../jobs/http-answer";

type LbParams = { Params: { endpointId: string } };

/**
 * Where load-balancing endpoints answer, under the emulator's origin (`requestUrls.base` =
 * `<origin>/lb/<id>`): the prefix route-trees.ts registers these routes under.
 */
export const LOAD_BALANCER_PREFIX = "/lb";

/** A request body as a handler reads it: JSON parsed (text when it is not JSON), other bodies as UTF-8 text. */
function bodyOf(req: FastifyRequest): unknown {
  const raw = req.body;
  if (!Buffer.isBuffer(raw) || raw.length === 0) return undefined;
  const text = raw.toString("utf8");
  if (!String(req.headers["content-type"] ?? "").includes("json")) return text;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}

/** The request's headers as a worker sees them: the API key is the platform's business, never the worker's. */
function forwardedHeaders(req: FastifyRequest): HttpRequestView["headers"] {
  const { authorization: _key, ...headers } = req.headers;
  return headers;
}

/**
 * The HTTP side of load-balancing endpoints (OpenAPI v2 `EndpointType` `LOAD_BALANCER`): every
 * method on `<origin>/lb/<endpoint_id>/<path>` goes to a worker of the endpoint, whose handler
 * receives the request as its `input` (`{ method, path, query, headers, body }`, the path below
 * the base) and answers with its return value: `{ statusCode, headers?, body? }` says the status,
 * anything else is a 200 with that value as JSON. The health path (`/ping`, or `HEALTH_CHECK_PATH`
 * from the endpoint's env) answers 200 while a worker is up and 204 while none is, and starts
 * none. Requests need the account's API key, as the platform's do; the key is not passed on.
 */
export function registerLoadBalancerRoutes(app: FastifyInstance, _ctx: ServerContext): void {
  app.register(async (lb) => {
    // Any body, in any content type: a worker's HTTP server decides what it accepts.
    lb.removeAllContentTypeParsers();
    lb.addContentTypeParser("*", { parseAs: "buffer" }, (_req, body, done) => done(null, body));

    const serve = async (req: FastifyRequest<LbParams>, reply: FastifyReply) => {
      const id = req.params.endpointId;
      const record = req.account.endpoints.get(id);
      const balancer = req.account.balancer(id);
      if (!record || record.type !== "LOAD_BALANCER" || !balancer) {
        throw notFound(`no load-balancing endpoint ${id} (a queue endpoint takes jobs at /v2/${id}/run)`);
      }
      const pathname = req.url.split("?", 1)[0] ?? "";
      const path = pathname.slice(`${LOAD_BALANCER_PREFIX}/${id}`.length) || "/";
      if (path === healthPathOf(record.env)) {
        return balancer.healthy ? reply.code(200).send({ status: "healthy" }) : reply.code(204).send();
      }
      const gone = new AbortController();
      reply.raw.once("close", () => {
        if (!reply.raw.writableFinished) gone.abort();
      });
      const view: HttpRequestView = {
        method: req.method,
        path,
        query: req.query as HttpRequestView["query"],
        headers: forwardedHeaders(req),
        body: bodyOf(req),
      };
      const answer = await balancer.handle(view, gone.signal);
      reply.code(answer.statusCode).headers(answer.headers);
      const body = answer.body;
      if (body === undefined || body === null) return reply.send();
      if (typeof body === "string" || Buffer.isBuffer(body)) {
        if (!reply.hasHeader("content-type")) reply.header("content-type", "text/plain; charset=utf-8");
        return reply.send(body);
      }
      return reply.header("content-type", "application/json; charset=utf-8").send(JSON.stringify(body));
    };
    lb.all<LbParams>("/:endpointId", serve);
    lb.all<LbParams>("/:endpointId/*", serve);
  });
}
