import { z } from "zod";
import { NetworkVolumeSchema } from "../../sdk/schemas";
import { EndpointV1ViewSchema, recordOfV1View as endpointOfV1View } from "../endpoints/endpoint-v1-view";
import { PodV1ViewSchema, recordOfV1View as podOfV1View } from "../pods/pod-v1-view";
import { migrateTemplateRecord, TemplateRecordV1Schema } from "../templates/template-record";
import { migrateVolumeRecord } from "../volumes/volume-record";
import type { CollectionName } from "./collections";

/*
 * State files of earlier emulators, brought to the current version on load. Version 1 kept
 * endpoints, templates and network volumes under management API v1's names, version 2 kept pods
 * (and clusters' members) so; version 3 keeps every record in v2's shape. A file is migrated in
 * memory only: the next write saves it as version 3.
 */

/** The version this emulator writes. */
export const STATE_FILE_VERSION = 3;

/** How one record of a collection is brought over. */
type RecordMigrations = { [K in CollectionName]?: (record: unknown) => unknown };

/** The steps from each earlier version to the next, by the version they start from. */
const STEPS: readonly { from: number; migrate: RecordMigrations }[] = [
  {
    from: 1,
    migrate: {
      networkVolumes: (record) => migrateVolumeRecord(NetworkVolumeSchema.loose().parse(record)),
      endpoints: (record) => endpointOfV1View(EndpointV1ViewSchema.loose().parse(record)),
      templates: (record) => migrateTemplateRecord(TemplateRecordV1Schema.loose().parse(record)),
    },
  },
  // Pods of version 2 (and 1, the same shape) ran on the standard machine: their allocation is its.
  { from: 2, migrate: { pods: (record) => podOfV1View(PodV1ViewSchema.loose().parse(record)) } },
];

const EarlierVersionSchema = z.object({
  version: z
    .number()
    .int()
    .min(1)
    .max(STATE_FILE_VERSION - 1),
  accounts: z.record(z.string(), z.record(z.string(), z.array(z.unknown()))),
});

/**
 * `json` as the current version's state file: an earlier version's records migrated step by step
 * (a record that does not parse as its version throws, naming the collection, its position and
 * the version), anything else as it is (the caller's schema judges it).
 */
export function migrateStateFile(json: unknown): unknown {
  const old = EarlierVersionSchema.safeParse(json);
  if (!old.success) return json;
  let accounts = old.data.accounts;
  for (const step of STEPS.filter((s) => s.from >= old.data.version)) {
    accounts = Object.fromEntries(
      Object.entries(accounts).map(([userId, saved]) => [userId, migrateAccount(saved, step)]),
    );
  }
  return { version: STATE_FILE_VERSION, accounts };
}

function migrateAccount(
  saved: Record<string, unknown[]>,
  step: { from: number; migrate: RecordMigrations },
): Record<string, unknown[]> {
  return Object.fromEntries(
    Object.entries(saved).map(([name, records]) => {
      const migrate = step.migrate[name as CollectionName];
      if (!migrate) return [name, records];
      return [name, records.map((record, i) => migrated(migrate, record, `${name}.${i} (version ${step.from})`))];
    }),
  );
}

function migrated(migrate: (record: unknown) => unknown, record: unknown, where: string): unknown {
  try {
    return migrate(record);
  } catch (error) {
    throw new Error(`${where} cannot be read: ${(error as Error).message}`);
  }
}
