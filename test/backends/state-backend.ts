import { randomBytes } from "node:crypto";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { startPostgres } from "./postgres-cluster";
import { startSeaweedfs } from "./seaweedfs-server";

/**
 * The state backends the suite runs the engine on (docs/teams.md): a file backend in a temp
 * directory, a private PostgreSQL cluster, and a private S3-compatible server (SeaweedFS). Each is
 * started for one test file and stopped after it; `storedText` hands the secret searches every
 * byte the backend keeps, decoded where the backend encodes it.
 */

/** Which backend. */
export type BackendKind = "file" | "postgres" | "s3";

/** The shared (team) backends, each run through the same scenarios as the file backend. */
export const SHARED_BACKENDS: readonly BackendKind[] = ["postgres", "s3"];

/** An open backend. */
export interface StateBackend {
  kind: BackendKind;
  /** The URL `pulumi login` takes, credentials included (PostgreSQL: its password). */
  url: string;
  /** What every engine run needs besides the URL (S3: the key pair). */
  env: Record<string, string>;
  /** The backend's own credentials: they must never appear in anything printed. */
  credentials: string[];
  /** The file backend's directory (undefined for the others). */
  dir: string | undefined;
  /**
   * Everything the backend stores, as text: a file backend's files; a `pg_dump` of the database
   * plus each stored value decoded (the engine keeps every file base64-encoded in a JSON column,
   * so a plaintext secret would not show in the dump itself); every object of the S3 bucket.
   */
  storedText(): Promise<string>;
  /**
   * Rewrites every stack lock the backend holds to name `host`, as if a runner on another
   * machine had taken it (its run then cannot be proven dead from here); resolves to how many.
   * The test's stand-in for a CI runner killed elsewhere: nothing else writes a backend behind the
   * engine's back.
   */
  moveLocksToHost(host: string): Promise<number>;
  close(): Promise<void>;
}

/** A lock's JSON (pkg/backend/diy/lock.go: pid, username, hostname, timestamp) naming `host`. */
function relabel(lock: string, host: string): string {
  return JSON.stringify({ ...(JSON.parse(lock) as Record<string, unknown>), hostname: host });
}

const isLock = (key: string) => /(^|\/)\.pulumi\/locks\/.*\.json$/.test(key);

/** Opens a backend of `kind`; the caller must `close()` it. */
export async function openStateBackend(kind: BackendKind): Promise<StateBackend> {
  if (kind === "file") return fileBackend();
  if (kind === "postgres") return postgresBackend();
  return s3Backend();
}

function fileBackend(): StateBackend {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "runpod-file-backend-"));
  return {
    kind: "file",
    url: `file://${dir}`,
    env: {},
    credentials: [],
    dir,
    storedText: async () =>
      filesUnder(dir)
        .map((f) => `${f}\n${fs.readFileSync(f, "utf8")}`)
        .join("\n"),
    async moveLocksToHost(host) {
      const locks = filesUnder(dir).filter(isLock);
      for (const file of locks) fs.writeFileSync(file, relabel(fs.readFileSync(file, "utf8"), host));
      return locks.length;
    },
    close: async () => fs.rmSync(dir, { recursive: true, force: true }),
  };
}

async function postgresBackend(): Promise<StateBackend> {
  const cluster = await startPostgres();
  const database = "pulumi_state";
  await cluster.createDatabase(database);
  return {
    kind: "postgres",
    url: cluster.url(database),
    env: {},
    credentials: [cluster.password],
    dir: undefined,
    async storedText() {
      const dump = await cluster.dump(database);
      const decoded = [...dump.matchAll(/"data"\s*:\s*"([A-Za-z0-9+/=\\n]*)"/g)].map(([, b64]) =>
        Buffer.from((b64 as string).replace(/\\n/g, ""), "base64").toString("utf8"),
      );
      if (decoded.length === 0) throw new Error("the dump holds no stored value: is this the engine's table?");
      return `${dump}\n${decoded.join("\n")}`;
    },
    async moveLocksToHost(host) {
      // The engine's table (postgres/schema.sql): key TEXT, data JSON {"data": "<base64 of the file>"}.
      const rows = await cluster.sql(
        database,
        "UPDATE pulumi_state SET data = json_build_object('data', translate(encode(convert_to(" +
          `regexp_replace(convert_from(decode(data->>'data', 'base64'), 'UTF8'), '"hostname":"[^"]*"', '"hostname":"${host}"'), ` +
          "'UTF8'), 'base64'), E'\\n', '')) WHERE key LIKE '%/.pulumi/locks/%' RETURNING key",
      );
      return rows.split("\n").filter((l) => l.trim() !== "").length;
    },
    close: () => cluster.stop(),
  };
}

async function s3Backend(): Promise<StateBackend> {
  const server = await startSeaweedfs();
  const bucket = "pulumi-state";
  await server.createBucket(bucket);
  // Made-up keys (the gateway accepts any): random, so a search for them means something.
  const env = {
    AWS_ACCESS_KEY_ID: `AKIA${randomBytes(8).toString("hex").toUpperCase()}`,
    AWS_SECRET_ACCESS_KEY: randomBytes(24).toString("base64url"),
  };
  const query = `endpoint=${server.s3Endpoint}&s3ForcePathStyle=true&disableSSL=true&region=us-east-1`;
  return {
    kind: "s3",
    url: `s3://${bucket}?${query}`,
    env,
    credentials: [env.AWS_ACCESS_KEY_ID, env.AWS_SECRET_ACCESS_KEY],
    dir: undefined,
    async storedText() {
      const objects = await server.objects(bucket);
      if (objects.length === 0) throw new Error(`bucket ${bucket} holds no object`);
      return objects.map((o) => `${o.key}\n${o.body.toString("utf8")}`).join("\n");
    },
    async moveLocksToHost(host) {
      const locks = (await server.objects(bucket)).filter((o) => isLock(o.key));
      for (const o of locks) await server.putObject(bucket, o.key, Buffer.from(relabel(o.body.toString("utf8"), host)));
      return locks.length;
    },
    close: () => server.stop(),
  };
}

/** Every file under `dir`, recursively. */
export function filesUnder(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((d) => {
    const p = path.join(dir, d.name);
    return d.isDirectory() ? filesUnder(p) : [p];
  });
}
