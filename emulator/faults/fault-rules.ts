import { z } from "zod";
import { compilePathPattern, pathMatches } from "./route-pattern";

const rate = z.number().min(0, "must be between 0 and 1").max(1, "must be between 0 and 1");
const ms = z
  .number()
  .int("must be a whole number of ms")
  .min(0, "must be at least 0")
  .max(60_000, "must be at most 60000");

/**
 * One fault rule (docs/emulator.md, "Fault injection and admin routes"). `route` is `[METHOD ]PATH_PREFIX`: `/v1`, `POST /v2`,
 * `*`. A `*` in the path matches any characters but `/`, so `GET /v2/` + `*` + `/status` matches
 * every status call.
 */
export const FaultRuleSchema = z.object({
  route: z.string().min(1, "must not be empty").max(300, "must be at most 300 characters").default("*"),
  /** Added real-time latency before the request is handled. */
  latencyMs: ms.default(0),
  /** Up to this much more latency, uniformly random. */
  jitterMs: ms.default(0),
  /** Share of requests answered 500. */
  errorRate: rate.default(0),
  /** Share of requests answered 429 with `Retry-After: 1`. */
  rateLimitRate: rate.default(0),
  /** Share of requests answered 403, as the platform answers a key that lacks the operation's scope. */
  forbiddenRate: rate.default(0),
  /** Share of requests whose connection is destroyed without an answer, before they are handled. */
  dropRate: rate.default(0),
  /**
   * Share of requests that are handled, their effect kept, and whose connection is then destroyed
   * instead of answered: the platform did the work, the client never learns it (a
   * create whose response was lost).
   */
  lostResponseRate: rate.default(0),
  /**
   * Real-time delay between handling a request (its effect kept) and sending its answer: a window
   * in which a test can kill the client after the platform acted and before the client learned
   * it (docs/reliability.md). The answer is sent at once if the client goes away first.
   */
  holdResponseMs: ms.default(0),
});
/** A fault rule as given. */
export type FaultRule = z.input<typeof FaultRuleSchema>;

/** Body of `PUT /_emulator/faults`: the rules of the caller's account, first match wins. */
export const FaultConfigSchema = z.object({
  rules: z.array(FaultRuleSchema).max(100, "at most 100 rules"),
});

/** A rule ready to match requests. */
export interface CompiledFaultRule extends z.output<typeof FaultRuleSchema> {
  method: string | undefined;
  /** Path pattern split in segments (see `route-pattern.ts`). */
  path: string[];
}

const METHOD_PREFIX = /^([A-Za-z]+)\s+(.*)$/;

/** Parses the route pattern of a rule once, so matching a request is one regex test. */
export function compileFaultRule(input: FaultRule): CompiledFaultRule {
  const rule = FaultRuleSchema.parse(input);
  const m = METHOD_PREFIX.exec(rule.route.trim());
  const method = m ? m[1]!.toUpperCase() : undefined;
  const pattern = m ? m[2]!.trim() : rule.route.trim();
  return { ...rule, method, path: compilePathPattern(pattern) };
}

/** The first rule matching a request, if any. */
export function matchFaultRule(
  rules: readonly CompiledFaultRule[],
  method: string,
  path: string,
): CompiledFaultRule | undefined {
  for (const rule of rules) {
    if ((rule.method === undefined || rule.method === method) && pathMatches(rule.path, path)) return rule;
  }
  return undefined;
}

/** A rule as `GET /_emulator/faults` shows it. */
export function describeFaultRule(rule: CompiledFaultRule): FaultRule {
  const { method: _method, path: _path, ...shown } = rule;
  return shown;
}
