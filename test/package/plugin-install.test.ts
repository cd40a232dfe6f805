import { type ChildProcess, execFileSync, spawn } from "node:child_process";
import fs from "node:fs";
import { createRequire } from "node:module";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { projectWithPackedPackage, REPO } from "./packed-package";

/**
 * `npx runpod-iac plugin install` from the packed package, installed in a user's project (its
 * dependencies linked in, as a package manager may lay them out): the plugin folder it writes
 * holds everything the plugin runs, so the plugin keeps serving once the project is gone, with no
 * `node` on PATH (it runs on the node that installed it).
 */

const fromPulumi = createRequire(require.resolve("@pulumi/pulumi"));
const grpc = fromPulumi("@grpc/grpc-js") as typeof import("@grpc/grpc-js");
const services = fromPulumi("./proto/provider_grpc_pb") as {
  ResourceProviderClient: new (address: string, credentials: unknown) => Record<string, (...a: unknown[]) => unknown>;
};
const pb = fromPulumi("./proto/provider_pb") as Record<string, new () => Record<string, (...a: unknown[]) => unknown>>;
const { Struct } = fromPulumi("google-protobuf/google/protobuf/struct_pb") as {
  Struct: { fromJavaScript(v: unknown): unknown };
};

/** Starts a plugin folder's launcher as the engine does; resolves to a client of its provider service. */
function startPlugin(folder: string, children: ChildProcess[]) {
  const child = spawn(path.join(folder, "pulumi-resource-runpod-iac"), ["127.0.0.1:1"], {
    stdio: ["ignore", "pipe", "pipe"],
    env: { PATH: "/usr/bin:/bin", HOME: os.tmpdir() },
  });
  children.push(child);
  return new Promise<(method: string, request: unknown) => Promise<Record<string, () => unknown>>>(
    (resolve, reject) => {
      let stderr = "";
      child.stderr!.on("data", (d) => (stderr += String(d)));
      child.on("exit", (code) => reject(new Error(`the plugin exited with ${code}: ${stderr}`)));
      child.stdout!.once("data", (d) => {
        const client = new services.ResourceProviderClient(
          `127.0.0.1:${String(d).trim()}`,
          grpc.credentials.createInsecure(),
        );
        resolve(
          (method, request) =>
            new Promise((ok, fail) =>
              client[method]!.call(client, request, (e: Error | null, v: never) => (e ? fail(e) : ok(v))),
            ),
        );
      });
    },
  );
}

describe("the provider plugin installed from the packed package", { timeout: 180_000 }, () => {
  let project: { dir: string };
  let home: string;
  let folder: string;
  const children: ChildProcess[] = [];

  beforeAll(() => {
    project = projectWithPackedPackage();
    home = fs.mkdtempSync(path.join(os.tmpdir(), "runpod-iac-plugin-home-"));
    const bin = path.join(project.dir, "node_modules", "runpod-iac", "dist", "cli", "main.js");
    const out = execFileSync(process.execPath, [bin, "plugin", "install"], {
      cwd: project.dir,
      env: { ...process.env, PULUMI_HOME: home },
      encoding: "utf8",
    });
    folder = path.join(
      home,
      "plugins",
      `resource-runpod-iac-v${JSON.parse(fs.readFileSync(path.join(REPO, "package.json"), "utf8")).version}`,
    );
    expect(out).toBe(`installed the runpod-iac provider plugin in ${folder}\n`);
    // The project it was installed from is gone.
    fs.rmSync(project.dir, { recursive: true, force: true });
  });
  afterAll(() => {
    for (const child of children) child.kill();
    if (home) fs.rmSync(home, { recursive: true, force: true });
  });

  it("is a folder of the plugin cache holding the launcher and real copies, no link out of it", () => {
    expect(fs.statSync(path.join(folder, "pulumi-resource-runpod-iac")).mode & 0o111).not.toBe(0);
    const links: string[] = [];
    const walk = (dir: string): void => {
      for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
        if (entry.isSymbolicLink()) links.push(path.join(dir, entry.name));
        else if (entry.isDirectory()) walk(path.join(dir, entry.name));
      }
    };
    walk(folder);
    expect(links).toEqual([]);
    expect(fs.readdirSync(path.dirname(folder))).toEqual([path.basename(folder)]);
  });

  it("serves its schema and runs the resources' checks once the project is gone, with no node on PATH", async () => {
    const call = await startPlugin(folder, children);
    const schema = (await call("getSchema", new pb.GetSchemaRequest!())).getSchema!() as string;
    expect(schema).toBe(fs.readFileSync(path.join(REPO, "plugin", "schema.json"), "utf8"));
    const configure = new pb.ConfigureRequest!();
    configure.setArgs!(Struct.fromJavaScript({ apiUrl: "http://127.0.0.1:1/v2" }));
    await call("configure", configure);
    const check = new pb.CheckRequest!();
    check.setUrn!("urn:pulumi:dev::proj::runpod-iac:index:NetworkVolume::models");
    check.setOlds!(Struct.fromJavaScript({ size: 30, dataCenterId: "EU-RO-1" }));
    check.setNews!(Struct.fromJavaScript({ size: 20, dataCenterId: "EU-RO-1" }));
    const failures = (await call("check", check)).getFailuresList!() as { getReason(): string }[];
    expect(failures.map((f) => f.getReason())).toEqual([
      "size can only grow: the volume has 30 GB and 20 GB was requested; network volumes cannot shrink",
    ]);
  });
});
