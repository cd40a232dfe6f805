import { copyFile, mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ManualClock, type RunningEmulator, startEmulator } from "../../../emulator";
import { clientFor, KEY } from "./helpers";

/*
 * State files written by emulators of earlier versions load into v2-shaped records, and every
 * record answers in both dialects exactly as the emulator that wrote the file answered over it
 * (`answers.json` beside each, `ORIGIN` standing for its address):
 *
 * - fixtures/state-v1/: version 1, every record under management API v1's names (written by the
 *   emulator before version 2: its endpoints, templates and volumes, then its pods and a cluster);
 * - fixtures/state-v2/: version 2, pods and a cluster's members still in v1's names (written by
 *   the emulator before version 3).
 */

let dir: string;
let stateFile: string;
let answers: Record<string, unknown>;

/** Copies a fixture's state file where the emulator will load it, and reads its answers. */
async function useFixture(name: string): Promise<void> {
  const fixtures = path.join(__dirname, "fixtures", name);
  await copyFile(path.join(fixtures, "state.json"), stateFile);
  answers = JSON.parse(await readFile(path.join(fixtures, "answers.json"), "utf8"));
}

beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), "emulator-state-"));
  stateFile = path.join(dir, "state.json");
});
afterAll(() => rm(dir, { recursive: true, force: true }));

function start(): Promise<RunningEmulator> {
  const clock = new ManualClock({ epochOrigin: Date.UTC(2026, 5, 1, 0, 1) });
  return startEmulator({ port: 0, apiKeys: [KEY], stateFile, clock, rateLimits: false, managementQuota: false });
}

type V2Gpu = { count: number; vcpuCount?: number; memory?: number };

/**
 * A v2 pod answer as the emulators before version 3 gave it: without the allocation that v2's
 * `gpu` has answered since (`vcpuCount`, `memory`), which for their pods is the standard
 * machine's, 8 vCPUs and 62 GB per GPU.
 */
function withoutAllocation(route: string, body: unknown): unknown {
  if (!/^\/v2\/(pods|clusters\/[^/]+\/pods)/.test(route) || typeof body !== "object" || body === null) return body;
  const pods = ("pods" in body ? (body as { pods: { gpu?: V2Gpu }[] }).pods : [body]) as { gpu?: V2Gpu }[];
  for (const pod of pods) {
    if (!pod.gpu) continue;
    const { vcpuCount, memory, ...gpu } = pod.gpu;
    expect({ vcpuCount, memory }, route).toEqual({ vcpuCount: 8 * gpu.count, memory: 62 * gpu.count });
    pod.gpu = gpu;
  }
  return body;
}

/** Every recorded read, answered again: the answers as recorded, with this emulator's address. */
async function expectRecordedAnswers(emu: RunningEmulator): Promise<void> {
  const api = clientFor(emu, KEY);
  for (const [route, recorded] of Object.entries(answers)) {
    const expected = JSON.parse(JSON.stringify(recorded).split("ORIGIN").join(emu.url));
    const res = await api.get(route);
    expect(res.status, route).toBe(200);
    const current = withoutAllocation(route, res.body);
    // v2's lists page since that emulator: the same answer plus `pagination`, all on one page here.
    const { pagination, ...body } = current as Record<string, unknown>;
    if (route.startsWith("/v2/") && pagination !== undefined) {
      expect(pagination, route).toEqual({ hasNextPage: false });
      expect(body, route).toEqual(expected);
    } else expect(current, route).toEqual(expected);
  }
}

/** What a saved state file holds of the account's pods: v2's shape, the allocation included. */
function expectV2ShapedPods(account: Record<string, Record<string, unknown>[]>): void {
  expect(account.pods!.length).toBeGreaterThan(0);
  for (const pod of account.pods!) {
    expect(pod).toHaveProperty("image");
    expect(pod).toHaveProperty("mounts");
    expect(pod).not.toHaveProperty("imageName");
    expect(pod.gpu ?? pod.cpu).toMatchObject({ vcpuCount: expect.any(Number), memory: expect.any(Number) });
  }
}

describe("a state file of version 1 (records in v1's names)", () => {
  it("loads, answers every record as the emulator that wrote it did, and is saved as version 3", async () => {
    await useFixture("state-v1");
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
    expect(saved.version).toBe(3);
    const [account] = Object.values(saved.accounts) as Record<string, Record<string, unknown>[]>[];
    for (const endpoint of account!.endpoints!) expect(endpoint).toHaveProperty("workers.max");
    for (const template of account!.templates!) expect(template).toHaveProperty("image");
    for (const volume of account!.networkVolumes!) expect(volume).toHaveProperty("dataCenter");
    expectV2ShapedPods(account!);

    const second = await start();
    try {
      await expectRecordedAnswers(second);
    } finally {
      await second.close();
    }
  });
});

describe("a state file of version 2 (pods in v1's names)", () => {
  it("loads, answers every pod and cluster as the emulator that wrote it did, and is saved as version 3", async () => {
    await useFixture("state-v2");
    const first = await start();
    try {
      await expectRecordedAnswers(first);
      // The stock the loaded pods hold is taken again, and a write saves the file: a rename in place.
      const api = clientFor(first, KEY);
      const [pod] = (answers["/v2/pods?includeClusterPods=true"] as { pods: { id: string; name: string }[] }).pods;
      expect((await api.patch(`/v2/pods/${pod!.id}`, { name: pod!.name })).status).toBe(200);
    } finally {
      await first.close();
    }
    const saved = JSON.parse(await readFile(stateFile, "utf8"));
    expect(saved.version).toBe(3);
    const [account] = Object.values(saved.accounts) as Record<string, Record<string, unknown>[]>[];
    expectV2ShapedPods(account!);
    const second = await start();
    try {
      await expectRecordedAnswers(second);
    } finally {
      await second.close();
    }
  });
});
