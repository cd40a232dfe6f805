import type { FastifyInstance, FastifyRequest } from "fastify";
import { PLATFORM_VALUE_FIELDS } from "../../../sdk/schemas";
import * as V2 from "../../../sdk/schemas/v2";
import type { ServerContext } from "../../server/server-context";
import { positionIn } from "../../server/list-pages";
import { badField, notFound, parseOr400 } from "../../errors/http-errors";
import type { Account } from "../../store/account";
import { newVolumeId } from "../../records/ids";
import { DEFAULT_VOLUME_TYPE, renderVolumeV2, type VolumeRecord } from "../../volumes/volume-record";

type IdParams = { Params: { id: string } };

function volumeOf(account: Account, id: string): VolumeRecord {
  const v = account.networkVolumes.get(id);
  if (!v) throw notFound(`network volume ${id} not found`);
  return v;
}

/**
 * Management v2 routes of network volumes (`/v2/network-volumes`, OpenAPI v2 tag "Network
 * Volumes"), over the same records as v1's routes. Differences from v1: `dataCenter`, a storage
 * `type` fixed at creation, sizes 10 to 4096 GB, an update that may keep the size (it may not
 * shrink), a wrapped list, 201 on create.
 */
export function registerNetworkVolumeRoutesV2(app: FastifyInstance, ctx: ServerContext): void {
  app.post("/network-volumes", async (req, reply) => {
    const input = parseOr400(V2.CreateNetworkVolumeRequestSchema, req.body);
    ctx.catalog.assertKnown(PLATFORM_VALUE_FIELDS.NetworkVolume, { dataCenterId: input.dataCenter });
    const tiers = ctx.catalog.dataCenter(input.dataCenter)?.networkVolumeTypes ?? [];
    if (input.type !== undefined && !tiers.includes(input.type)) {
      throw badField(
        "type",
        input.type,
        `is not a storage tier of data center ${input.dataCenter} (it has ${tiers.join(", ")})`,
      );
    }
    const volume: VolumeRecord = {
      id: newVolumeId(),
      name: input.name,
      size: input.size,
      dataCenter: input.dataCenter,
      // The data center's primary tier when none is asked for (OpenAPI v2 CreateNetworkVolumeRequest.type).
      type: input.type ?? tiers[0] ?? DEFAULT_VOLUME_TYPE,
    };
    await req.account.networkVolumes.put(volume);
    return reply.code(201).send(renderVolumeV2(volume));
  });

  app.get("/network-volumes", async (req) => {
    const volumes = req.account.networkVolumes;
    return ctx.pages.answer(req, "networkVolumes", volumes.values(), positionIn(volumes), renderVolumeV2);
  });

  app.get<IdParams>("/network-volumes/:id", async (req) => renderVolumeV2(volumeOf(req.account, req.params.id)));

  app.patch<IdParams>("/network-volumes/:id", async (req: FastifyRequest<IdParams>) => {
    const current = volumeOf(req.account, req.params.id);
    const input = parseOr400(V2.UpdateNetworkVolumeRequestSchema, req.body);
    // OpenAPI v2: "Must be greater than or equal to the current size: storage cannot be reduced."
    if (input.size !== undefined && input.size < current.size) {
      throw badField(
        "size",
        input.size,
        `must be at least the current size of ${current.size} GB; storage cannot be reduced`,
      );
    }
    const next: VolumeRecord = { ...current, ...input };
    await req.account.networkVolumes.put(next);
    return renderVolumeV2(next);
  });

  app.delete<IdParams>("/network-volumes/:id", async (req, reply) => {
    volumeOf(req.account, req.params.id);
    await req.account.networkVolumes.delete(req.params.id);
    return reply.code(204).send();
  });
}
