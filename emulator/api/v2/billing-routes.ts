import type { FastifyInstance, FastifyRequest } from "fastify";
import { type RawQuery, single } from "../../server/query-params";
import type { ServerContext } from "../../server/server-context";
import { type BillingWindow, nextBucket, rfc3339 } from "../../billing/billing-buckets";
import { billingWindow } from "../billing-query";
import { billingTable, component, type GroupTotals, money } from "../../billing/billing-report";
import type { UsageKind } from "../../billing/usage-record";

/** The amounts of one kind's record from a group's totals (every amount the OpenAPI requires). */
type Amounts = (t: GroupTotals | undefined) => Record<string, number>;

const podAmounts: Amounts = (t) => ({
  totalAmount: money(t?.amount ?? 0),
  gpuAmount: component(t, "gpu"),
  cpuAmount: component(t, "cpu"),
  diskAmount: 0,
});
const serverlessAmounts: Amounts = (t) => ({ ...podAmounts(t), feeAmount: 0 });
const volumeAmounts: Amounts = (t) => ({
  totalAmount: money(t?.amount ?? 0),
  standardAmount: component(t, "standard"),
  highPerformanceAmount: component(t, "highPerformance"),
});
const clusterAmounts: Amounts = (t) => ({
  totalAmount: money(t?.amount ?? 0),
  gpuAmount: component(t, "gpu"),
  diskAmount: 0,
  networkingAmount: 0,
});

/** One per-kind route's facts: the usage kind, the id filter's name, its metadata count and its amounts. */
interface KindRoute {
  path: string;
  kind: UsageKind;
  filter: string;
  count: string;
  amounts: Amounts;
}

const KIND_ROUTES: readonly KindRoute[] = [
  { path: "/billing/pods", kind: "pod", filter: "podId", count: "uniquePodCount", amounts: podAmounts },
  {
    path: "/billing/serverless",
    kind: "serverless",
    filter: "serverlessId",
    count: "uniqueServerlessCount",
    amounts: serverlessAmounts,
  },
  {
    path: "/billing/network-volumes",
    kind: "networkVolume",
    filter: "networkVolumeId",
    count: "uniqueNetworkVolumeCount",
    amounts: volumeAmounts,
  },
  {
    path: "/billing/clusters",
    kind: "cluster",
    filter: "clusterId",
    count: "uniqueClusterCount",
    amounts: clusterAmounts,
  },
];

/** The amounts of the aggregated record (OpenAPI v2 `BillingAmounts`). */
const AGGREGATE_AMOUNTS = [
  "totalAmount",
  "podGpuAmount",
  "podCpuAmount",
  "podDiskAmount",
  "serverlessGpuAmount",
  "serverlessCpuAmount",
  "serverlessDiskAmount",
  "serverlessFeeAmount",
  "storageStandardAmount",
  "storageHighPerformanceAmount",
  "endpointAmount",
  "clusterGpuAmount",
  "clusterDiskAmount",
  "clusterNetworkingAmount",
] as const;

function sum(records: readonly Record<string, unknown>[], keys: readonly string[]): Record<string, number> {
  const totals: Record<string, number> = {};
  for (const key of keys) totals[key] = money(records.reduce((s, r) => s + (r[key] as number), 0));
  return totals;
}

function queryEcho(window: BillingWindow, extra: Record<string, string | null> = {}) {
  return { startTime: rfc3339(window.start), endTime: rfc3339(window.end), bucketSize: window.bucketSize, ...extra };
}

/**
 * Management v2 billing (`/v2/billing/...`, OpenAPI v2 tag "Billing"), over the same usage as
 * v1's: per kind, one record per resource per bucket it was billed in, with `metadata` (the
 * resolved window, the count of records and of distinct resources, the totals); aggregated
 * (`/v2/billing`), one record per bucket of the window with every component. The platform's public
 * endpoints (`/v2/billing/endpoints`) are not emulated: no records, zero totals.
 */
export function registerBillingRoutesV2(app: FastifyInstance, _ctx: ServerContext): void {
  const windowOf = (req: FastifyRequest) => billingWindow(req.query as RawQuery, req.account.meter.now(), "v2");

  for (const route of KIND_ROUTES) {
    app.get(route.path, async (req) => {
      const q = req.query as RawQuery;
      const window = windowOf(req);
      const id = single(q, route.filter);
      const meter = req.account.meter;
      const table = billingTable(meter.records(route.kind), window, meter.now(), (record) =>
        id === undefined || record.resourceId === id ? record.resourceId : undefined,
      );
      const records: Record<string, unknown>[] = [];
      const resources = new Set<string>();
      for (const [start, groups] of table) {
        for (const [resourceId, totals] of [...groups].sort(([a], [b]) => a.localeCompare(b))) {
          resources.add(resourceId);
          const end = rfc3339(nextBucket(start, window.bucketSize));
          records.push({
            startTime: rfc3339(start),
            endTime: end,
            [route.filter]: resourceId,
            ...route.amounts(totals),
          });
        }
      }
      return {
        records,
        metadata: {
          query: queryEcho(window, { [route.filter]: id ?? null }),
          recordCount: records.length,
          [route.count]: resources.size,
          totals: sum(records, Object.keys(route.amounts(undefined))),
        },
      };
    });
  }

  app.get("/billing/endpoints", async (req) => {
    const window = windowOf(req);
    return { records: [], metadata: { query: queryEcho(window), recordCount: 0, totals: { totalAmount: 0 } } };
  });

  app.get("/billing", async (req) => {
    const window = windowOf(req);
    const meter = req.account.meter;
    const table = billingTable(meter.records(), window, meter.now(), (record) => record.kind);
    const records = [...table].map(([start, groups]) => {
      const pod = groups.get("pod");
      const serverless = groups.get("serverless");
      const volume = groups.get("networkVolume");
      const cluster = groups.get("cluster");
      const amounts: Record<(typeof AGGREGATE_AMOUNTS)[number], number> = {
        totalAmount: money([...groups.values()].reduce((s, t) => s + t.amount, 0)),
        podGpuAmount: component(pod, "gpu"),
        podCpuAmount: component(pod, "cpu"),
        podDiskAmount: 0,
        serverlessGpuAmount: component(serverless, "gpu"),
        serverlessCpuAmount: component(serverless, "cpu"),
        serverlessDiskAmount: 0,
        serverlessFeeAmount: 0,
        storageStandardAmount: component(volume, "standard"),
        storageHighPerformanceAmount: component(volume, "highPerformance"),
        endpointAmount: 0,
        clusterGpuAmount: component(cluster, "gpu"),
        clusterDiskAmount: 0,
        clusterNetworkingAmount: 0,
      };
      return { startTime: rfc3339(start), endTime: rfc3339(nextBucket(start, window.bucketSize)), ...amounts };
    });
    return {
      records,
      metadata: { query: queryEcho(window), recordCount: records.length, totals: sum(records, AGGREGATE_AMOUNTS) },
    };
  });
}
