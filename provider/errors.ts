import { ConnectionError, InternalServerError, NotFoundError, TimeoutError } from "../sdk/errors";

/** Whether a failed create may still have created the resource (the answer was lost, not a refusal). */
export function mayHaveTakenEffect(err: unknown): boolean {
  if (err instanceof ConnectionError) return err.maybeDelivered;
  return err instanceof TimeoutError || (err instanceof InternalServerError && err.status === 500);
}

/** Whether the platform says the resource does not exist. */
export function isNotFound(err: unknown): boolean {
  return err instanceof NotFoundError;
}

/**
 * The error shape the dynamic provider host turns into Pulumi's "resource created but failed to
 * initialize" (ErrorResourceInitFailed): the engine records `id` and `properties` in state, so a
 * resource the platform already holds is never orphaned. The next `pulumi up` converges it.
 */
export class PartialCreateError extends Error {
  override name = "PartialCreateError";
  readonly reasons: string[];
  constructor(
    readonly id: string,
    readonly properties: Record<string, unknown>,
    cause: unknown,
  ) {
    const why = cause instanceof Error ? cause.message : String(cause);
    super(`created ${id}, but could not finish configuring it: ${why}`, { cause });
    this.reasons = [why];
  }
}
