import { describe, expect, it } from "vitest";
import { foldJournal, type JournalRecord } from "../../../sdk/jobs/batch-journal";

const lines = (records: JournalRecord[]) => records.map((r) => JSON.stringify(r)).join("\n");

describe("the submitMany journal", () => {
  it("folds its records into batches with their parts, confirmed or not", () => {
    const state = foldJournal(
      `${lines([
        { t: "start", v: 1, endpointId: "ep1" },
        { t: "create", seq: 0, from: 0 },
        { t: "created", seq: 0, id: "batch_a" },
        { t: "append", seq: 0, offset: 0, count: 3, from: 0, to: 3, hash: "h0" },
        { t: "appended", seq: 0, offset: 0 },
        { t: "append", seq: 0, offset: 3, count: 2, from: 4, to: 5, hash: "h1" },
        { t: "finalize", seq: 0 },
        { t: "create", seq: 1, from: 6 },
      ])}\n`,
    );
    expect(state.endpointId).toBe("ep1");
    expect(state.batches).toEqual([
      {
        seq: 0,
        from: 0,
        id: "batch_a",
        parts: [
          { offset: 0, count: 3, from: 0, to: 3, hash: "h0", confirmed: true },
          { offset: 3, count: 2, from: 4, to: 5, hash: "h1", confirmed: false },
        ],
        finalizeSent: true,
        finalized: false,
      },
      { seq: 1, from: 6, id: undefined, parts: [], finalizeSent: false, finalized: false },
    ]);
  });

  it("ignores a last line cut short by a kill, blank lines, and records of batches it never saw created", () => {
    const text = `${lines([
      { t: "start", v: 1, endpointId: "ep" },
      { t: "appended", seq: 7, offset: 0 },
      { t: "create", seq: 0, from: 0 },
    ])}\n\n{"t":"created","seq":0,"id":"batch_`;
    const state = foldJournal(text);
    expect(state.batches).toEqual([
      { seq: 0, from: 0, id: undefined, parts: [], finalizeSent: false, finalized: false },
    ]);
    expect(foldJournal("")).toEqual({ endpointId: undefined, batches: [] });
  });
});
