import {
  type AdditionalPlatformValues,
  KNOWN_PLATFORM_VALUES,
  PLATFORM_VALUE_KINDS,
  type PlatformValueKind,
  suggestionText,
  unknownPlatformValues,
} from "../../sdk/schemas";
import { badRequest } from "../server/http-errors";

/**
 * What the emulated platform sells: this release's snapshot of GPU types, data centers, CUDA
 * versions and CPU flavors (sdk/schemas/platform-enums.ts) plus the values a test or a user added
 * (`additionalGpuTypeIds` and the like, `--add-gpu-type` and the like), so a GPU type the real
 * platform added after this release can be deployed against the emulator too. The shared request
 * schemas judge only shape (issue 13); membership is judged here, as the platform does.
 */
export class PlatformCatalog {
  private readonly additional: AdditionalPlatformValues;

  constructor(additional: AdditionalPlatformValues = {}) {
    this.additional = Object.fromEntries(
      PLATFORM_VALUE_KINDS.map((kind) => [kind, [...new Set(additional[kind] ?? [])]]),
    );
  }

  /** Every value of `kind` the emulated platform knows: the snapshot, then the additions. */
  values(kind: PlatformValueKind): string[] {
    return [...new Set([...KNOWN_PLATFORM_VALUES[kind], ...(this.additional[kind] ?? [])])];
  }

  /**
   * Refuses (400, naming each field, value and rule) an input holding a value the emulated
   * platform does not know. `fields` maps input fields to kinds (`PLATFORM_VALUE_FIELDS.*`).
   */
  assertKnown(fields: Readonly<Record<string, PlatformValueKind>>, input: Readonly<Record<string, unknown>>): void {
    const unknown = unknownPlatformValues(fields, input, this.additional);
    if (unknown.length === 0) return;
    throw badRequest(
      unknown.map(({ field, value, rule, suggestions }) => ({
        field,
        value,
        rule: `${rule}${suggestionText(suggestions)}`,
      })),
    );
  }
}
