import { z } from "zod";
import {
  type AdditionalPlatformValues,
  cudaVersion,
  describeProblems,
  fieldProblems,
  type PlatformValueKind,
  platformId,
} from "../../sdk/schemas";

/** The option (and the CLI flag) that adds values of each kind to the emulator's snapshot. */
export const ADDITIONAL_VALUE_OPTIONS = {
  gpuType: { option: "additionalGpuTypeIds", flag: "add-gpu-type" },
  dataCenter: { option: "additionalDataCenterIds", flag: "add-data-center" },
  cudaVersion: { option: "additionalCudaVersions", flag: "add-cuda-version" },
  cpuFlavor: { option: "additionalCpuFlavorIds", flag: "add-cpu-flavor" },
} as const satisfies Record<PlatformValueKind, { option: string; flag: string }>;

/** The options that add values, each a list (`EmulatorOptions` has them under these names: options.ts). */
export type AdditionalValueOptions = {
  [K in PlatformValueKind as (typeof ADDITIONAL_VALUE_OPTIONS)[K]["option"]]?: readonly string[];
};

/** The same shape rules as the request schemas: an added value must be one a request could carry. */
const VALUE_SHAPES = {
  gpuType: platformId("gpuType"),
  dataCenter: platformId("dataCenter"),
  cudaVersion,
  cpuFlavor: platformId("cpuFlavor"),
} as const satisfies Record<PlatformValueKind, z.ZodType<string>>;

const AdditionalValuesSchema = z.object({
  additionalGpuTypeIds: z.array(VALUE_SHAPES.gpuType).optional(),
  additionalDataCenterIds: z.array(VALUE_SHAPES.dataCenter).optional(),
  additionalCudaVersions: z.array(VALUE_SHAPES.cudaVersion).optional(),
  additionalCpuFlavorIds: z.array(VALUE_SHAPES.cpuFlavor).optional(),
});

/** Why `value` cannot be added as a value of `kind` (the request schemas' shape rule), or undefined. */
export function additionalValueProblem(kind: PlatformValueKind, value: string): string | undefined {
  const parsed = VALUE_SHAPES[kind].safeParse(value);
  return parsed.success ? undefined : parsed.error.issues[0]?.message;
}

/** The values `options` adds to the snapshot, per kind; throws naming the option, value and rule. */
export function additionalPlatformValues(options: AdditionalValueOptions): AdditionalPlatformValues {
  const picked = Object.fromEntries(
    Object.values(ADDITIONAL_VALUE_OPTIONS).map(({ option }) => [option, options[option]]),
  );
  const parsed = AdditionalValuesSchema.safeParse(picked);
  if (!parsed.success) throw new Error(`emulator options: ${describeProblems(fieldProblems(parsed.error, picked))}`);
  const values: AdditionalPlatformValues = {};
  for (const [kind, { option }] of Object.entries(ADDITIONAL_VALUE_OPTIONS)) {
    const list = parsed.data[option];
    if (list) values[kind as PlatformValueKind] = list;
  }
  return values;
}
