import Fastify, { type FastifyError, type FastifyInstance, type FastifyReply } from "fastify";
import { loseChosenAnswers } from "../faults/fault-injector";
import { schedulePreemption } from "../pods/preemption";
import { type ErrorBody, HttpError, sendError } from "../errors/http-errors";
import { ProblemRoutes } from "./problem-routes";
import { createRequestHook } from "./request-hook";
import type { ServerContext } from "./server-context";

let bootCounter = 0;

/** The methods a path may have routes for, in the order `Allow` lists them. */
const ROUTE_METHODS = ["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"] as const;

function requestIdGenerator(): () => string {
  const prefix = `${Date.now().toString(36)}${(bootCounter++).toString(36)}-`;
  let n = 0;
  return () => `${prefix}${(n++).toString(36)}`;
}

function clientError(error: FastifyError, bodyLimitLabel: string | undefined): ErrorBody {
  switch (error.statusCode) {
    case 413:
      return {
        error: "payload_too_large",
        message: `the request body is larger than ${bodyLimitLabel ?? "the limit of this route"}`,
      };
    case 415:
      return {
        error: "unsupported_media_type",
        message: "request bodies must be JSON: send content-type: application/json",
      };
    default: {
      const problems = [{ field: "", value: "(request body)", rule: error.message }];
      return { error: "bad_request", message: `(body): ${error.message}`, problems };
    }
  }
}

/** Registers the emulator's routes (api/route-trees.ts), the routes of problem-object trees through `problems`. */
export type RegisterRouteTrees = (app: FastifyInstance, problems: ProblemRoutes) => void;

/**
 * Builds the emulator's HTTP server: one origin for `/v1`, `/v2` and `/_emulator`. The routes come
 * from `registerRoutes`, called once the hooks and handlers every route gets are in place (the
 * server is a layer below the routes: it never imports them).
 */
export function buildServer(ctx: ServerContext, registerRoutes: RegisterRouteTrees): FastifyInstance {
  const problemRoutes = new ProblemRoutes();
  const app = Fastify({
    logger: ctx.log,
    genReqId: requestIdGenerator(),
    bodyLimit: 1024 * 1024,
    routerOptions: { ignoreTrailingSlash: true, maxParamLength: 200 },
    return503OnClosing: true,
    // close() ends every connection at once: the store is disposed first (waits on jobs are
    // answered), and what is still open then is a stream nobody reads to its end, such as an
    // abandoned OpenAI stream, which would otherwise hold close() until its socket times out.
    forceCloseConnections: true,
    // Malformed URLs and over-long ids, refused before routing: same error shape as everything else.
    frameworkErrors: (error, req, reply) => {
      const r = (reply as unknown as FastifyReply).header("x-request-id", req.id);
      sendError(
        r,
        error.statusCode ?? 400,
        { error: "bad_request", message: error.message },
        problemRoutes.covers(req.url),
      );
    },
  });
  app.decorateRequest("account", null as never);
  app.addHook("onRoute", (route) => {
    const method = Array.isArray(route.method) ? route.method.join(",") : route.method;
    // Whether errors are problem objects is the route tree's to say (ProblemRoutes.adopt).
    route.config = { ...(route.config ?? {}), statKey: `${method} ${route.url}` };
  });
  app.addHook("onRequest", createRequestHook(ctx.store, ctx.limiter, ctx.quota, problemRoutes));
  app.addHook("onSend", loseChosenAnswers);

  // JSON only. An empty body with a JSON content type is "no body" (the Python SDK posts
  // /cancel that way); the default parser's protections against prototype poisoning stay on.
  app.removeAllContentTypeParsers();
  const parseJson = app.getDefaultJsonParser("error", "error");
  app.addContentTypeParser("application/json", { parseAs: "string" }, (req, body, done) => {
    const text = body.toString();
    if (text.trim() === "") return done(null, undefined);
    parseJson(req, text, done);
  });

  app.setErrorHandler((error: FastifyError, req, reply) => {
    const problems = req.routeOptions.config.problems === true;
    if (error instanceof HttpError) return sendError(reply, error.statusCode, error.body, problems);
    const status = error.statusCode ?? 500;
    if (status >= 400 && status < 500) {
      return sendError(reply, status, clientError(error, req.routeOptions.config.bodyLimitLabel), problems);
    }
    req.log.error(error);
    if (!ctx.log) process.stderr.write(`emulator: unexpected error on ${req.method} ${req.url}: ${error.stack}\n`);
    return sendError(reply, 500, { error: "internal_error", message: "the emulator failed; see its output" }, problems);
  });
  app.setNotFoundHandler((req, reply) => {
    const path = req.url.split("?")[0]!;
    const v2 = problemRoutes.covers(path);
    // A known management v2 path asked with a method it lacks: 405 with `Allow`, as v2's OpenAPI
    // documents (`MethodNotAllowedError`); v1 and the job API document none, and stay 404.
    const allow = v2 ? ROUTE_METHODS.filter((method) => app.findRoute({ method, url: path }) !== null) : [];
    if (allow.length > 0) {
      const message = `${req.method} is not allowed on ${path}; it allows ${allow.join(", ")}`;
      return sendError(reply.header("allow", allow.join(", ")), 405, { error: "method_not_allowed", message }, true);
    }
    sendError(reply, 404, { error: "not_found", message: `no route ${req.method} ${path}` }, v2);
  });

  registerRoutes(app, problemRoutes);
  schedulePreemption(app, ctx.scheduler, () => ctx.store.accounts.values(), ctx.preemption);
  return app;
}
