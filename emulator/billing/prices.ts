/*
 * What the emulated platform charges, billed from the emulator clock. Pods and
 * serverless workers take the catalog's prices (sdk/schemas/platform-catalog.ts plus `--add-*`
 * values); the choices the catalog does not make are made here, once:
 * - interruptible (spot) pods cost half the on-demand price of their cloud;
 * - CPU pods cost their flavor's secure price per vCPU-hour, on either cloud;
 * - network volumes cost $0.07 per GB-month (STANDARD) and $0.14 (HIGH_PERFORMANCE), a month
 *   being 730 hours;
 * - pod disks, serverless disks and fees, cluster disks and networking, and the platform's public
 *   endpoints are not billed (their amounts are 0).
 */

// The price rules live with the catalog's prices (sdk/schemas/platform-catalog.ts), which the
// policy pack's cost ceiling reads too.
import {
  HOURS_PER_MONTH,
  INTERRUPTIBLE_PRICE_FACTOR,
  VOLUME_PRICE_PER_GB_MONTH,
} from "../../sdk/schemas/platform-catalog";

export { HOURS_PER_MONTH, INTERRUPTIBLE_PRICE_FACTOR, VOLUME_PRICE_PER_GB_MONTH };

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
