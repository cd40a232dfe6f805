import { BILLING_BUCKET_SIZES, type BillingBucketSize, dateTime } from "../../sdk/schemas";
import { type RawQuery, single } from "../server/query-params";
import { badField, unprocessableField } from "../errors/http-errors";
import { type BillingWindow, bucketCount, MAX_BUCKETS, resolveWindow } from "../billing/billing-buckets";

/**
 * The window of a billing read's query (both versions: `bucketSize`, `startTime`, `endTime`; v2
 * also `lastN`), resolved at billing time `now`. A malformed time is a 422 on v2 and a 400 on v1;
 * an unknown bucket size, `lastN` with a time, an empty window or one of more than
 * {@link MAX_BUCKETS} buckets a 400.
 */
export function billingWindow(q: RawQuery, now: number, version: "v1" | "v2"): BillingWindow {
  const bucketSize = (single(q, "bucketSize") ?? "day") as BillingBucketSize;
  if (!BILLING_BUCKET_SIZES.includes(bucketSize)) {
    throw badField("bucketSize", bucketSize, `must be one of ${BILLING_BUCKET_SIZES.join(", ")}`);
  }
  const time = (name: "startTime" | "endTime") => {
    const raw = single(q, name);
    if (raw === undefined) return undefined;
    if (!dateTime.safeParse(raw).success) {
      const rule = 'must be an RFC 3339 date-time with a zone, such as "2026-06-01T00:00:00Z"';
      throw version === "v2" ? unprocessableField(name, raw, rule) : badField(name, raw, rule);
    }
    return Date.parse(raw);
  };
  const startTime = time("startTime");
  const endTime = time("endTime");
  let lastN: number | undefined;
  const rawLastN = version === "v2" ? single(q, "lastN") : undefined;
  if (rawLastN !== undefined) {
    lastN = Number(rawLastN);
    if (!Number.isInteger(lastN) || lastN < 1)
      throw badField("lastN", rawLastN, "must be a whole number of at least 1");
    if (startTime !== undefined || endTime !== undefined) {
      throw badField("lastN", rawLastN, "cannot be combined with startTime or endTime: give one or the other");
    }
  }
  if (startTime !== undefined && endTime !== undefined && startTime >= endTime) {
    throw badField("endTime", single(q, "endTime"), "must be after startTime");
  }
  const window = resolveWindow({ bucketSize, startTime, endTime, lastN }, now);
  if (bucketCount(window) > MAX_BUCKETS) {
    throw badField(
      "bucketSize",
      bucketSize,
      `the window spans more than ${MAX_BUCKETS} buckets of a ${bucketSize}: use a larger bucketSize or a shorter window`,
    );
  }
  return window;
}
