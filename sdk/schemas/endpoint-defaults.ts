import type { ApiVersion } from "../config";

/*
 * What an endpoint gets for a field it is created without, on each management API version, and
 * the rule between its worker counts: declared once, read by the client, the provider, the
 * emulator and the policy pack.
 */

/** What an endpoint created without a field gets, per management API version. */
export interface EndpointDefaults {
  readonly computeType: "GPU";
  readonly gpuCount: number;
  readonly idleTimeout: number;
  readonly scalerType: "QUEUE_DELAY";
  readonly scalerValue: number;
  readonly vcpuCount: number;
  readonly workersMin: number;
  readonly workersMax: number;
  readonly executionTimeoutMs: number;
  readonly flashboot: boolean;
}

/**
 * What an endpoint created without a field gets on each management API version, in the
 * version-neutral field names. v1's are its OpenAPI's `default`s (`workersMin`, `workersMax` and
 * `executionTimeoutMs` from its examples, which the platform applies). v2's are its OpenAPI's
 * (`gpu.count` 1, `workers` 0, 3 and an idle timeout of 10 s, `timeout` 300000 ms, `flashboot`
 * `OFF`); v2 requires the scaler and each CPU configuration's vCPUs, and the version-neutral client
 * sends v1's defaults for them, so an input that leaves them out means the same on both versions.
 * The client, the provider, the emulator and the policy pack read them here.
 */
export const ENDPOINT_DEFAULTS_BY_VERSION = {
  v1: {
    computeType: "GPU",
    gpuCount: 1,
    idleTimeout: 5,
    scalerType: "QUEUE_DELAY",
    scalerValue: 4,
    vcpuCount: 2,
    workersMin: 0,
    workersMax: 3,
    executionTimeoutMs: 600_000,
    flashboot: false,
  },
  v2: {
    computeType: "GPU",
    gpuCount: 1,
    idleTimeout: 10,
    scalerType: "QUEUE_DELAY",
    scalerValue: 4,
    vcpuCount: 2,
    workersMin: 0,
    workersMax: 3,
    executionTimeoutMs: 300_000,
    flashboot: false,
  },
} as const satisfies Readonly<Record<ApiVersion, EndpointDefaults>>;

/**
 * Management API v1's endpoint defaults ({@link ENDPOINT_DEFAULTS_BY_VERSION}`.v1`), under the name
 * earlier releases exported; where the version matters, read {@link ENDPOINT_DEFAULTS_BY_VERSION}.
 */
export const ENDPOINT_DEFAULTS = ENDPOINT_DEFAULTS_BY_VERSION.v1;

/**
 * The rule between an endpoint's worker counts on both versions: the minimum does not exceed the
 * maximum (each at least `LIMITS.workersMin`, which the schemas check). True when either is unset.
 */
export function workersInOrder(min: number | undefined, max: number | undefined): boolean {
  return min === undefined || max === undefined || min <= max;
}

/** The words of {@link workersInOrder}'s rule, naming the maximum as the caller's dialect does (`workersMax`, `workers.max`). */
export function workersOrderRule(maxField: string): string {
  return `must not exceed ${maxField}`;
}
