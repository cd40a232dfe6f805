import type { FastifyReply, FastifyRequest, HookHandlerDoneFunction } from "fastify";
import { countRequest } from "../store/account-stats";
import { injectFaults } from "../faults/fault-injector";
import type { ManagementQuota } from "../limits/management-quota";
import type { RateLimiter } from "../limits/rate-limiter";
import type { Account } from "../store/account";
import type { EmulatorStore } from "../store/emulator-store";
import { bearerKey } from "../store/auth";
import { sendError } from "../errors/http-errors";
import type { ProblemRoutes } from "./problem-routes";
import { chargeManagementQuota, chargesManagementQuota } from "./quota-answer";
import "./fastify-types";

const MISSING_KEY = {
  error: "unauthorized",
  message: "missing API key: send the header Authorization: Bearer <API_KEY>",
};
const WRONG_KEY = { error: "unauthorized", message: "the API key is not valid for this emulator" };

/**
 * The one `onRequest` hook, in order: request id header; bearer authentication (docs/platform.md
 * "Addresses and authentication": a missing or wrong key is a 401); per-account counters; management API v2's
 * per-user quota (before faults, as a gateway would count it); fault injection; the platform's rate
 * limits. Callback style, so the common path adds no promise.
 */
export function createRequestHook(
  store: EmulatorStore,
  limiter: RateLimiter,
  quota: ManagementQuota,
  problemRoutes: ProblemRoutes,
) {
  return function onRequest(req: FastifyRequest, reply: FastifyReply, done: HookHandlerDoneFunction): void {
    reply.header("x-request-id", req.id);
    const config = req.routeOptions.config;
    if (config.public) {
      done();
      return;
    }
    const account = store.accountForAuthorization(req.headers.authorization);
    if (!account) {
      const body = bearerKey(req.headers.authorization) === undefined ? MISSING_KEY : WRONG_KEY;
      sendError(reply, 401, body, config.problems === true);
      return;
    }
    req.account = account;
    if (config.admin) {
      done();
      return;
    }
    countRequest(account.stats, config.statKey ?? "(no route)", reply.raw);
    if (
      quota.settings.enabled &&
      chargesManagementQuota(req, problemRoutes) &&
      !chargeManagementQuota(quota, account, reply)
    )
      return;
    if (account.faults.length === 0) {
      rateLimit(account, limiter, req, reply, done);
      return;
    }
    injectFaults(account.faults, account.stats.faults, account.random, req, reply, () =>
      rateLimit(account, limiter, req, reply, done),
    );
  };
}

function rateLimit(
  account: Account,
  limiter: RateLimiter,
  req: FastifyRequest,
  reply: FastifyReply,
  done: HookHandlerDoneFunction,
): void {
  const op = req.routeOptions.config.op;
  if (!op || !limiter.settings.enabled) {
    done();
    return;
  }
  const endpointId = (req.params as { endpointId?: string }).endpointId ?? "";
  const runtime = account.runtime(endpointId);
  // Unknown endpoints get their 404 from the route; they must not create counters.
  if (!runtime) {
    done();
    return;
  }
  const decision = limiter.acquire(account.rateBuckets, endpointId, op, runtime.runningWorkers);
  if (!decision.ok) {
    account.stats.rateLimited++;
    reply
      .code(429)
      .header("retry-after", String(decision.retryAfterSeconds))
      .send({ error: "rate_limited", message: decision.message });
    return;
  }
  const bucket = decision.bucket;
  if (bucket) reply.raw.once("close", () => limiter.release(bucket));
  done();
}
