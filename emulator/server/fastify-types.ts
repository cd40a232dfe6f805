import type { RateLimitedOperation } from "../limits/rate-limit-table";
import type { Account } from "../store/account";

declare module "fastify" {
  interface FastifyRequest {
    /** The account of the request's API key (set by the authentication hook). */
    account: Account;
  }
  interface FastifyContextConfig {
    /** Row of the platform's rate-limit table this route counts against. */
    op?: RateLimitedOperation;
    /** No authentication (served images). */
    public?: boolean;
    /** An `/_emulator/` admin route: authenticated, but not counted, faulted or rate limited. */
    admin?: boolean;
    /** `METHOD /route/pattern`, set when the route is registered. */
    statKey?: string;
    /** Human form of the route's payload limit, for 413 messages. */
    bodyLimitLabel?: string;
    /** A management API v2 route: errors are RFC 9457 problem objects (`application/problem+json`). */
    problems?: boolean;
  }
}
