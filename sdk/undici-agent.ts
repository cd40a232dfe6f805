import { createRequire } from "node:module";
import type { Agent as UndiciAgent } from "undici";

/** The module of undici's `Agent` class, inside undici's package. */
export const AGENT_MODULE = "undici/lib/dispatcher/agent";

type AgentClass = typeof UndiciAgent;

/**
 * Loads undici's `Agent` from its own module instead of undici's index. The index loads all of
 * undici (fetch, WebSocket, EventSource, the cache, proxy and mock layers), about 43 ms at every
 * process start on the benchmark machine against about 7 ms for the connection pool the client
 * uses; in the Pulumi provider that time is spent before the first create can send anything
 * (issue 14). The class is the one the index exports (test/unit/sdk/undici-agent.test.ts). Only
 * `dispatch`, `close` and `destroy` are used: the index is also what adds `request` and `stream`
 * to dispatchers, so the transport keeps its dispatcher to itself.
 *
 * Should a later undici move the module, the index is loaded instead: slower, never broken.
 */
export function loadAgent(load: (id: string) => unknown): AgentClass {
  try {
    return load(AGENT_MODULE) as AgentClass;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== "MODULE_NOT_FOUND") throw err;
    return (load("undici") as { Agent: AgentClass }).Agent;
  }
}

export const Agent: AgentClass = loadAgent(createRequire(__filename));
