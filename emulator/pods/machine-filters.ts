import { MACHINE_SIZE_ORDER, MACHINE_SIZES, type MachineSize } from "../capacity/capacity";
import { badField, badRequest } from "../errors/http-errors";
import { EMULATED_MACHINE } from "./pod-record";
import type { PodSpec } from "./pod-spec";

/*
 * What a pod create asks of the machine: the placement filters per GPU (GB of RAM and vCPUs: v1's
 * `minRAMPerGPU` and `minVCPUPerGPU`, v2's `gpu.minRamPerGpu` and `gpu.minVcpuCountPerGpu`) and
 * v1's bandwidth filters. They filter machines, they request nothing: the pod gets what its
 * machine gives per GPU, which may be more.
 */

/** What every machine offers of bandwidth, by v1's filter. */
const BANDWIDTH_LIMITS: Readonly<Record<string, number>> = {
  minDiskBandwidthMBps: EMULATED_MACHINE.diskThroughputMBps,
  minDownloadMbps: EMULATED_MACHINE.downloadMbps,
  minUploadMbps: EMULATED_MACHINE.uploadMbps,
};

/** The machines a GPU pod may be placed on, smallest first, and the filters in words for a refusal. */
export interface MachineChoice {
  machines: MachineSize[];
  /** `gpu.minRamPerGpu = 100`, or undefined when the create filters nothing per GPU. */
  filters: string | undefined;
}

/**
 * The machine sizes that meet a GPU pod's filters. A filter no machine meets is a 400 naming the
 * field, its value and the most a machine offers, as the platform's "no instances" refusal.
 */
export function machinesFor(spec: PodSpec): MachineChoice {
  for (const [name, value] of Object.entries(spec.machineFilters)) {
    const offered = BANDWIDTH_LIMITS[name] ?? 0;
    if (value > offered) {
      throw badField(name, value, `there are no instances currently available: no machine offers more than ${offered}`);
    }
  }
  const filters = [
    { field: spec.fields.minRamPerGpu, value: spec.minRamPerGpu, of: "ramGbPerGpu", unit: "GB of RAM" },
    { field: spec.fields.minVcpuPerGpu, value: spec.minVcpuPerGpu, of: "vcpusPerGpu", unit: "vCPUs" },
  ] as const;
  const given = filters.filter((f) => f.value !== undefined);
  for (const f of given) {
    const most = Math.max(...MACHINE_SIZE_ORDER.map((size) => MACHINE_SIZES[size][f.of]));
    if (f.value! > most) {
      throw badField(
        f.field,
        f.value,
        `there are no instances currently available: no machine offers more than ${most} ${f.unit} per GPU`,
      );
    }
  }
  const machines = MACHINE_SIZE_ORDER.filter((size) => given.every((f) => MACHINE_SIZES[size][f.of] >= f.value!));
  const words = given.length ? given.map((f) => `${f.field} = ${f.value}`).join(" and ") : undefined;
  if (machines.length === 0) {
    throw badRequest(
      given.map((f) => ({
        field: f.field,
        value: String(f.value),
        rule: "there are no instances currently available: no machine meets these filters together",
      })),
    );
  }
  return { machines, filters: words };
}
