import { describe, expect, it } from "vitest";
import { scriptedClients } from "./scripted-server";

// The transport reads each answer through sdk/http-exchange.ts (undici's dispatch with a handler
// that collects the body). These cases cover what undici.request's body stream used to handle.

const KEY = "sk-exchange-test-secret";
const setup = scriptedClients(KEY);

describe("reading an answer", () => {
  it("joins a body read in several chunks, with a character split between two of them", async () => {
    const text = JSON.stringify({ id: "job-1", status: "COMPLETED", output: { caption: "Kyōto, 東京 ✓" } });
    const bytes = Buffer.from(text, "utf8");
    const split = bytes.indexOf(Buffer.from("東", "utf8")) + 1; // inside the 3-byte character
    const { client } = await setup([
      {
        status: 200,
        gapMs: 20,
        chunks: [bytes.subarray(0, split), bytes.subarray(split, split + 5), bytes.subarray(split + 5)],
      },
    ]);
    await expect(client.jobs("ep").status("job-1")).resolves.toEqual({
      id: "job-1",
      status: "COMPLETED",
      output: { caption: "Kyōto, 東京 ✓" },
    });
  });

  it("reads a large body whole (2 MB of output)", async () => {
    const output = "x".repeat(2 * 1024 * 1024);
    const { client } = await setup([{ status: 200, body: { id: "job-2", status: "COMPLETED", output } }]);
    const record = await client.jobs("ep").status("job-2");
    expect((record.output as string).length).toBe(output.length);
  });

  it("ignores a byte-order mark before the JSON", async () => {
    const bom = Buffer.from([0xef, 0xbb, 0xbf]);
    const { client } = await setup([
      { status: 200, gapMs: 0, chunks: [Buffer.concat([bom, Buffer.from('{"id":"job-3","status":"IN_QUEUE"}')])] },
    ]);
    await expect(client.jobs("ep").status("job-3")).resolves.toEqual({ id: "job-3", status: "IN_QUEUE" });
  });

  it("takes the final answer after a 103 Early Hints", async () => {
    const { client } = await setup([{ earlyHints: true, status: 200, body: { id: "job-4", status: "IN_PROGRESS" } }]);
    await expect(client.jobs("ep").status("job-4")).resolves.toEqual({ id: "job-4", status: "IN_PROGRESS" });
  });

  it("aborts a call still waiting for a pooled connection, and the pool goes on", async () => {
    const { server, client } = await setup(
      [
        { delayMs: 1_000, status: 200, body: { id: "slow", status: "COMPLETED" } },
        { status: 200, body: { id: "after", status: "COMPLETED" } },
      ],
      { connections: 1 },
    );
    const jobs = client.jobs("ep");
    const settled: string[] = [];
    const slow = jobs.status("slow").then((r) => (settled.push("slow"), r));
    const ac = new AbortController();
    const queued = jobs.status("queued", { signal: ac.signal }).catch((e: unknown) => (settled.push("queued"), e));
    setTimeout(() => ac.abort(), 20);
    expect(await queued).toMatchObject({ code: "aborted" });
    await expect(slow).resolves.toMatchObject({ id: "slow" });
    // Rejected while queued, not when the connection came free ...
    expect(settled).toEqual(["queued", "slow"]);
    // ... and never sent: the next call gets the next scripted answer.
    await expect(jobs.status("after")).resolves.toMatchObject({ id: "after" });
    expect(server.seen.map((s) => s.url)).toEqual(["/v2/ep/status/slow", "/v2/ep/status/after"]);
  });
});
