import { type ChildProcess, spawn } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { REPO_ROOT } from "../../scripts/pulumi-cli";
import { RunpodClient } from "../../sdk";
import { ensureBuilt } from "./engine-harness";
import { announceSeed, resilienceSeed, seedStreams, withSeed } from "./seed";

/**
 * The emulator's `--state-file` survives SIGKILL. A management workload (4
 * concurrent writers creating, growing, renaming and deleting volumes and endpoints) runs against
 * the emulator CLI; the emulator is SIGKILLed after a seeded number of acknowledged writes, then
 * restarted on the same file, 5 times. After every restart the file loads (nothing corrupt) and
 * holds every acknowledged write; a write in flight at the kill may be there or not.
 */
const SEED = resilienceSeed();
const KEY = "rpa_EMULATORKILL0001";
const ROUNDS = 5;
const WRITERS = 4;
const CLI = path.join(REPO_ROOT, "dist", "emulator", "cli.js");
const dir = fs.mkdtempSync(path.join(os.tmpdir(), "runpod-emulator-kill-"));
const stateFile = path.join(dir, "state.json");
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

/** What a writer knows of one resource: its last acknowledged form, and the write in flight, if any. */
interface Known {
  kind: "volume" | "endpoint";
  /** The writer that created it and alone changes it (no two writes of one resource race). */
  owner: string;
  acked: Record<string, unknown> | "deleted" | undefined;
  inFlight: Record<string, unknown> | "deleted" | undefined;
}

/** Resolves when `child` has exited (at once if it already has: the event may have passed). */
function exited(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((r) => child.once("exit", () => r()));
}

