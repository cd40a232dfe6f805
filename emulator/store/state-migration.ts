import { z } from "zod";
import { NetworkVolumeSchema } from "../../sdk/schemas";
import { EndpointV1ViewSchema, recordOfV1View } from "../endpoints/endpoint-v1-view";
import { migrateTemplateRecord, TemplateRecordV1Schema } from "../templates/template-record";
import { migrateVolumeRecord } from "../volumes/volume-record";
import type { CollectionName } from "./collections";

/*
 * State files of earlier emulators, brought to the current version on load. Version 1 kept
 * endpoints, templates and network volumes under management API v1's names; version 2 keeps every
 * record in v2's shape. A file is migrated in memory only: the next write saves it as version 2.
 */

/** The version this emulator writes. */
export const STATE_FILE_VERSION = 2;

/** The collections whose records changed shape in version 2, each with the function that brings one record over. */
const FROM_VERSION_1: { [K in CollectionName]?: (record: unknown) => unknown } = {
  networkVolumes: (record) => migrateVolumeRecord(NetworkVolumeSchema.loose().parse(record)),
  endpoints: (record) => recordOfV1View(EndpointV1ViewSchema.loose().parse(record)),
  templates: (record) => migrateTemplateRecord(TemplateRecordV1Schema.loose().parse(record)),
};

const Version1Schema = z.object({
  version: z.literal(1),
  accounts: z.record(z.string(), z.record(z.string(), z.array(z.unknown()))),
});

/**
 * `json` as the current version's state file: a version-1 file's records migrated (a record that
 * does not parse as version 1 throws, naming the collection and its position), anything else as
 * it is (the caller's schema judges it).
 */
export function migrateStateFile(json: unknown): unknown {
  const old = Version1Schema.safeParse(json);
  if (!old.success) return json;
  const accounts: Record<string, Record<string, unknown[]>> = {};
  for (const [userId, saved] of Object.entries(old.data.accounts)) {
    accounts[userId] = Object.fromEntries(
      Object.entries(saved).map(([name, records]) => {
        const migrate = FROM_VERSION_1[name as CollectionName];
        if (!migrate) return [name, records];
        return [name, records.map((record, i) => migrated(migrate, record, `${name}.${i}`))];
      }),
    );
  }
  return { version: STATE_FILE_VERSION, accounts };
}

function migrated(migrate: (record: unknown) => unknown, record: unknown, where: string): unknown {
  try {
    return migrate(record);
  } catch (error) {
    throw new Error(`${where} (version 1) cannot be read: ${(error as Error).message}`);
  }
}
