import type * as dynamic from "@pulumi/pulumi/dynamic";
import { RunpodError } from "../sdk/errors";
import { isNotFound } from "./errors";

/*
 * Steps every resource's provider takes the same way, so each provider file holds only what is
 * particular to its resource.
 */

/** `read` (refresh): the platform's current resource, or "gone" (no id) when it was deleted outside Pulumi. */
export async function readOrGone<T>(
  get: () => Promise<T>,
  toResult: (resource: T) => dynamic.ReadResult,
): Promise<dynamic.ReadResult> {
  try {
    return toResult(await get());
  } catch (err) {
    // No id tells the engine to drop the resource from state; the next `up` creates it again.
    if (isNotFound(err)) return {};
    throw err;
  }
}

/** `delete`: a resource already gone (404) counts as deleted, so a repeated or late delete converges. */
export async function deleteIfPresent(remove: () => Promise<void>): Promise<void> {
  try {
    await remove();
  } catch (err) {
    if (!isNotFound(err)) throw err;
  }
}

/** The resource `adoptId` names, or an error naming the id when this account has no such resource. */
export async function fetchForAdoption<T>(get: (id: string) => Promise<T>, adoptId: string, noun: string): Promise<T> {
  return get(adoptId).catch((err: unknown) => {
    if (isNotFound(err)) {
      throw new RunpodError(
        "not_found",
        `adoptId = ${JSON.stringify(adoptId)}: no ${noun} with this id exists in this account`,
      );
    }
    throw err;
  });
}

/** The refusal to adopt a resource whose `field` differs and cannot change in place. */
export function immutableMismatch(adoptId: string, noun: string, field: string, actual: unknown, wanted: unknown) {
  const shown = (v: unknown) => (typeof v === "string" ? v : JSON.stringify(v));
  return new RunpodError(
    "invalid_request",
    `adoptId = ${JSON.stringify(adoptId)}: the ${noun} has ${field} ${shown(actual)}, but ${field} is ${shown(wanted)}; ${field} cannot change in place, so set it to ${shown(actual)}`,
  );
}
