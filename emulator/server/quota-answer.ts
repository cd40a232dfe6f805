import type { FastifyReply, FastifyRequest } from "fastify";
import type { ManagementQuota } from "../limits/management-quota";
import type { Account } from "../store/account";
import { sendError } from "../errors/http-errors";
import type { ProblemRoutes } from "./problem-routes";
import "./fastify-types";

/**
 * Whether a request is charged to management API v2's quota: every v2 management path (routes
 * not built yet, answered 404, included), never the job routes, v1 or the admin routes.
 */
export function chargesManagementQuota(req: FastifyRequest, problemRoutes: ProblemRoutes): boolean {
  const config = req.routeOptions.config;
  // A registered route knows from onRoute; a request that matched no route has no statKey.
  return config.problems === true || (config.statKey === undefined && problemRoutes.covers(req.url));
}

/**
 * Charges an authenticated v2 management request to its account's quota: sets `RateLimit` and
 * `RateLimit-Policy` on the answer, whatever it turns out to be (an error or an injected fault
 * included), and answers 429 with `Retry-After` when a window is spent. Returns whether the
 * request goes on.
 */
export function chargeManagementQuota(quota: ManagementQuota, account: Account, reply: FastifyReply): boolean {
  const decision = quota.admit(account.quotaCounts);
  reply.header("ratelimit", decision.rateLimit).header("ratelimit-policy", quota.policyHeader);
  if (decision.ok) return true;
  account.stats.managementQuotaRefused++;
  const { name, quota: limit } = decision.window;
  sendError(
    reply.header("retry-after", String(decision.retryAfterSeconds)),
    429,
    { error: "rate_limited", message: `rate limit exceeded for the ${name} window (${limit} requests)` },
    true,
  );
  return false;
}
