import type { CheckFailure } from "@pulumi/pulumi/dynamic";
import type { ApiVersion } from "../sdk/config";
import { type GpuPoolEntry, gpuCatalogEntry, nearestValues, suggestionText } from "../sdk/schemas";
import { sameFieldValue } from "./diff-inputs";
import { SERVERLESS_ENDPOINT_FIELDS } from "./field-rules";
import { isUnknown } from "./property-values";

type Props = Record<string, unknown>;

/*
 * What `check` judges of an endpoint beyond its schema, per management API version:
 * the scaler a load-balancing endpoint can have, and on v2 whether every GPU type of `gpuTypeIds`
 * has a serverless pool to rent it from. A value the stack already holds was accepted when it was
 * deployed and is not sent again unless it changes, so only new or changed values are judged:
 * a stack switched from v1 to v2 previews unchanged, and an unchanged preview sends nothing.
 */

/**
 * Whether `key` is new or changed between the deployed inputs (`olds`; none at create) and `news`,
 * compared as `diff` compares it on `version` (a GPU reorder is no change on v2).
 */
function isNewOrChanged(olds: Props | undefined, news: Props, key: string, version?: ApiVersion): boolean {
  if (olds === undefined) return true;
  if (olds[key] === undefined && news[key] === undefined) return false;
  const rule = SERVERLESS_ENDPOINT_FIELDS[key as keyof typeof SERVERLESS_ENDPOINT_FIELDS];
  return !sameFieldValue(rule ?? {}, news[key], olds[key], version);
}

/**
 * The scaler's failures: a load-balancing endpoint has no queue, so it scales on REQUEST_COUNT
 * (the platform refuses QUEUE_DELAY on one); and on v2 an idle timeout does not apply to a queue
 * endpoint that scales on REQUEST_COUNT (v2 refuses it; judged when one of the three changes).
 */
export function scalingFailures(olds: Props | undefined, news: Props, version: ApiVersion | undefined): CheckFailure[] {
  const known = (key: string) => (isUnknown(news[key]) ? undefined : news[key]);
  const failures: CheckFailure[] = [];
  const type = known("type") ?? "QUEUE";
  const scaler = known("scalerType");
  if (type === "LOAD_BALANCER" && scaler === "QUEUE_DELAY") {
    failures.push({
      property: "scalerType",
      reason:
        '"QUEUE_DELAY": a LOAD_BALANCER endpoint has no queue; it scales on REQUEST_COUNT (its default; the platform refuses QUEUE_DELAY): remove scalerType or set "REQUEST_COUNT"',
    });
  }
  const scalerChanged = ["scalerType", "idleTimeout", "type"].some((k) => isNewOrChanged(olds, news, k));
  if (version === "v2" && type === "QUEUE" && scaler === "REQUEST_COUNT" && known("idleTimeout") !== undefined) {
    if (scalerChanged) {
      failures.push({
        property: "idleTimeout",
        reason: `${String(news.idleTimeout)}: does not apply to a QUEUE endpoint scaling on REQUEST_COUNT on management API v2 (the platform refuses it): remove idleTimeout, or scale on QUEUE_DELAY`,
      });
    }
  }
  return failures;
}

/** A failure naming a GPU type that no serverless pool holds. */
function noPoolFailure(id: string, index: number): CheckFailure {
  return {
    property: "gpuTypeIds",
    reason: `${JSON.stringify(id)} (gpuTypeIds[${index}]) is in no serverless GPU pool, and management API v2 rents serverless GPUs by pool: serverless endpoints cannot rent it (pods can); choose a type of a pool, or name pools in gpuPools`,
  };
}

/**
 * On v2, a failure per GPU type of a new or changed `gpuTypeIds` that no serverless pool holds:
 * from this release's catalog snapshot for the types it knows (no request), and from the live
 * catalog (`liveCatalog`, called only when the list holds a type the snapshot does not know) for
 * the others; a type the live catalog does not list either fails, naming the catalog's names
 * nearest to it (`nearestValues`, as the policy pack does). When the live catalog cannot be read (no key at preview, the platform down), those types are left to the
 * create or update, whose error names them as well.
 */
export async function gpuPoolFailures(
  olds: Props | undefined,
  news: Props,
  version: ApiVersion | undefined,
  liveCatalog: () => Promise<readonly GpuPoolEntry[]>,
): Promise<CheckFailure[]> {
  const types = news.gpuTypeIds;
  if (version !== "v2" || !Array.isArray(types) || isUnknown(types)) return [];
  if (!isNewOrChanged(olds, news, "gpuTypeIds", version)) return [];
  const failures: CheckFailure[] = [];
  const unknownToSnapshot: [string, number][] = [];
  types.forEach((id: unknown, i) => {
    if (typeof id !== "string") return;
    const entry = gpuCatalogEntry(id);
    if (entry === undefined) unknownToSnapshot.push([id, i]);
    else if (entry.pool === null) failures.push(noPoolFailure(id, i));
  });
  if (unknownToSnapshot.length === 0) return failures;
  const catalog = await liveCatalog().catch(() => undefined);
  if (catalog === undefined) return failures;
  const poolOf = new Map(catalog.map((e) => [e.id, e.pool]));
  for (const [id, i] of unknownToSnapshot) {
    const pool = poolOf.get(id);
    if (pool === null) failures.push(noPoolFailure(id, i));
    if (pool === undefined) {
      const near = suggestionText(nearestValues(id, poolOf.keys()));
      failures.push({
        property: "gpuTypeIds",
        reason: `${JSON.stringify(id)} (gpuTypeIds[${i}]) is not a GPU type of the platform's live catalog (GET /v2/catalog/gpus)${near}`,
      });
    }
  }
  return failures;
}
