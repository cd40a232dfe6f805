import { existsSync } from "node:fs";
import { mkdtemp, readFile, rm } from "node:fs/promises";
import os from "node:os";
import * as path from "node:path";
import {
  CompleteMultipartUploadCommand,
  CreateMultipartUploadCommand,
  GetObjectCommand,
  ListObjectsV2Command,
  PutObjectCommand,
  UploadPartCommand,
} from "@aws-sdk/client-s3";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { RunningEmulator } from "../../../emulator";
import { type Client, startTestEmulator } from "./helpers";
import { createVolume, s3Failure, s3Of } from "./s3-helpers";

const HANDLERS = path.join(__dirname, "fixtures", "handlers");
let dir: string;

beforeAll(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), "volume-files-"));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

/** An endpoint whose workers run the `volume-read` handler with `volumeId` attached. */
async function readerEndpoint(api: Client, volumeId: string): Promise<string> {
  const t = await api.post("/v1/templates", {
    name: `t-${Math.random()}`,
    imageName: "ghcr.io/acme/volume-read:1",
    isServerless: true,
  });
  expect(t.status, JSON.stringify(t.body)).toBe(200);
  const e = await api.post("/v1/endpoints", {
    name: "reader",
    templateId: t.body.id,
    networkVolumeId: volumeId,
    workersMax: 1,
  });
  expect(e.status, JSON.stringify(e.body)).toBe(200);
  return e.body.id as string;
}

async function runSync(api: Client, endpointId: string, input: Record<string, unknown>): Promise<unknown> {
  const done = await api.post(`/v2/${endpointId}/runsync`, { input });
  expect(done.body.status, JSON.stringify(done.body)).toBe("COMPLETED");
  return done.body.output;
}

/** Waits (a few seconds at most) for a deleted volume's folder to go: its files are removed in the background. */
async function gone(folder: string): Promise<boolean> {
  for (let i = 0; i < 100 && existsSync(folder); i++) await new Promise((r) => setTimeout(r, 50));
  return !existsSync(folder);
}

describe("volume files on disk: what workers see, what persists, what a delete removes", () => {
  let emu: RunningEmulator;

  it("lets a worker of an endpoint with the volume read an uploaded file under RUNPOD_VOLUME_PATH", async () => {
    const stateFile = path.join(dir, "state.json");
    const started = await startTestEmulator({ stateFile, handlersDir: HANDLERS, timeScale: 1 });
    emu = started.emu;
    const volumeId = await createVolume(started.api);
    const s3 = s3Of(emu, "EU-RO-1");
    await s3.send(new PutObjectCommand({ Bucket: volumeId, Key: "models/config.json", Body: '{"layers":32}' }));
    const endpointId = await readerEndpoint(started.api, volumeId);
    expect(await runSync(started.api, endpointId, { path: "models/config.json" })).toEqual({ text: '{"layers":32}' });
    // The files live beside the state file, one folder per volume, never in the JSON.
    expect(emu.volumesDir).toBe(`${stateFile}.volumes`);
    expect(await readFile(stateFile, "utf8")).not.toContain("layers");
    // The platform's own folder of uploads in progress is there, as on a pod's /workspace; nothing else is.
    expect(await runSync(started.api, endpointId, { list: true })).toEqual({ names: [".s3compat_uploads", "models"] });
    await emu.close();
  });

  it("keeps the files, and a multipart upload's ETag, across a restart with the state file", async () => {
    const stateFile = path.join(dir, "restart.json");
    let started = await startTestEmulator({ stateFile, s3: { putObjectLimit: 100 } });
    const volumeId = await createVolume(started.api);
    let s3 = s3Of(started.emu, "EU-RO-1");
    await s3.send(new PutObjectCommand({ Bucket: volumeId, Key: "small.txt", Body: "kept" }));
    const { UploadId } = await s3.send(new CreateMultipartUploadCommand({ Bucket: volumeId, Key: "big.bin" }));
    const part = await s3.send(
      new UploadPartCommand({ Bucket: volumeId, Key: "big.bin", UploadId, PartNumber: 1, Body: Buffer.alloc(150, 1) }),
    );
    const done = await s3.send(
      new CompleteMultipartUploadCommand({
        Bucket: volumeId,
        Key: "big.bin",
        UploadId,
        MultipartUpload: { Parts: [{ PartNumber: 1, ETag: part.ETag }] },
      }),
    );
    await started.emu.close();

    started = await startTestEmulator({ stateFile, s3: { putObjectLimit: 100 } });
    emu = started.emu;
    s3 = s3Of(emu, "EU-RO-1");
    const got = await s3.send(new GetObjectCommand({ Bucket: volumeId, Key: "small.txt" }));
    expect(await got.Body!.transformToString()).toBe("kept");
    const listed = await s3.send(new ListObjectsV2Command({ Bucket: volumeId }));
    expect(listed.Contents?.map((o) => [o.Key, o.ETag])).toEqual([
      ["big.bin", done.ETag],
      ["small.txt", expect.any(String)],
    ]);

    // Deleting the volume deletes its files; a new volume never sees them.
    const folder = path.join(emu.volumesDir, ...(await volumeFolder(emu, volumeId)));
    expect(existsSync(path.join(folder, "small.txt"))).toBe(true);
    expect((await started.api.del(`/v1/networkvolumes/${volumeId}`)).status).toBe(204);
    expect(await gone(folder)).toBe(true);
    expect((await s3Failure(s3.send(new ListObjectsV2Command({ Bucket: volumeId })))).code).toBe("NoSuchBucket");
    await emu.close();
  });

  it("keeps the files of a run without a state file in a temporary folder, removed at close", async () => {
    const started = await startTestEmulator({});
    const volumeId = await createVolume(started.api);
    await s3Of(started.emu, "EU-RO-1").send(new PutObjectCommand({ Bucket: volumeId, Key: "t", Body: "x" }));
    expect(started.emu.volumesDir.startsWith(os.tmpdir())).toBe(true);
    expect(existsSync(started.emu.volumesDir)).toBe(true);
    await started.emu.close();
    expect(existsSync(started.emu.volumesDir)).toBe(false);
  });
});

/** `<user id>/<volume id>`: where a volume's folder is under the volumes' root. */
async function volumeFolder(emu: RunningEmulator, volumeId: string): Promise<string[]> {
  for (const account of emu.store.accounts.values()) {
    if (account.networkVolumes.has(volumeId)) return [account.userId, volumeId];
  }
  throw new Error(`no account holds volume ${volumeId}`);
}
