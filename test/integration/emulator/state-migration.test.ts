import { copyFile, mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ManualClock, type RunningEmulator, startEmulator } from "../../../emulator";
import { clientFor, KEY } from "./helpers";

/*
 * A state file written by the emulator before version 2 (records under management API v1's names;
 * fixtures/state-v1/state.json, written by that emulator) loads into v2-shaped records, and every
 * record answers in both dialects exactly as that emulator answered over the same file
 * (fixtures/state-v1/answers.json, `ORIGIN` standing for its address).
 */

const FIXTURES = path.join(__dirname, "fixtures", "state-v1");
let dir: string;
let stateFile: string;
let answers: Record<string, unknown>;

beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), "emulator-state-v1-"));
  stateFile = path.join(dir, "state.json");
  await copyFile(path.join(FIXTURES, "state.json"), stateFile);
  answers = JSON.parse(await readFile(path.join(FIXTURES, "answers.json"), "utf8"));
});
afterAll(() => rm(dir, { recursive: true, force: true }));

function start(): Promise<RunningEmulator> {
  const clock = new ManualClock({ epochOrigin: Date.UTC(2026, 5, 1, 0, 1) });
  return startEmulator({ port: 0, apiKeys: [KEY], stateFile, clock, rateLimits: false, managementQuota: false });
}

/** Every recorded read, answered again: the answers as recorded, with this emulator's address. */
async function expectRecordedAnswers(emu: RunningEmulator): Promise<void> {
  const api = clientFor(emu, KEY);
  for (const [route, recorded] of Object.entries(answers)) {
    const expected = JSON.parse(JSON.stringify(recorded).split("ORIGIN").join(emu.url));
    const res = await api.get(route);
    expect(res.status, route).toBe(200);
    // v2's lists page since that emulator: the same answer plus `pagination`, all on one page here.
    const { pagination, ...body } = res.body as Record<string, unknown>;
    if (route.startsWith("/v2/") && pagination !== undefined) {
      expect(pagination, route).toEqual({ hasNextPage: false });
      expect(body, route).toEqual(expected);
    } else expect(res.body, route).toEqual(expected);
  }
}

describe("a state file of version 1 (records in v1's names)", () => {
  it("loads, answers every record as the emulator that wrote it did, and is saved as version 2", async () => {
    const first = await start();
    try {
      await expectRecordedAnswers(first);
      // The rules hold over migrated records: the v1 template is in use, its registry auth too.
      const api = clientFor(first, KEY);
      const [legacy] = answers["/v1/templates"] as { id: string }[];
      expect((await api.del(`/v1/templates/${legacy!.id}`)).status).toBe(400);
      // A write saves the whole file in the current version.
      const volume = (answers["/v1/networkvolumes"] as { id: string }[])[0]!;
      expect((await api.patch(`/v1/networkvolumes/${volume.id}`, { name: "legacy-data" })).status).toBe(200);
    } finally {
      await first.close();
    }
    const saved = JSON.parse(await readFile(stateFile, "utf8"));
    expect(saved.version).toBe(2);
    const [account] = Object.values(saved.accounts) as Record<string, Record<string, unknown>[]>[];
    for (const endpoint of account!.endpoints!) expect(endpoint).toHaveProperty("workers.max");
    for (const template of account!.templates!) expect(template).toHaveProperty("image");
    for (const volume of account!.networkVolumes!) expect(volume).toHaveProperty("dataCenter");

    const second = await start();
    try {
      await expectRecordedAnswers(second);
    } finally {
      await second.close();
    }
  });
});
