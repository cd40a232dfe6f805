import { createParser, type EventSourceMessage } from "eventsource-parser";
import { describe, expect, it } from "vitest";
import {
  errorStatusOf,
  holdsDone,
  openAiErrorBody,
  piecesOf,
  SSE_DONE,
  sseText,
  unfinishedAnswer,
  wholeAnswer,
} from "../../../emulator/jobs/openai-wire";

/** What an SSE client reads out of `text` (the parser the typed client uses too). */
function events(text: string): string[] {
  const seen: EventSourceMessage[] = [];
  const parser = createParser({ onEvent: (e) => seen.push(e) });
  parser.feed(text);
  return seen.map((e) => e.data);
}

describe("SSE framing of an /openai/* stream", () => {
  it("frames a yielded object as one data event holding its JSON", () => {
    const chunk = { object: "chat.completion.chunk", choices: [{ index: 0, delta: { content: "a\nb" } }] };
    const text = sseText(chunk);
    expect(text).toBe(`data: ${JSON.stringify(chunk)}\n\n`);
    expect(events(text).map((d) => JSON.parse(d))).toEqual([chunk]);
  });

  it("passes a yielded string through as SSE text, several events at once, as the official worker yields them", () => {
    const text = 'data: {"n":1}\n\ndata: {"n":2}\n\n';
    expect(sseText(text)).toBe(text);
    expect(events(sseText(text))).toEqual(['{"n":1}', '{"n":2}']);
  });

  it("frames values JSON has no text for as null, and ends a stream with [DONE]", () => {
    expect(sseText(undefined)).toBe("data: null\n\n");
    expect(events(SSE_DONE)).toEqual(["[DONE]"]);
  });

  it("sees [DONE] only as a whole event of its own", () => {
    expect(holdsDone(SSE_DONE)).toBe(true);
    expect(holdsDone('data: {"n":1}\n\ndata: [DONE]\n\n')).toBe(true);
    expect(holdsDone("data:[DONE]\n\n")).toBe(true);
    expect(holdsDone('data: {"text":"data: [DONE] inside"}\n\n')).toBe(false);
    expect(holdsDone('data: {"n":1}\n\n')).toBe(false);
  });

  it("splits a whole output into pieces per element, anything else is one piece", () => {
    expect(piecesOf(["a", { b: 1 }])).toEqual(["a", { b: 1 }]);
    expect(piecesOf({ b: 1 })).toEqual([{ b: 1 }]);
  });
});

describe("the answer of a call without stream", () => {
  it("is the output, or the one value a generator yielded", () => {
    expect(wholeAnswer([{ object: "list" }])).toEqual({ object: "list" });
    expect(wholeAnswer({ object: "list" })).toEqual({ object: "list" });
    expect(wholeAnswer([1, 2])).toEqual([1, 2]);
  });

  it("takes its status from an OpenAI-style error object (nested or vLLM's flat one), else none", () => {
    expect(errorStatusOf(openAiErrorBody(404, "NotFoundError", "no"))).toBe(404);
    expect(errorStatusOf({ object: "error", message: "bad", code: 400 })).toBe(400);
    expect(errorStatusOf({ error: { message: "x", code: "model_not_found" } })).toBeUndefined();
    expect(errorStatusOf({ error: { code: 200 } })).toBeUndefined();
    expect(errorStatusOf({ error: { code: 600 } })).toBeUndefined();
    expect(errorStatusOf({ choices: [] })).toBeUndefined();
    expect(errorStatusOf("text")).toBeUndefined();
  });

  it("maps a job that did not complete to a status and an OpenAI-style error", () => {
    expect(unfinishedAnswer("j1", "FAILED", "boom")).toEqual({
      status: 500,
      body: { error: { message: "job j1 failed: boom", type: "InternalServerError", param: null, code: 500 } },
    });
    expect(unfinishedAnswer("j1", "TIMED_OUT", "execution timeout").status).toBe(504);
    expect(unfinishedAnswer("j1", "expired", undefined).status).toBe(504);
    expect(unfinishedAnswer("j1", "CANCELLED", undefined).body.error.type).toBe("CancelledError");
    expect(unfinishedAnswer("j1", "purged", undefined).body.error.message).toContain("removed from the queue");
  });
});
