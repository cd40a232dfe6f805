import type { IncomingMessage } from "node:http";
import type { FastifyReply, FastifyRequest, HookHandlerDoneFunction, onSendHookHandler } from "fastify";
import { type CompiledFaultRule, matchFaultRule } from "./fault-rules";

/** Counters of injected faults (shown by `GET /_emulator/stats`). */
export interface FaultStats {
  latency: number;
  error: number;
  rateLimit: number;
  drop: number;
  /** Requests handled (their effect kept) whose answer was then withheld by destroying the connection. */
  lostResponse: number;
}

/** A new set of zeroed fault counters. */
export function emptyFaultStats(): FaultStats {
  return { latency: 0, error: 0, rateLimit: 0, drop: 0, lostResponse: 0 };
}

/** Requests chosen to lose their answer, with the counters to count it in (see {@link loseChosenAnswers}). */
const answersToLose = new WeakMap<IncomingMessage, FaultStats>();

/**
 * Applies the first matching fault rule to a request: maybe drop the connection, maybe wait,
 * then maybe answer 500 or 429; otherwise lets the request through (`done()`), maybe marked to
 * lose its answer once handled.
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
    if (rule.lostResponseRate > 0 && Math.random() < rule.lostResponseRate) answersToLose.set(req.raw, stats);
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

/**
 * `onSend` hook: a request marked by {@link injectFaults} has been handled and its effect kept;
 * destroy the connection instead of answering, so the client sees a dropped connection after the
 * fact (the "create whose response was lost" of the issue "Resilience"). Writing the answer to
 * the destroyed socket afterwards is a no-op.
 */
export const loseChosenAnswers: onSendHookHandler = (req, _reply, payload, done) => {
  const stats = answersToLose.get(req.raw);
  if (stats) {
    answersToLose.delete(req.raw);
    stats.lostResponse++;
    req.raw.socket.destroy();
  }
  done(null, payload);
};
