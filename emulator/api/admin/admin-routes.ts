import type { FastifyInstance } from "fastify";
import { z } from "zod";
import { isAdvanceable } from "../../clock/clock";
import { compileFaultRule, describeFaultRule, FaultConfigSchema } from "../../faults/fault-rules";
import type { ServerContext } from "../../server/server-context";
import { badField, parseOr400 } from "../../errors/http-errors";
import type { Account } from "../../store/account";
import { COLLECTION_NAMES, type CollectionName, type CollectionRecord } from "../../store/collections";
import { renderStats, resetStats } from "../../store/account-stats";
import { renderSecret } from "../../secrets/secret-record";

/** What `/_emulator/state` shows of a collection's records, where it is not the whole record. */
const INSPECTION_VIEWS: { [K in CollectionName]?: (record: CollectionRecord<K>) => unknown } = {
  // Id, name and username: the password hash stays inside the emulator.
  containerRegistryAuths: ({ id, name, username }) => ({ id, name, username }),
  // What the API answers: the sealed value stays inside the emulator too.
  secrets: renderSecret,
};

/** Every collection of the account, by name, as `/_emulator/state` shows it. */
function inspectCollections(account: Account): Record<CollectionName, unknown[]> {
  return Object.fromEntries(
    COLLECTION_NAMES.map((name) => {
      const view = (INSPECTION_VIEWS[name] ?? ((record: unknown) => record)) as (record: unknown) => unknown;
      return [name, [...account[name].values()].map(view)];
    }),
  ) as Record<CollectionName, unknown[]>;
}

const AdvanceSchema = z.object({
  ms: z
    .number()
    .int("must be a whole number of ms")
    .min(0, "must be at least 0")
    .max(31_536_000_000, "must be at most a year"),
});

const admin = { config: { admin: true } } as const;

/**
 * Emulator-only routes under `/_emulator/` (docs/emulator.md: state inspection, fault injection, clock).
 * They take the same bearer key and act on that key's account; the clock is shared by all.
 */
export function registerAdminRoutes(app: FastifyInstance, ctx: ServerContext): void {
  const clockView = () => {
    const clock = ctx.scheduler.clock;
    const now = clock.now();
    return { now, epochMs: clock.epochOrigin + now, manual: clock.realDelayUntil(now) === undefined };
  };

  app.get("/state", admin, async (req) => {
    const a = req.account;
    const jobs: Record<string, unknown> = {};
    for (const [id, runtime] of a.allRuntimes()) {
      jobs[id] = { ...runtime.jobCounts(), held: runtime.jobs.size, workers: runtime.health().workers };
    }
    return {
      userId: a.userId,
      clock: clockView(),
      ...inspectCollections(a),
      jobs,
      handlers: ctx.templates.ids(),
    };
  });

  app.get("/faults", admin, async (req) => ({ rules: req.account.faults.map(describeFaultRule) }));

  app.put("/faults", admin, async (req) => {
    const config = parseOr400(FaultConfigSchema, req.body);
    req.account.setFaults(config.rules.map(compileFaultRule));
    return { rules: req.account.faults.map(describeFaultRule) };
  });

  app.delete("/faults", admin, async (req, reply) => {
    req.account.setFaults([]);
    return reply.code(204).send();
  });

  app.get("/stats", admin, async (req) => renderStats(req.account.userId, req.account.stats));

  app.post("/stats/reset", admin, async (req, reply) => {
    resetStats(req.account.stats);
    return reply.code(204).send();
  });

  app.get("/clock", admin, async () => clockView());

  app.post("/clock/advance", admin, async (req) => {
    const { ms } = parseOr400(AdvanceSchema, req.body);
    const clock = ctx.scheduler.clock;
    if (!isAdvanceable(clock)) {
      throw badField("ms", ms, "the clock runs in real time (scaled); start with --time-scale 0 for a manual clock");
    }
    await clock.advance(ms);
    return clockView();
  });

  app.post("/reset", admin, async (req, reply) => {
    await req.account.reset();
    return reply.code(204).send();
  });
}