function startCli(): Promise<{ child: ChildProcess; apiUrl: string }> {
  const child = spawn(
    process.execPath,
    [CLI, "emulator", "--port", "0", "--api-key", KEY, "--state-file", stateFile, "--no-rate-limits"],
    {
      stdio: ["ignore", "pipe", "pipe"],
    },
  );
  let out = "";
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no ready line:\n${out}`)), 60_000);
    const onData = (d: Buffer) => {
      out += d;
      const m = /management API \(RUNPOD_API_URL\)\s+(\S+)[\s\S]*ready: listening/.exec(out);
      if (m) {
        clearTimeout(timer);
        resolve({ child, apiUrl: m[1]! });
      }
    };
    child.stdout!.on("data", onData);
    child.stderr!.on("data", onData);
    child.once("exit", (code) => {
      clearTimeout(timer);
      reject(new Error(`emulator exited (${code}) before ready:\n${out}`));
    });
  });
}

const pick = (record: Record<string, unknown>, keys: string[]) => Object.fromEntries(keys.map((k) => [k, record[k]]));

const matches = (record: Record<string, unknown> | undefined, want: Record<string, unknown> | "deleted" | undefined) =>
  want === undefined ||
  (want === "deleted"
    ? record === undefined
    : record !== undefined && Object.entries(want).every(([k, v]) => JSON.stringify(record[k]) === JSON.stringify(v)));

describe("the emulator's state file under SIGKILL", { timeout: 600_000 }, () => {
  it("holds every acknowledged write after each of 5 kills at seeded moments, and always loads", async () => {
    announceSeed("emulator-kill", SEED);
    ensureBuilt();
    const random = seedStreams(SEED, "emulator-kill").random;
    const known = new Map<string, Known>();
    const log: string[] = [];
    let acked = 0;
    // Rounds 1..ROUNDS end with a kill; one more start only checks what the last kill left.
    for (let round = 1; ; round++) {
      const { child, apiUrl } = await startCli();
      const client = new RunpodClient({
        apiKey: KEY,
        apiUrl,
        // The job API is <origin>/v2, whichever management version the emulator advertises.
        queueUrl: `${new URL(apiUrl).origin}/v2`,
        maxAttempts: 1,
      });
      // Every acknowledged write of earlier rounds is there; in-flight ones may have landed or not.
      const onPlatform = new Map<string, Record<string, unknown>>([
        ...(await client.networkVolumes.list()).map((v) => [v.id, v as Record<string, unknown>] as const),
        ...(await client.endpoints.list()).map((e) => [e.id, e as Record<string, unknown>] as const),
      ]);
      const lost = [...known].filter(
        ([id, k]) => !matches(onPlatform.get(id), k.acked) && !matches(onPlatform.get(id), k.inFlight),
      );
      expect(lost, withSeed(SEED, `round ${round}: acknowledged writes lost\n${log.join("\n")}`)).toEqual([]);
      if (round > ROUNDS) {
        const stale = fs.readdirSync(dir).filter((f) => f.endsWith(".tmp"));
        await client.close();
        child.kill("SIGTERM");
        await exited(child);
        expect(stale, withSeed(SEED, "stale temporary files")).toEqual([]);
        break;
      }
      for (const [id, k] of known) {
        const now = onPlatform.get(id);
        // What the workload writes and checks; `version` and the like change with every update.
        k.acked = now ? pick(now, k.kind === "volume" ? ["name", "size"] : ["name", "workersMax"]) : "deleted";
        k.inFlight = undefined;
      }
      const killAfter = acked + 5 + Math.floor(random() * 30);
      const delayMs = Math.floor(random() * 20);
      let stop = false;
      const writer = async (w: number) => {
        for (let n = 0; !stop; n++) {
          const mine = [...known].filter(
            ([, k]) => k.acked !== "deleted" && k.acked !== undefined && k.owner === `w${w}`,
          );
          const pick = mine[Math.floor(random() * mine.length)];
          const roll = random();
          try {
            if (!pick || roll < 0.4) {
              if (w % 2) {
                const v = await client.networkVolumes.create({
                  name: `w${w}-r${round}-${n}`,
                  size: 10,
                  dataCenterId: "EU-RO-1",
                });
                known.set(v.id, {
                  kind: "volume",
                  owner: `w${w}`,
                  acked: { name: v.name, size: 10 },
                  inFlight: undefined,
                });
              } else {
                const e = await client.endpoints.create({
                  name: `w${w}-r${round}-${n}`,
                  templateId: "echo",
                  gpuTypeIds: ["NVIDIA L4"],
                });
                known.set(e.id, { kind: "endpoint", owner: `w${w}`, acked: { name: e.name }, inFlight: undefined });
              }
            } else {
              const [id, k] = pick;
              const target: Record<string, unknown> | "deleted" =
                roll < 0.75
                  ? k.kind === "volume"
                    ? { size: (k.acked as { size: number }).size + 1 }
                    : { workersMax: 1 + Math.floor(random() * 5) }
                  : "deleted";
              k.inFlight = target;
              if (target === "deleted") {
                await (k.kind === "volume" ? client.networkVolumes.delete(id) : client.endpoints.delete(id));
              } else if (k.kind === "volume") {
                await client.networkVolumes.update(id, target as { size: number }, {
                  currentSize: (k.acked as { size: number }).size,
                });
              } else {
                await client.endpoints.update(id, target);
              }
              k.acked = target === "deleted" ? "deleted" : { ...(k.acked as object), ...target };
              k.inFlight = undefined;
            }
            acked++;
          } catch {
            return; // the emulator was killed under this write: it stays in flight
          }
        }
      };
      let running = WRITERS;
      const writers = Array.from({ length: WRITERS }, (_, w) => writer(w).finally(() => running--));
      while (acked < killAfter && running > 0) await new Promise((r) => setTimeout(r, 1));
      const failedEarly = running < WRITERS;
      await new Promise((r) => setTimeout(r, delayMs));
      child.kill("SIGKILL");
      stop = true;
      await Promise.all(writers);
      await exited(child);
      await client.close();
      expect(failedEarly, withSeed(SEED, `round ${round}: a writer failed before the kill`)).toBe(false);
      log.push(
        `round ${round}: killed after ${acked} acknowledged writes (+${delayMs} ms), ${known.size} resources known`,
      );
    }
    console.log(
      `resilience/emulator-kill: seed=${SEED} kills=${ROUNDS} acknowledgedWrites=${acked} resources=${known.size} lost=0 [${log.join("; ")}]`,
    );
  });
});
