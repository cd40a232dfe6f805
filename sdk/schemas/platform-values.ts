import { z } from "zod";
import { PLATFORM_VALUE_LABELS, type PlatformValueKind } from "./known-values";

/**
 * The shape rules of the open value sets: what can never be right, whatever the
 * platform sells (an empty id, a CUDA version that is not `major.minor`, a repeat in a set).
 * Membership is not judged here (see known-values.ts): the client sends a GPU type the platform
 * added after this release, and the platform answers.
 */

/** An id of the platform (GPU type, data center, CPU flavor): a string with something in it. */
export function platformId(kind: PlatformValueKind) {
  return z
    .string(`must be a ${PLATFORM_VALUE_LABELS[kind]} id (a string)`)
    .refine((s) => s.trim() !== "", "must not be empty");
}

/** A CUDA version: `major.minor`, as every version the platform lists is written. */
export const cudaVersion = z
  .string('must be a CUDA version (a string such as "12.4")')
  .regex(/^\d+\.\d+$/, 'must be a CUDA version written major.minor, such as "12.4"');

/**
 * A list in which each value may appear once (data centers and CUDA versions are sets; a CPU
 * flavor list is a priority list whose repeats can only be mistakes). Each repeat is one issue at
 * its index, naming where the value first appeared.
 */
export function distinctList<T extends z.ZodType<string>>(item: T, what: string) {
  return z.array(item).superRefine((list, ctx) => {
    const first = new Map<string, number>();
    list.forEach((value, i) => {
      const seen = first.get(value);
      if (seen === undefined) first.set(value, i);
      else ctx.addIssue({ code: "custom", path: [i], message: `repeats index ${seen}; each ${what} may appear once` });
    });
  });
}
