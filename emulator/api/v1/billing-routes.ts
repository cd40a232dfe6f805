import type { FastifyInstance, FastifyRequest } from "fastify";
import type { BillingRecord, NetworkVolumeBillingRecord } from "../../../sdk/schemas";
import { list, type RawQuery, single } from "../../server/query-params";
import type { ServerContext } from "../../server/server-context";
import { badField } from "../../errors/http-errors";
import { rfc3339 } from "../../billing/billing-buckets";
import { billingWindow } from "../billing-query";
import { billingTable, component, gigabytes, type GroupOf, money } from "../../billing/billing-report";

/** A v1 grouping value, or a 400 naming the allowed ones. */
function grouping<T extends string>(q: RawQuery, allowed: readonly T[], fallback: T): T {
  const value = (single(q, "grouping") ?? fallback) as T;
  if (!allowed.includes(value)) throw badField("grouping", value, `must be one of ${allowed.join(", ")}`);
  return value;
}

/** Records of a table: one per bucket and group, the group under `key` (omitted for the empty group). */
function records(table: ReturnType<typeof billingTable>, key: string): BillingRecord[] {
  const out: BillingRecord[] = [];
  for (const [start, groups] of table) {
    for (const [group, totals] of [...groups].sort(([a], [b]) => a.localeCompare(b))) {
      const record: BillingRecord = {
        amount: money(totals.amount),
        time: rfc3339(start),
        timeBilledMs: Math.round(totals.ms),
      };
      if (group !== "") (record as Record<string, unknown>)[key] = group;
      out.push(record);
    }
  }
  return out;
}

/**
 * Management v1 billing (`/v1/billing/pods`, `/endpoints`, `/networkvolumes`; OpenAPI v1 tag
 * "billing"), computed from the account's usage on the emulator clock: one record per bucket and
 * group that was billed time, `amount` in USD, `timeBilledMs` the time billed. Pods group by GPU
 * type (default; CPU pods form a group without `gpuTypeId`) or pod; serverless endpoints by
 * endpoint (default), worker (`podId`) or GPU type; network volumes are one record per bucket.
 */
export function registerBillingRoutesV1(app: FastifyInstance, _ctx: ServerContext): void {
  const window = (req: FastifyRequest) => billingWindow(req.query as RawQuery, req.account.meter.now(), "v1");

  app.get("/billing/pods", async (req) => {
    const q = req.query as RawQuery;
    const by = grouping(q, ["podId", "gpuTypeId"] as const, "gpuTypeId");
    const podId = single(q, "podId");
    const gpuTypeId = single(q, "gpuTypeId");
    const groupOf: GroupOf = (record, segment) => {
      if (podId !== undefined && record.resourceId !== podId) return undefined;
      if (gpuTypeId !== undefined && segment.gpuTypeId !== gpuTypeId) return undefined;
      return by === "podId" ? record.resourceId : (segment.gpuTypeId ?? "");
    };
    const table = billingTable(req.account.meter.records("pod"), window(req), req.account.meter.now(), groupOf);
    return records(table, by);
  });

  app.get("/billing/endpoints", async (req) => {
    const q = req.query as RawQuery;
    const by = grouping(q, ["endpointId", "podId", "gpuTypeId"] as const, "endpointId");
    const gpuTypes = list(q, "gpuTypeId");
    const dataCenters = list(q, "dataCenterId");
    const [endpointId, imageName, templateId] = ["endpointId", "imageName", "templateId"].map((n) => single(q, n));
    const groupOf: GroupOf = (record, segment) => {
      const a = record.attributes ?? {};
      if (endpointId !== undefined && record.resourceId !== endpointId) return undefined;
      if (gpuTypes?.length && !gpuTypes.includes(segment.gpuTypeId ?? "")) return undefined;
      if (dataCenters?.length && a.dataCenterIds && !a.dataCenterIds.some((dc) => dataCenters.includes(dc))) {
        return undefined;
      }
      if (imageName !== undefined && a.imageName !== imageName) return undefined;
      if (templateId !== undefined && a.templateId !== templateId) return undefined;
      if (by === "podId") return segment.podId ?? "";
      return by === "gpuTypeId" ? (segment.gpuTypeId ?? "") : record.resourceId;
    };
    const table = billingTable(req.account.meter.records("serverless"), window(req), req.account.meter.now(), groupOf);
    return records(table, by);
  });

  app.get("/billing/networkvolumes", async (req) => {
    const table = billingTable(
      req.account.meter.records("networkVolume"),
      window(req),
      req.account.meter.now(),
      () => "",
    );
    const out: NetworkVolumeBillingRecord[] = [];
    for (const [start, groups] of table) {
      const totals = groups.get("");
      if (!totals) continue;
      out.push({
        amount: money(totals.amount),
        time: rfc3339(start),
        diskSpaceBilledGb: Math.round(gigabytes(totals)),
        highPerformanceStorageAmount: component(totals, "highPerformance"),
        highPerformanceStorageDiskSpaceBilledGb: Math.round(gigabytes(totals, true)),
      });
    }
    return out;
  });
}
