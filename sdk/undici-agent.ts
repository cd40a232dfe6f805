import { createRequire } from "node:module";
import type { Agent as UndiciAgent } from "undici";

/** The module of undici's `Agent` class, inside undici's package. */
export const AGENT_MODULE = "undici/lib/dispatcher/agent";

type AgentClass = typeof UndiciAgent;

/** How `require` says the module is gone: removed, or hidden behind an `exports` map. */
const MOVED = new Set(["MODULE_NOT_FOUND", "ERR_PACKAGE_PATH_NOT_EXPORTED"]);

/**
 * Loads undici's `Agent` from its own module instead of undici's index. The index loads all of
 * undici (fetch, WebSocket, EventSource, the cache, proxy and mock layers), about 43 ms at every
 * process start on the benchmark machine against about 7 ms for the connection pool the client
 * uses; in the Pulumi provider that time is spent before the first create can send anything.
 * The class is the one the index exports (test/unit/sdk/undici-agent.test.ts). Only `dispatch`,
 * `close` and `destroy` are used: the index is also what adds `request` and `stream` to
 * dispatchers, so the transport keeps its dispatcher to itself.
 *
 * Should a later undici move the module or stop exporting its path, the index is loaded instead:
 * slower, never broken.
 */
export function loadAgent(load: (id: string) => unknown): AgentClass {
  try {
    return load(AGENT_MODULE) as AgentClass;
  } catch (err) {
    if (!MOVED.has((err as NodeJS.ErrnoException).code ?? "")) throw err;
    return (load("undici") as { Agent: AgentClass }).Agent;
  }
}

export const Agent: AgentClass = loadAgent(createRequire(__filename));
