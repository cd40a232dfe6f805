import type { IncomingMessage } from "node:http";
import type { FastifyReply, FastifyRequest, HookHandlerDoneFunction, onSendHookHandler } from "fastify";
import { type CompiledFaultRule, matchFaultRule } from "./fault-rules";
import type { FaultStats } from "./fault-stats";
import { sendError } from "../errors/http-errors";

export { emptyFaultStats, type FaultStats } from "./fault-stats";

/** What happens to the answer of a request let through (see {@link loseChosenAnswers}). */
interface AnswerFate {
  stats: FaultStats;
  lose: boolean;
  holdMs: number;
}
/** Requests whose answer is to be lost or held, with the counters to count it in. */
const answerFates = new WeakMap<IncomingMessage, AnswerFate>();

/**
 * Applies the first matching fault rule to a request: maybe drop the connection, maybe wait,
 * then maybe answer 500 or 429; otherwise lets the request through (`done()`), maybe marked to
 * lose or hold its answer once handled. Every choice draws from `random` (the account's seeded
 * stream, see `EmulatorOptions.seed`), so a seed replays the same faults for the same requests.
 */
export function injectFaults(
  rules: readonly CompiledFaultRule[],
  stats: FaultStats,
  random: () => number,
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
  if (rule.dropRate > 0 && random() < rule.dropRate) {
    stats.drop++;
    reply.hijack();
    req.raw.socket.destroy();
    return;
  }
  const proceed = () => {
    if (rule.errorRate > 0 && random() < rule.errorRate) {
      stats.error++;
      const body = { error: "injected_fault", message: "injected server error (fault injection)" };
      sendError(reply, 500, body, req.routeOptions.config.problems === true);
      return;
    }
    if (rule.rateLimitRate > 0 && random() < rule.rateLimitRate) {
      stats.rateLimit++;
      const body = { error: "rate_limited", message: "injected rate limit (fault injection)" };
      sendError(reply.header("retry-after", "1"), 429, body, req.routeOptions.config.problems === true);
      return;
    }
    if (rule.forbiddenRate > 0 && random() < rule.forbiddenRate) {
      stats.forbidden++;
      // The platform's words for a valid key without the scope (OpenAPI v2 `ForbiddenError`).
      const body = {
        error: "forbidden",
        message: "access denied (injected: the API key lacks this operation's scope)",
      };
      sendError(reply, 403, body, req.routeOptions.config.problems === true);
      return;
    }
    const lose = rule.lostResponseRate > 0 && random() < rule.lostResponseRate;
    if (lose || rule.holdResponseMs > 0) answerFates.set(req.raw, { stats, lose, holdMs: rule.holdResponseMs });
    done();
  };
  const delay = rule.latencyMs + (rule.jitterMs > 0 ? random() * rule.jitterMs : 0);
  if (delay <= 0) {
    proceed();
    return;
  }
  stats.latency++;
  setTimeout(proceed, delay);
}

/**
 * `onSend` hook: a request marked by {@link injectFaults} has been handled and its effect kept.
 * To lose its answer, destroy the connection instead of answering, so the client sees a dropped
 * connection after the fact (the "create whose response was lost" of docs/reliability.md);
 * writing the answer to the destroyed socket afterwards is a no-op. To hold it, send it
 * `holdResponseMs` later, or as soon as the client has gone (a killed client must not keep the
 * emulator from closing).
 */
export const loseChosenAnswers: onSendHookHandler = (req, _reply, payload, done) => {
  const fate = answerFates.get(req.raw);
  if (!fate) {
    done(null, payload);
    return;
  }
  answerFates.delete(req.raw);
  if (fate.lose) {
    fate.stats.lostResponse++;
    req.raw.socket.destroy();
    done(null, payload);
    return;
  }
  fate.stats.heldResponse++;
  const socket = req.raw.socket;
  const release = () => {
    clearTimeout(timer);
    socket.off("close", release);
    done(null, payload);
  };
  const timer = setTimeout(release, fate.holdMs);
  socket.once("close", release);
};
