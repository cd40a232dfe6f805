import { z } from "zod";
import { EcrDelegationRecordSchema } from "../registry-auths/ecr-delegation-record";
import { EndpointRecordSchema } from "../endpoints/endpoint-record";
import { RegistryAuthRecordSchema } from "../registry-auths/registry-auth-record";
import { TemplateRecordSchema } from "../templates/template-record";
import { UsageRecordSchema } from "../billing/usage-record";
import { ClusterRecordSchema } from "../clusters/cluster-record";
import { SshKeysRecordSchema } from "./ssh-keys-record";
import { PodRecordSchema } from "../pods/pod-record";
import { SecretRecordSchema } from "../secrets/secret-record";
import type { Collection } from "../records/collection";
import { VolumeRecordSchema } from "../volumes/volume-record";

/**
 * The management collections of an account, declared once: each name is the account's
 * property, the state file's key and `/_emulator/state`'s key, and each schema is what a record
 * is (and what the state file holds of it). Loading, snapshots and reset follow from this table,
 * so a new collection is one line here.
 */
export const COLLECTION_SCHEMAS = {
  networkVolumes: VolumeRecordSchema,
  endpoints: EndpointRecordSchema,
  templates: TemplateRecordSchema,
  containerRegistryAuths: RegistryAuthRecordSchema,
  ecrDelegations: EcrDelegationRecordSchema,
  pods: PodRecordSchema,
  clusters: ClusterRecordSchema,
  sshKeys: SshKeysRecordSchema,
  // Values sealed (secret-box.ts): the state file holds no secret in plain text.
  secrets: SecretRecordSchema,
  // Last: a reset clears it after the others, whose deletions close their billed spans in it.
  usage: UsageRecordSchema,
} as const;

/** The name of a management collection. */
export type CollectionName = keyof typeof COLLECTION_SCHEMAS;

/** The record type of each collection. */
export type CollectionRecord<K extends CollectionName> = z.output<(typeof COLLECTION_SCHEMAS)[K]>;

/** Every collection of an account, by name. */
export type Collections = { readonly [K in CollectionName]: Collection<CollectionRecord<K>> };

/** The names, in the order the state file and `/_emulator/state` list them. */
export const COLLECTION_NAMES = Object.keys(COLLECTION_SCHEMAS) as CollectionName[];

/**
 * One account's part of the state file: every collection as an array. A collection added after a
 * file was written loads empty from it (`default([])`), and records are read `loose`, so a field
 * the schema does not name (written by a newer emulator) survives a load and the next save.
 */
export const SavedAccountSchema = z.object(savedAccountShape());

function savedAccountShape(): { [K in CollectionName]: z.ZodDefault<z.ZodArray<z.ZodType<CollectionRecord<K>>>> } {
  const shape: Partial<Record<CollectionName, z.ZodType>> = {};
  for (const name of COLLECTION_NAMES) shape[name] = z.array(COLLECTION_SCHEMAS[name].loose()).default([]);
  return shape as ReturnType<typeof savedAccountShape>;
}
/** One account's part of the state file. */
export type SavedAccount = z.output<typeof SavedAccountSchema>;
