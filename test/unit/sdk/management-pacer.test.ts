import { describe, expect, it } from "vitest";
import { AbortError, QuotaExhaustedError } from "../../../sdk/errors";
import { ManagementPacer, type PacerClock, sharedPacer } from "../../../sdk/rate-limit/management-pacer";

/** A clock that moves only when told, firing due timers in order. */
class ManualPacerClock implements PacerClock {
  time = 0;
  private timers: { at: number; fn: () => void }[] = [];
  now = () => this.time;
  schedule(ms: number, fn: () => void): () => void {
    const timer = { at: this.time + ms, fn };
    this.timers.push(timer);
    return () => {
      this.timers = this.timers.filter((t) => t !== timer);
    };
  }
  /** Moves to `to`, firing each timer due on the way at its own time. */
  async advanceTo(to: number): Promise<void> {
    for (;;) {
      const due = this.timers.filter((t) => t.at <= to).sort((a, b) => a.at - b.at)[0];
      if (!due) break;
      this.timers = this.timers.filter((t) => t !== due);
      this.time = due.at;
      due.fn();
      await Promise.resolve();
    }
    this.time = to;
    await Promise.resolve();
  }
  get pending(): number {
    return this.timers.length;
  }
}

const REQUEST = { method: "GET", path: "/v2/network-volumes" };
const POLICY = '"minute";q=60;w=60';
const headers = (remaining: number, t: number) => ({
  ratelimit: `"minute";r=${remaining};t=${t}`,
  "ratelimit-policy": POLICY,
});

/** Settles promise callbacks queued so far. */
const flush = () => new Promise<void>((resolve) => setImmediate(resolve));

describe("ManagementPacer", () => {
  it("lets queued requests go in order as answers and the window's end free them", async () => {
    const clock = new ManualPacerClock();
    const pacer = new ManagementPacer(clock);
    const probe = await pacer.acquire(REQUEST, 60_000);
    const order: string[] = [];
    const queued = ["a", "b", "c"].map((name) =>
      Promise.resolve(pacer.acquire(REQUEST, 60_000)).then((ticket) => {
        order.push(name);
        return ticket;
      }),
    );
    await flush();
    expect([order, pacer.waiting]).toEqual([[], 3]); // nothing goes before the first answer
    clock.time = 10;
    pacer.answered(probe, 200, headers(2, 30)); // 2 left, the minute ends by 30,010
    await flush();
    expect(order).toEqual(["a", "b"]);
    expect(clock.pending).toBe(0); // "c" waits for their answers, not for a time
    const [a, b] = await Promise.all(queued.slice(0, 2));
    pacer.answered(a!, 200, headers(1, 30));
    pacer.answered(b!, 200, headers(0, 30));
    await flush();
    expect([order, clock.pending]).toEqual([["a", "b"], 1]);
    await clock.advanceTo(30_009);
    expect(order).toEqual(["a", "b"]);
    await clock.advanceTo(30_010);
    expect(order).toEqual(["a", "b", "c"]);
    expect(pacer.inFlight).toBe(1);
  });

  it("fails a wait that would outlast the request's retry budget at once, naming the window", async () => {
    const clock = new ManualPacerClock();
    const pacer = new ManagementPacer(clock);
    pacer.answered(await pacer.acquire(REQUEST, 60_000), 200, headers(0, 45));
    const error = await Promise.resolve(pacer.acquire(REQUEST, 20_000)).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(QuotaExhaustedError);
    expect(error).toMatchObject({ code: "rate_limited", window: "minute", quota: 60, retryAfterMs: 45_000 });
    expect((error as Error).message).toBe(
      "GET /v2/network-volumes: not sent: the account's minute quota of 60 requests is spent for 45 s more, " +
        "beyond this request's retry budget (20000 ms left; raise retryBudgetMs to wait longer)",
    );
    // A request with budget enough waits instead.
    const patient = pacer.acquire(REQUEST, 50_000);
    await flush();
    expect(pacer.waiting).toBe(1);
    await clock.advanceTo(45_000);
    await expect(patient).resolves.toMatchObject({ sentAt: 45_000 });
  });

  it("fails a queued request whose budget a later answer shows too short", async () => {
    const clock = new ManualPacerClock();
    const pacer = new ManagementPacer(clock);
    const probe = await pacer.acquire(REQUEST, 60_000);
    const queued = Promise.resolve(pacer.acquire(REQUEST, 5_000)).catch((e: unknown) => e);
    pacer.answered(probe, 200, headers(0, 30));
    expect(await queued).toBeInstanceOf(QuotaExhaustedError);
    expect(pacer.waiting).toBe(0);
  });

  it("holds every request for a 429's Retry-After", async () => {
    const clock = new ManualPacerClock();
    const pacer = new ManagementPacer(clock);
    pacer.answered(await pacer.acquire(REQUEST, 60_000), 200, headers(30, 50));
    pacer.answered(await pacer.acquire(REQUEST, 60_000), 429, { ...headers(30, 50), "retry-after": "3" });
    let sent = false;
    void Promise.resolve(pacer.acquire(REQUEST, 60_000)).then(() => (sent = true));
    await clock.advanceTo(2_999);
    expect(sent).toBe(false);
    await clock.advanceTo(3_000);
    expect(sent).toBe(true);
  });

  it("rejects a waiting request whose caller aborts, and lets the others keep their turn", async () => {
    const clock = new ManualPacerClock();
    const pacer = new ManagementPacer(clock);
    pacer.answered(await pacer.acquire(REQUEST, 60_000), 200, headers(0, 10));
    const controller = new AbortController();
    const aborted = Promise.resolve(pacer.acquire(REQUEST, 60_000, controller.signal)).catch((e: unknown) => e);
    const kept = pacer.acquire(REQUEST, 60_000);
    controller.abort();
    expect(await aborted).toBeInstanceOf(AbortError);
    expect(pacer.waiting).toBe(1);
    await clock.advanceTo(10_000);
    await expect(kept).resolves.toMatchObject({ sentAt: 10_000 });
  });

  it("counts a request that got no answer out of flight", async () => {
    const pacer = new ManagementPacer(new ManualPacerClock());
    pacer.failed(await pacer.acquire(REQUEST, 60_000));
    expect(pacer.inFlight).toBe(0);
    expect(pacer.acquire(REQUEST, 60_000)).toMatchObject({ sentAt: 0 });
  });

  it("shares one pacer per account and base URL in a process", () => {
    const a = sharedPacer("https://api.runpod.io/v2", "key-one");
    expect(sharedPacer("https://api.runpod.io/v2", "key-one")).toBe(a);
    expect(sharedPacer("https://api.runpod.io/v2", "key-two")).not.toBe(a);
    expect(sharedPacer("http://127.0.0.1:8787/v2", "key-one")).not.toBe(a);
  });
});
