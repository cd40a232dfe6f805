import type { NetworkVolume } from "../../sdk/schemas";
import * as V2 from "../../sdk/schemas/v2";

/*
 * A network volume as the emulator keeps it: v2's answer (OpenAPI v2 `NetworkVolume`), one record
 * answered in two dialects: a volume created through v1 is read, grown and deleted through v2 and
 * the other way round, under one id. v1's routes translate at their edge: `dataCenterId` is v2's
 * `dataCenter`, and a volume made through v1 (which has no tiers) gets the primary tier.
 */

/** What the emulator keeps of a network volume. */
export const VolumeRecordSchema = V2.NetworkVolumeSchema;
/** A stored network volume. */
export type VolumeRecord = V2.NetworkVolume;

/** The storage tier of a volume created without one (v1 has no tiers): every data center's primary tier. */
export const DEFAULT_VOLUME_TYPE = "STANDARD";

/** A new record from a v1 create body (`NetworkVolumeCreateInput`). */
export function volumeRecordFromV1(
  id: string,
  input: Pick<NetworkVolume, "name" | "size" | "dataCenterId">,
): VolumeRecord {
  return { id, name: input.name, size: input.size, dataCenter: input.dataCenterId, type: DEFAULT_VOLUME_TYPE };
}

/**
 * A record as state files before version 2 kept it (v1's fields, and the tier of a volume made
 * through v2): the record it is now.
 */
export function migrateVolumeRecord(old: NetworkVolume): VolumeRecord {
  return { ...volumeRecordFromV1(old.id, old), type: old.type ?? DEFAULT_VOLUME_TYPE };
}

/** The v1 answer (OpenAPI v1 `NetworkVolume`): no tier, which v1 does not know. */
export function renderVolumeV1(record: VolumeRecord): NetworkVolume {
  return { id: record.id, name: record.name, size: record.size, dataCenterId: record.dataCenter };
}

/** The v2 answer (OpenAPI v2 `NetworkVolume`): the record. */
export function renderVolumeV2(record: VolumeRecord): V2.NetworkVolume {
  return { id: record.id, name: record.name, size: record.size, dataCenter: record.dataCenter, type: record.type };
}
