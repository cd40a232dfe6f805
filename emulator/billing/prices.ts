/*
 * What the emulated platform charges (issue 22: billing from the emulator clock). Pods and
 * serverless workers take the catalog's prices (sdk/schemas/platform-catalog.ts plus `--add-*`
 * values); the choices the catalog does not make are made here, once:
 * - interruptible (spot) pods cost half the on-demand price of their cloud;
 * - CPU pods cost their flavor's secure price per vCPU-hour, on either cloud;
 * - network volumes cost $0.07 per GB-month (STANDARD) and $0.14 (HIGH_PERFORMANCE), a month
 *   being 730 hours;
 * - pod disks, serverless disks and fees, cluster disks and networking, and the platform's public
 *   endpoints are not billed (their amounts are 0).
 */

/** Share of the on-demand price an interruptible pod pays. */
export const INTERRUPTIBLE_PRICE_FACTOR = 0.5;

/** Dollars per GB-month of network volume storage, per tier (an unknown tier bills as STANDARD). */
export const VOLUME_PRICE_PER_GB_MONTH: Readonly<Record<string, number>> = { STANDARD: 0.07, HIGH_PERFORMANCE: 0.14 };

/** Hours in a billing month. */
export const HOURS_PER_MONTH = 730;

/** A rate rounded to 1/10000 of a dollar, so `costPerHr` reads like a price. */
function rate(dollarsPerHour: number): number {
  return Math.round(dollarsPerHour * 10_000) / 10_000;
}

/** A GPU pod's dollars per hour: its cloud's price per GPU-hour times its GPUs, halved when interruptible. */
export function gpuPodPricePerHour(
  price: { secure: number; community: number },
  gpuCount: number,
  cloudType: string,
  interruptible: boolean,
): number {
  const perGpu = cloudType === "COMMUNITY" ? price.community : price.secure;
  return rate(perGpu * gpuCount * (interruptible ? INTERRUPTIBLE_PRICE_FACTOR : 1));
}

/** A CPU pod's dollars per hour: its flavor's price per vCPU-hour times its vCPUs (halved when interruptible). */
export function cpuPodPricePerHour(securePerVcpu: number, vcpuCount: number, interruptible: boolean): number {
  return rate(securePerVcpu * vcpuCount * (interruptible ? INTERRUPTIBLE_PRICE_FACTOR : 1));
}

/** A network volume's dollars per hour. */
export function volumePricePerHour(sizeGb: number, tier: string | undefined): number {
  const perGbMonth = VOLUME_PRICE_PER_GB_MONTH[tier ?? "STANDARD"] ?? VOLUME_PRICE_PER_GB_MONTH.STANDARD!;
  return (sizeGb * perGbMonth) / HOURS_PER_MONTH;
}

/** Dollars for `ms` milliseconds at `perHour`. */
export function amountFor(perHour: number, ms: number): number {
  return (perHour * ms) / 3_600_000;
}
