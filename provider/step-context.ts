import { AsyncLocalStorage } from "node:async_hooks";

/*
 * What a provider step knows besides its inputs, where the host that runs it can say: the
 * resource's URN (for notices under it) and the engine's timeout of the step. The provider plugin
 * gets both from the engine's request; the dynamic provider host hands over neither, so a dynamic
 * resource carries its URN as the input `__urn` and has no engine timeout.
 */

/** The context of one create or update. */
export interface StepContext {
  /** The resource's URN. */
  urn?: string | undefined;
  /** The engine's timeout of the step (`customTimeouts` create/update), in seconds; 0 or undefined for none. */
  timeoutSeconds?: number | undefined;
}

const steps = new AsyncLocalStorage<StepContext>();

/** Runs `fn` as a step with this context (the plugin, around each create and update). */
export function runStep<T>(context: StepContext, fn: () => T): T {
  return steps.run(context, fn);
}

/** The context of the step being run, with the URN the inputs carry when the host gave none. */
export function stepContext(inputs: Record<string, unknown>): StepContext {
  const context = steps.getStore() ?? {};
  const urn = context.urn ?? (typeof inputs.__urn === "string" ? inputs.__urn : undefined);
  return { ...context, urn };
}
