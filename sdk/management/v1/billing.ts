import type { z } from "zod";
import { validateForVersion } from "../../request-validation";
import {
  type BillingRecord,
  BillingRecordListSchema,
  type EndpointBillingQuery,
  EndpointBillingQuerySchema,
  type NetworkVolumeBillingQuery,
  NetworkVolumeBillingQuerySchema,
  type NetworkVolumeBillingRecord,
  NetworkVolumeBillingRecordListSchema,
  type PodBillingQuery,
  PodBillingQuerySchema,
} from "../../schemas";
import type { CallOptions, Transport } from "../../transport";
import { type ReadQuery, sendOnVersion } from "../management-resource";
import type { BillingOperations } from "../neutral/api";

/**
 * Billing on management API v1 (`/v1/billing/...`): what pods, serverless endpoints and network
 * volume storage cost, in records of an amount per time bucket (`bucketSize`, default `day`) and
 * group, for a window (`startTime`/`endTime`). Its shapes are the version-neutral ones; `lastN`
 * and a network volume filter (v2's) are refused before sending.
 */
export class BillingV1 implements BillingOperations {
  constructor(private readonly transport: Transport) {}

  /** `GET /billing/pods`: grouped by GPU type (the platform's default) or by pod (`grouping: "podId"`). */
  async pods(query: PodBillingQuery = {}, options?: CallOptions): Promise<BillingRecord[]> {
    const q = this.checked(PodBillingQuerySchema, query, "pod billing", "podBilling");
    return this.read("pods", "/billing/pods", q, BillingRecordListSchema, options);
  }

  /** `GET /billing/endpoints` (serverless endpoints): grouped by endpoint (default), worker (`podId`) or GPU type. */
  async endpoints(query: EndpointBillingQuery = {}, options?: CallOptions): Promise<BillingRecord[]> {
    const q = this.checked(EndpointBillingQuerySchema, query, "endpoint billing", "endpointBilling");
    return this.read("endpoints", "/billing/endpoints", q, BillingRecordListSchema, options);
  }

  /** `GET /billing/networkvolumes`: network volume storage of the whole account, per bucket. */
  async networkVolumes(
    query: NetworkVolumeBillingQuery = {},
    options?: CallOptions,
  ): Promise<NetworkVolumeBillingRecord[]> {
    const q = this.checked(NetworkVolumeBillingQuerySchema, query, "network volume billing", "networkVolumeBilling");
    return this.read("networkVolumes", "/billing/networkvolumes", q, NetworkVolumeBillingRecordListSchema, options);
  }

  private checked<S extends z.ZodType>(schema: S, query: unknown, what: string, kind: string): z.infer<S> {
    return validateForVersion(schema, query, `read ${what}`, kind, "v1");
  }

  private read<T>(
    operation: string,
    path: string,
    query: Record<string, unknown>,
    schema: z.ZodType<T>,
    options: CallOptions | undefined,
  ): Promise<T> {
    return sendOnVersion(this.transport, "v1", `v1.billing.${operation}`, {
      method: "GET",
      path,
      query: billingQuery(query),
      idempotent: true,
      schema,
      options,
    });
  }
}

/** A billing query as v1's query string: arrays comma-separated, undefined values left out. */
export function billingQuery(query: Record<string, unknown>): ReadQuery {
  const out: ReadQuery = {};
  for (const [key, value] of Object.entries(query)) {
    if (value === undefined) continue;
    out[key] = Array.isArray(value) ? value.join(",") : (value as string | number);
  }
  return out;
}
