import * as pulumi from "@pulumi/pulumi";
import {
  PLATFORM_VALUE_FIELDS,
  PLATFORM_VALUE_LABELS,
  RESOURCE_KNOWN_VALUES,
  suggestionText,
  unknownPlatformValues,
} from "../sdk/schemas/known-values";
import type { RunpodResourceType } from "./runpod-resource";

/**
 * Warnings at preview about values this release does not know. GPU types, data centers,
 * CUDA versions and CPU flavors grow on the platform between releases, so `check` lets a
 * well-formed value through and the platform decides at `pulumi up`; the warning says the value
 * is not in this release's list and, for a case or whitespace variant of a known value, which one
 * was probably meant.
 *
 * The warnings come from the program, not from `check`: the Node.js dynamic provider runs in its
 * own process with no connection to the engine's log (`@pulumi/pulumi/cmd/dynamic-provider` never
 * sets the engine), whereas `pulumi.log.warn(message, resource)` in the program reaches the
 * engine, which shows it under the resource in `pulumi preview` and `pulumi up`.
 */

/** The warning texts for one resource's resolved inputs (pure; `secret` fields render as `[secret]`). */
export function platformValueWarnings(
  type: keyof typeof PLATFORM_VALUE_FIELDS,
  inputs: Readonly<Record<string, unknown>>,
  secret: ReadonlySet<string> = new Set(),
): string[] {
  const warnings = unknownPlatformValues(PLATFORM_VALUE_FIELDS[type], inputs, RESOURCE_KNOWN_VALUES[type]).map(
    ({ field, value, kind, suggestions }) => {
      const [name, index] = field.split(".");
      const at = index === undefined ? field : `${name}[${index}]`;
      const shown = secret.has(name!) ? "[secret]" : value;
      const hint = suggestionText(secret.has(name!) ? [] : suggestions);
      return (
        `${at} = ${shown}: is not in this release's list of ${PLATFORM_VALUE_LABELS[kind]}s${hint}; ` +
        "it may be newer than this release of runpod-iac, and the platform decides at `pulumi up`"
      );
    },
  );
  if (type === "ServerlessEndpoint") {
    const repeat = repeatedGpuTypeWarning(inputs.gpuTypeIds, secret.has("gpuTypeIds"));
    if (repeat) warnings.push(repeat);
  }
  return warnings;
}

/**
 * A repeated GPU type is not refused by `check` (see sdk/schemas/endpoint.ts: the engine runs
 * `check` before the policy pack's remediation that removes repeats), so it is named here.
 */
function repeatedGpuTypeWarning(list: unknown, secret: boolean): string | undefined {
  if (!Array.isArray(list)) return undefined;
  const repeated = [...new Set(list.filter((gpu, i) => list.indexOf(gpu) !== i))];
  if (repeated.length === 0) return undefined;
  const shown = secret ? "[secret]" : JSON.stringify(list);
  const names = secret ? "a GPU type" : repeated.map((gpu) => JSON.stringify(gpu)).join(", ");
  return `gpuTypeIds = ${shown}: lists ${names} more than once; the platform uses the first occurrence (the policy pack's runpod-gpu-priority-list refuses repeats, or removes them at enforcement level remediate)`;
}

/**
 * Warns, on `resource`, about the values of `args` this release does not know, once they resolve.
 * Values still unknown at preview (outputs of resources not yet created) are judged at `pulumi up`.
 */
export function warnAboutPlatformValues(resource: pulumi.Resource, type: RunpodResourceType, args: object): void {
  if (!(type in PLATFORM_VALUE_FIELDS)) return;
  const bag = args as Readonly<Record<string, unknown>>;
  const fields = Object.keys(PLATFORM_VALUE_FIELDS[type as keyof typeof PLATFORM_VALUE_FIELDS]);
  const present = fields.filter((field) => bag[field] !== undefined);
  if (present.length === 0) return;
  const outputs = present.map((field) => pulumi.output(bag[field]));
  pulumi.all(outputs).apply(async (values) => {
    const secrets = await Promise.all(outputs.map((o) => pulumi.isSecret(o)));
    const inputs = Object.fromEntries(present.map((field, i) => [field, values[i]]));
    const secret = new Set(present.filter((_, i) => secrets[i]));
    for (const warning of platformValueWarnings(type as keyof typeof PLATFORM_VALUE_FIELDS, inputs, secret)) {
      void pulumi.log.warn(warning, resource);
    }
  });
}
