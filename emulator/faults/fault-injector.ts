import type { FastifyReply, FastifyRequest, HookHandlerDoneFunction } from "fastify";
import { type CompiledFaultRule, matchFaultRule } from "./fault-rules";

/** Counters of injected faults (shown by `GET /_emulator/stats`). */
export interface FaultStats {
  latency: number;
  error: number;
  rateLimit: number;
  drop: number;
}

/** A new set of zeroed fault counters. */
export function emptyFaultStats(): FaultStats {
  return { latency: 0, error: 0, rateLimit: 0, drop: 0 };
}

/**
 * Applies the first matching fault rule to a request: maybe drop the connection, maybe wait,
 * then maybe answer 500 or 429; otherwise lets the request through (`done()`).
 */
export function injectFaults(
  rules: readonly CompiledFaultRule[],
  stats: FaultStats,
  req: FastifyRequest,
  reply: FastifyReply,
  done: HookHandlerDoneFunction,
): void {
  const q = req.url.indexOf("?");
  const rule = matchFaultRule(rules, req.method, q < 0 ? req.url : req.url.slice(0, q));
  if (!rule) {
    done();
    return;
  }
  if (rule.dropRate > 0 && Math.random() < rule.dropRate) {
    stats.drop++;
    reply.hijack();
    req.raw.socket.destroy();
    return;
  }
  const proceed = () => {
    if (rule.errorRate > 0 && Math.random() < rule.errorRate) {
      stats.error++;
      reply.code(500).send({ error: "injected_fault", message: "injected server error (fault injection)" });
      return;
    }
    if (rule.rateLimitRate > 0 && Math.random() < rule.rateLimitRate) {
      stats.rateLimit++;
      reply
        .code(429)
        .header("retry-after", "1")
        .send({ error: "rate_limited", message: "injected rate limit (fault injection)" });
      return;
    }
    done();
  };
  const delay = rule.latencyMs + (rule.jitterMs > 0 ? Math.random() * rule.jitterMs : 0);
  if (delay <= 0) {
    proceed();
    return;
  }
  stats.latency++;
  setTimeout(proceed, delay);
}
