import { RequestValidationError } from "../../../errors";

/*
 * v2's request schemas name v2's fields (`workers.min`); a caller of the version-neutral
 * operations wrote v1's (`workersMin`). These helpers rename the fields of a validation error so
 * that it names what the caller wrote.
 */

/**
 * The neutral name of a v2 field path, from `names` (v2 path → neutral field; `*` stands for a
 * list index): the longest known prefix is renamed and the rest kept (`gpu.pools.1` →
 * `gpuPools.1`); a path with no known prefix is kept as it is.
 */
export function neutralField(path: string, names: Readonly<Record<string, string>>): string {
  const segments = path.split(".");
  for (let i = segments.length; i > 0; i--) {
    const prefix = segments
      .slice(0, i)
      .map((s) => (/^\d+$/.test(s) ? "*" : s))
      .join(".");
    const name = names[prefix];
    if (name === undefined) continue;
    const rest = segments.slice(i);
    return [name, ...rest].join(".");
  }
  return path;
}

/** Runs `send`; a `RequestValidationError` it throws comes back naming the neutral fields. */
export async function renamedProblems<T>(
  names: Readonly<Record<string, string>>,
  send: () => Promise<T>,
  context?: string,
): Promise<T> {
  try {
    return await send();
  } catch (err) {
    if (!(err instanceof RequestValidationError)) throw err;
    const problems = err.problems.map((p) => ({ ...p, field: neutralField(p.field, names) }));
    throw new RequestValidationError(problems, context);
  }
}
