import { execFile } from "node:child_process";
import { randomBytes } from "node:crypto";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { runProvideScript } from "../../scripts/pulumi-cli";
import { freePort } from "./free-port";

/**
 * A private PostgreSQL cluster for Pulumi's postgres:// backend (docs/teams.md): `initdb` into a temp
 * directory, the server on a free loopback port (TCP on 127.0.0.1 only, its Unix socket in the
 * same directory), password authentication with a random password, stopped and removed by
 * `stop()`. The binaries come from scripts/provide-postgres.sh (the test setup provides them, as
 * it does the Pulumi CLI). PostgreSQL refuses to run as root, so as root the cluster runs as the
 * `postgres` user Debian's package creates.
 */

/** A running cluster. */
export interface PostgresCluster {
  port: number;
  /** The superuser's password (random); it appears in `url()`, which tests keep out of every output. */
  password: string;
  /** Creates a database (name: lowercase letters, digits and `_`). */
  createDatabase(name: string): Promise<void>;
  /** A `postgres://` URL of `database` for `pulumi login`, with the password. */
  url(database: string): string;
  /** `pg_dump` of `database` as SQL text. */
  dump(database: string): Promise<string>;
  /** Runs SQL in `database` with psql (stopping at the first error); resolves to its output. */
  sql(database: string, statement: string): Promise<string>;
  /** Stops the server at once (`-m immediate`) and removes its directory. */
  stop(): Promise<void>;
}

const USER = "pulumi";

function run(file: string, args: string[], env: Record<string, string> = {}): Promise<string> {
  return new Promise((resolve, reject) => {
    execFile(file, args, { env: { ...process.env, ...env }, maxBuffer: 256 << 20 }, (err, stdout, stderr) => {
      if (err) reject(new Error(`${path.basename(file)} ${args.join(" ")} failed: ${err.message}\n${stderr}`));
      else resolve(stdout);
    });
  });
}

/** The user the server runs as: this process's, or `postgres` when this process is root. */
function serverUser(): { asUser: (file: string, args: string[]) => [string, string[]]; uid?: number; gid?: number } {
  if (process.getuid?.() !== 0) return { asUser: (file, args) => [file, args] };
  const entry = fs
    .readFileSync("/etc/passwd", "utf8")
    .split("\n")
    .map((line) => line.split(":"))
    .find((fields) => fields[0] === "postgres");
  if (!entry) {
    throw new Error(
      "PostgreSQL refuses to run as root and there is no `postgres` user to run it as: install Debian's postgresql package (bash scripts/provide-postgres.sh)",
    );
  }
  return {
    asUser: (file, args) => ["runuser", ["-u", "postgres", "--", file, ...args]],
    uid: Number(entry[2]),
    gid: Number(entry[3]),
  };
}

/** Starts a private cluster; the caller must `stop()` it. */
export async function startPostgres(): Promise<PostgresCluster> {
  const bin = await runProvideScript("provide-postgres.sh");
  const user = serverUser();
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "runpod-postgres-"));
  const password = randomBytes(18).toString("base64url");
  const passwordFile = path.join(dir, "password");
  fs.writeFileSync(passwordFile, password, { mode: 0o600 });
  if (user.uid !== undefined && user.gid !== undefined) {
    fs.chownSync(dir, user.uid, user.gid);
    fs.chownSync(passwordFile, user.uid, user.gid);
  }
  const data = path.join(dir, "data");
  const as = (tool: string, args: string[]) => run(...user.asUser(path.join(bin, tool), args));
  try {
    await as("initdb", [
      ...["-D", data, "-U", USER, "--pwfile", passwordFile, "--auth", "scram-sha-256"],
      ...["-E", "UTF8", "--no-sync", "--no-instructions"],
    ]);
  } finally {
    fs.rmSync(passwordFile, { force: true });
  }
  // A port taken between the pick and the bind fails the start: pick again.
  let port = 0;
  for (let attempt = 1; ; attempt++) {
    port = await freePort();
    // fsync off: a test database need not survive a power cut, and the suite runs faster.
    const options = `-p ${port} -h 127.0.0.1 -k ${dir} -c fsync=off -c full_page_writes=off`;
    try {
      await as("pg_ctl", ["-D", data, "-l", path.join(dir, "server.log"), "-w", "-t", "60", "-o", options, "start"]);
      break;
    } catch (error) {
      if (attempt === 3) {
        const log = fs.readFileSync(path.join(dir, "server.log"), "utf8").slice(-2000);
        fs.rmSync(dir, { recursive: true, force: true });
        throw new Error(`${(error as Error).message}\nserver log:\n${log}`);
      }
    }
  }
  const client = ["-h", "127.0.0.1", "-p", String(port), "-U", USER];
  const clientEnv = { PGPASSWORD: password, PGCONNECT_TIMEOUT: "10" };
  return {
    port,
    password,
    async createDatabase(name) {
      if (!/^[a-z0-9_]+$/.test(name)) throw new Error(`database name ${name}: only a-z, 0-9 and _`);
      await run(path.join(bin, "createdb"), [...client, name], clientEnv);
    },
    url: (database) =>
      `postgres://${USER}:${encodeURIComponent(password)}@127.0.0.1:${port}/${database}?sslmode=disable`,
    dump: (database) => run(path.join(bin, "pg_dump"), [...client, "--no-owner", database], clientEnv),
    sql: (database, statement) =>
      run(
        path.join(bin, "psql"),
        [...client, "-X", "-q", "-v", "ON_ERROR_STOP=1", "-At", "-c", statement, database],
        clientEnv,
      ),
    async stop() {
      try {
        await as("pg_ctl", ["-D", data, "-m", "immediate", "-w", "stop"]);
      } finally {
        fs.rmSync(dir, { recursive: true, force: true });
      }
    },
  };
}
