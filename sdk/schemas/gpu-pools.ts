import type { FieldProblem } from "./validation";

/*
 * GPU types (v1 `gpuTypeIds`) and GPU pools (v2 `gpu.pools` narrowed by `gpu.excludedTypes`),
 * each into the other, from a catalog that says which pool holds which type: `gpuTypeIds`
 * on v2 becomes the pools that hold those types, with every other type of those pools excluded,
 * so "these cards and no others" holds on both versions (docs/api-versions.md). The catalog is the live one
 * (`GET /v2/catalog/gpus`), so a type or pool the platform added after this release maps too.
 */

/** What the mapping needs of a catalog entry: the type and its serverless pool (null: none). */
export interface GpuPoolEntry {
  id: string;
  pool: string | null;
}

/** A pool selection: the pools, and the types of those pools that are not wanted. */
export interface PoolSelection {
  pools: string[];
  excludedTypes: string[];
}

/** The selection of a mapping, or the types it could not place (one problem each). */
export type PoolMapping = { ok: true; selection: PoolSelection } | { ok: false; problems: FieldProblem[] };

/**
 * The pools holding `gpuTypeIds`, in the order their first type is listed, with every other type
 * of those pools excluded (in catalog order). A type in no serverless pool, or unknown to the
 * catalog, is a problem naming it at its index of `field`.
 */
export function gpuTypesToPools(
  gpuTypeIds: readonly string[],
  catalog: readonly GpuPoolEntry[],
  field = "gpuTypeIds",
): PoolMapping {
  const poolOf = new Map(catalog.map((e) => [e.id, e.pool]));
  const pools: string[] = [];
  const problems: FieldProblem[] = [];
  gpuTypeIds.forEach((id, i) => {
    const pool = poolOf.get(id);
    if (pool === undefined) {
      problems.push({
        field: `${field}.${i}`,
        value: JSON.stringify(id),
        rule: "is not a GPU type of the platform's catalog",
      });
    } else if (pool === null) {
      problems.push({
        field: `${field}.${i}`,
        value: JSON.stringify(id),
        rule: "is in no serverless GPU pool (serverless endpoints cannot rent it; pods can)",
      });
    } else if (!pools.includes(pool)) {
      pools.push(pool);
    }
  });
  if (problems.length) return { ok: false, problems };
  const wanted = new Set(gpuTypeIds);
  const excludedTypes = catalog
    .filter((e) => e.pool !== null && pools.includes(e.pool) && !wanted.has(e.id))
    .map((e) => e.id);
  return { ok: true, selection: { pools, excludedTypes } };
}

/**
 * The GPU types a pool selection rents: the types of `pools` minus `excludedTypes`, in catalog
 * order (v2 keeps no order among them). A pool the catalog does not list contributes no type.
 */
export function poolsToGpuTypes(
  pools: readonly string[],
  excludedTypes: readonly string[],
  catalog: readonly GpuPoolEntry[],
): string[] {
  const inPools = new Set(pools);
  const excluded = new Set(excludedTypes.map((t) => t.trim()));
  return catalog.filter((e) => e.pool !== null && inPools.has(e.pool) && !excluded.has(e.id)).map((e) => e.id);
}

/** Every serverless pool of a catalog, in catalog order. */
export function allPools(catalog: readonly GpuPoolEntry[]): string[] {
  return [...new Set(catalog.flatMap((e) => (e.pool === null ? [] : [e.pool])))];
}
