import { describe, expect, it } from "vitest";
import { Job } from "../../../emulator/jobs/job";
import { RECENT_REQUESTS_MAX, RECENT_REQUESTS_WINDOW_MS, RecentRequests } from "../../../emulator/jobs/recent-requests";

const owner = { expire: () => undefined };
const job = (id: string, input: Record<string, unknown> = {}) =>
  new Job(id, owner, input, 0, 1e9, 600_000, 60_000, false, undefined);
const iso = (t: number) => `t${t}`;

describe("the recent requests of /requests", () => {
  it("lists the newest first, each read live while its job is held", () => {
    const recent = new RecentRequests();
    const a = job("a");
    const b = job("b", { openai_route: "/v1/models", openai_input: {} });
    recent.add(a, "run", 0);
    recent.add(b, "openai", 5);
    a.status = "COMPLETED";
    a.startedAt = 2;
    a.finishedAt = 7;
    expect(recent.list(10, iso)).toEqual([
      { id: "b", status: "IN_QUEUE", source: "openai", route: "/v1/models", createdAt: "t5" },
      {
        id: "a",
        status: "COMPLETED",
        source: "run",
        createdAt: "t0",
        startedAt: "t2",
        delayTime: 2,
        endedAt: "t7",
        executionTime: 5,
      },
    ]);
  });

  it("keeps a removed job's facts, marks one removed before it ended, and holds no payload", () => {
    const recent = new RecentRequests();
    const done = job("done", { big: "x".repeat(1000) });
    const purged = job("purged");
    recent.add(done, "runsync", 0);
    recent.add(purged, "run", 0);
    done.status = "COMPLETED";
    recent.removed(done, true, 50);
    recent.removed(purged, false, 60);
    done.status = "FAILED"; // a removed job no longer shows through
    const [p, d] = recent.list(100, iso);
    expect(d).toMatchObject({ id: "done", status: "COMPLETED" });
    expect(d!.removedAt).toBeUndefined();
    expect(p).toMatchObject({ id: "purged", status: "IN_QUEUE", removedAt: "t60" });
    expect(JSON.stringify(recent.list(100, iso))).not.toContain("xxx");
  });

  it("keeps at most the last 100 requests of the last 30 minutes", () => {
    const recent = new RecentRequests();
    for (let i = 0; i < RECENT_REQUESTS_MAX + 20; i++) recent.add(job(`j${i}`), "run", i * 1000);
    const listed = recent.list(RECENT_REQUESTS_MAX * 1000, iso);
    expect(listed).toHaveLength(RECENT_REQUESTS_MAX);
    expect(listed[0]!.id).toBe(`j${RECENT_REQUESTS_MAX + 19}`);
    expect(listed.at(-1)!.id).toBe("j20");
    const later = recent.list(RECENT_REQUESTS_WINDOW_MS + 100_000, iso);
    expect(later.map((r) => r.id)).toEqual(Array.from({ length: 20 }, (_, i) => `j${RECENT_REQUESTS_MAX + 19 - i}`));
  });
});
