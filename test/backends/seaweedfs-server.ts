import { type ChildProcess, spawn } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { runProvideScript } from "../../scripts/pulumi-cli";
import { freePorts } from "./free-port";

/**
 * A private SeaweedFS (`weed server -s3`) for Pulumi's s3:// backend (docs/teams.md): master, volume
 * server, filer and S3 gateway in one process, every port (HTTP and gRPC) set to a free loopback
 * one, data in a temp directory. Without an identity configuration its S3 gateway accepts any
 * request, signed with any key pair or unsigned, so the engine logs in with made-up AWS keys and
 * the tests list and read the bucket with plain HTTP. The binary comes from
 * scripts/provide-seaweedfs.sh (built once from the Go module proxy, then cached).
 */

/** A running server. */
export interface SeaweedServer {
  /** The S3 gateway's `host:port`. */
  s3Endpoint: string;
  /** Creates a bucket (`PUT /<bucket>`). */
  createBucket(bucket: string): Promise<void>;
  /** Every object of `bucket`: key and body. */
  objects(bucket: string): Promise<{ key: string; body: Buffer }[]>;
  /** Writes an object (`PUT /<bucket>/<key>`). */
  putObject(bucket: string, key: string, body: Buffer): Promise<void>;
  /** Stops the server at once and removes its data. */
  stop(): Promise<void>;
}

/** The longest wait for the gateway to answer: a busy 2-core machine starts it in about 3 s. */
const READY_MS = 60_000;

/** Starts a server; the caller must `stop()` it. */
export async function startSeaweedfs(): Promise<SeaweedServer> {
  const bin = path.join(await runProvideScript("provide-seaweedfs.sh"), "weed");
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "runpod-seaweedfs-"));
  const [master, masterGrpc, volume, volumeGrpc, filer, filerGrpc, s3, s3Grpc] = await freePorts(8);
  const args = [
    "server",
    `-dir=${dir}`,
    "-ip=127.0.0.1",
    "-ip.bind=127.0.0.1",
    `-master.port=${master}`,
    `-master.port.grpc=${masterGrpc}`,
    // Small volumes: the default 30 GB limit is for real disks.
    "-master.volumeSizeLimitMB=64",
    `-volume.port=${volume}`,
    `-volume.port.grpc=${volumeGrpc}`,
    // Stop at once: the default waits 10 s for the master to notice.
    "-volume.preStopSeconds=0",
    "-filer",
    `-filer.port=${filer}`,
    `-filer.port.grpc=${filerGrpc}`,
    "-s3",
    `-s3.port=${s3}`,
    `-s3.port.grpc=${s3Grpc}`,
    // The gateway's Iceberg and Lance catalogs would take fixed ports (8181, 9101); not needed.
    "-s3.port.iceberg=0",
    "-s3.port.lance=0",
  ];
  const log = fs.openSync(path.join(dir, "server.log"), "a");
  const child = spawn(bin, args, { stdio: ["ignore", log, log], detached: true });
  fs.closeSync(log);
  const base = `http://127.0.0.1:${s3}`;
  const stop = () => stopServer(child, dir);
  try {
    await waitReady(base, child, dir);
  } catch (error) {
    await stop();
    throw error;
  }
  return {
    s3Endpoint: `127.0.0.1:${s3}`,
    async createBucket(bucket) {
      // The gateway answers before the filer behind it is ready; a 5xx until then.
      const deadline = Date.now() + READY_MS;
      for (;;) {
        const res = await fetch(`${base}/${bucket}`, { method: "PUT" });
        if (res.status === 200) return;
        if (res.status < 500 || Date.now() > deadline) {
          throw new Error(`PUT /${bucket}: ${res.status} ${await res.text()}\n${serverLog(dir)}`);
        }
        await new Promise((r) => setTimeout(r, 200));
      }
    },
    async objects(bucket) {
      const found: { key: string; body: Buffer }[] = [];
      let token: string | undefined;
      do {
        const query = `list-type=2${token ? `&continuation-token=${encodeURIComponent(token)}` : ""}`;
        const listing = await (await fetch(`${base}/${bucket}?${query}`)).text();
        for (const [, key] of listing.matchAll(/<Key>([^<]*)<\/Key>/g)) {
          const name = decodeXml(key as string);
          const res = await fetch(`${base}/${bucket}/${name.split("/").map(encodeURIComponent).join("/")}`);
          if (res.status !== 200) throw new Error(`GET /${bucket}/${name}: ${res.status}`);
          found.push({ key: name, body: Buffer.from(await res.arrayBuffer()) });
        }
        token = /<NextContinuationToken>([^<]*)</.exec(listing)?.[1];
      } while (token);
      return found;
    },
    async putObject(bucket, key, body) {
      const res = await fetch(`${base}/${bucket}/${key.split("/").map(encodeURIComponent).join("/")}`, {
        method: "PUT",
        body,
      });
      if (res.status !== 200) throw new Error(`PUT /${bucket}/${key}: ${res.status} ${await res.text()}`);
    },
    stop,
  };
}

function decodeXml(text: string): string {
  return text.replace(
    /&(lt|gt|amp|quot|apos);/g,
    (_, e: string) => ({ lt: "<", gt: ">", amp: "&", quot: '"', apos: "'" })[e] ?? "",
  );
}

/** Waits until the S3 gateway answers a request (any status but a connection error). */
async function waitReady(base: string, child: ChildProcess, dir: string): Promise<void> {
  const deadline = Date.now() + READY_MS;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`weed server exited (${child.exitCode}):\n${serverLog(dir)}`);
    try {
      const res = await fetch(`${base}/`, { signal: AbortSignal.timeout(2_000) });
      if (res.status < 500) return;
    } catch {
      // Not listening yet.
    }
    if (Date.now() > deadline)
      throw new Error(`weed server's S3 gateway did not answer in ${READY_MS} ms:\n${serverLog(dir)}`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

function serverLog(dir: string): string {
  try {
    return fs.readFileSync(path.join(dir, "server.log"), "utf8").slice(-3000);
  } catch {
    return "(no log)";
  }
}

/**
 * SIGKILL, not SIGTERM: a clean stop takes weed 15-30 s (it drains and deregisters), and its data
 * is thrown away anyway.
 */
async function stopServer(child: ChildProcess, dir: string): Promise<void> {
  if (child.exitCode === null && child.signalCode === null && child.pid !== undefined) {
    const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
    try {
      process.kill(-child.pid, "SIGKILL");
    } catch {
      // Already gone.
    }
    await exited;
  }
  fs.rmSync(dir, { recursive: true, force: true });
}
