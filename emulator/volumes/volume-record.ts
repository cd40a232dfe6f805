import type { NetworkVolume } from "../../sdk/schemas";
import type * as V2 from "../../sdk/schemas/v2";

/**
 * A network volume record is one fact answered in two dialects: a volume created
 * through v1 is read, grown and deleted through v2 and the other way round, under one id.
 */

/** The storage tier of a volume created without one (v1 has no tiers): every data center's primary tier. */
export const DEFAULT_VOLUME_TYPE = "STANDARD";

/** The v1 answer (OpenAPI v1 `NetworkVolume`): no tier, which v1 does not know. */
export function renderVolumeV1(record: NetworkVolume): NetworkVolume {
  return { id: record.id, name: record.name, size: record.size, dataCenterId: record.dataCenterId };
}

/** The v2 answer (OpenAPI v2 `NetworkVolume`): `dataCenter`, and the tier. */
export function renderVolumeV2(record: NetworkVolume): V2.NetworkVolume {
  return {
    id: record.id,
    name: record.name,
    size: record.size,
    dataCenter: record.dataCenterId,
    type: record.type ?? DEFAULT_VOLUME_TYPE,
  };
}
