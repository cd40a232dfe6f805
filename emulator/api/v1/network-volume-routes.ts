import type { FastifyInstance, FastifyRequest } from "fastify";
import {
  NetworkVolumeCreateInputSchema,
  NetworkVolumeUpdateInputSchema,
  PLATFORM_VALUE_FIELDS,
  volumeSizeChangeProblem,
} from "../../../sdk/schemas";
import type { ServerContext } from "../../server/server-context";
import { badField, notFound, parseOr400 } from "../../errors/http-errors";
import type { Account } from "../../store/account";
import { newVolumeId } from "../../records/ids";
import { renderVolumeV1, type VolumeRecord, volumeRecordFromV1 } from "../../volumes/volume-record";

type IdParams = { Params: { networkVolumeId: string } };

function volumeOf(account: Account, id: string): VolumeRecord {
  const v = account.networkVolumes.get(id);
  if (!v) throw notFound(`network volume ${id} not found`);
  return v;
}

/**
 * The OpenAPI's NetworkVolumeUpdateInput.size: "Must be greater than the current size". The shared helper
 * accepts an unchanged size, so equality is refused here as well.
 */
function sizeProblem(current: number, requested: number): string | undefined {
  return (
    volumeSizeChangeProblem(current, requested) ??
    (requested === current
      ? `size must be greater than the current size: the volume already has ${current} GB`
      : undefined)
  );
}

/** Management routes of network volumes (docs/platform.md "Management API v1"; OpenAPI tag "network volumes"). */
export function registerNetworkVolumeRoutesV1(app: FastifyInstance, ctx: ServerContext): void {
  app.post("/networkvolumes", async (req) => {
    const input = parseOr400(NetworkVolumeCreateInputSchema, req.body);
    ctx.catalog.assertKnown(PLATFORM_VALUE_FIELDS.NetworkVolume, input);
    const volume = volumeRecordFromV1(newVolumeId(), input);
    await req.account.networkVolumes.put(volume);
    return renderVolumeV1(volume);
  });

  app.get("/networkvolumes", async (req) => [...req.account.networkVolumes.values()].map(renderVolumeV1));

  app.get<IdParams>("/networkvolumes/:networkVolumeId", async (req) =>
    renderVolumeV1(volumeOf(req.account, req.params.networkVolumeId)),
  );

  // Spec rule 1: POST .../update is a synonym of PATCH; rule 2: size must grow.
  const update = async (req: FastifyRequest<IdParams>) => {
    const current = volumeOf(req.account, req.params.networkVolumeId);
    const input = parseOr400(NetworkVolumeUpdateInputSchema, req.body);
    if (input.size !== undefined) {
      const problem = sizeProblem(current.size, input.size);
      if (problem) throw badField("size", input.size, problem);
    }
    const next: VolumeRecord = { ...current, ...(input.name !== undefined ? { name: input.name } : {}) };
    if (input.size !== undefined) next.size = input.size;
    await req.account.networkVolumes.put(next);
    return renderVolumeV1(next);
  };
  app.patch<IdParams>("/networkvolumes/:networkVolumeId", update);
  app.post<IdParams>("/networkvolumes/:networkVolumeId/update", update);

  app.delete<IdParams>("/networkvolumes/:networkVolumeId", async (req, reply) => {
    volumeOf(req.account, req.params.networkVolumeId);
    await req.account.networkVolumes.delete(req.params.networkVolumeId);
    return reply.code(204).send();
  });
}
