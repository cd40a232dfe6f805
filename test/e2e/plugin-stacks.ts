import * as fs from "node:fs";
import * as path from "node:path";
import { expect } from "vitest";
import { REPO_ROOT } from "../../scripts/pulumi-cli";
import type { E2EStack } from "./harness";

/*
 * Helpers of the provider plugin's end-to-end tests (plugin.test.ts): the state as the engine
 * stores it, the import line of a program, a project file naming the plugin's folder.
 */

/** The engine's marker of a secret value in an exported state. */
export const SECRET_SIG = "4dabf18193072939515e22adb298388d";

/** One resource of `pulumi stack export`. */
export interface StateResource {
  urn: string;
  type: string;
  id?: string;
  inputs?: Record<string, unknown>;
  outputs?: Record<string, unknown>;
}

/**
 * The stack's state as `pulumi stack export` writes it (secrets as ciphertext), and its text;
 * with `openSecrets`, each secret as `{ secret: <value> }` (ciphertexts of one value differ from
 * write to write, their values do not).
 */
export async function exportedState(
  e: E2EStack,
  openSecrets = false,
): Promise<{ text: string; resources: StateResource[] }> {
  const exported = await e.cli(["stack", "export", ...(openSecrets ? ["--show-secrets"] : [])]);
  expect(exported.code, exported.stderr).toBe(0);
  const resources = (JSON.parse(exported.stdout) as { deployment: { resources: StateResource[] } }).deployment
    .resources;
  return { text: exported.stdout, resources: openSecrets ? (opened(resources) as StateResource[]) : resources };
}

/** A value with every secret opened (`{ <sig>, plaintext }` as `{ secret: value }`; a secret's members as plain values). */
function opened(value: unknown, inSecret = false): unknown {
  if (Array.isArray(value)) return value.map((v) => opened(v, inSecret));
  if (value === null || typeof value !== "object") return value;
  const record = value as Record<string, unknown>;
  if (SECRET_SIG in record && "plaintext" in record) {
    const inner = opened(JSON.parse(String(record.plaintext)), true);
    return inSecret ? inner : { secret: inner };
  }
  return Object.fromEntries(Object.entries(record).map(([k, v]) => [k, opened(v, inSecret)]));
}

/** Whether a state value is a secret (`{ <sig>: ..., ciphertext }`). */
export function isCiphertext(value: unknown): boolean {
  return typeof value === "object" && value !== null && SECRET_SIG in value && "ciphertext" in value;
}

/** The platform resources of a state (dynamic or plugin types), by logical name: id and outputs. */
export function platformResources(
  resources: readonly StateResource[],
): Record<string, { type: string; id?: string; outputs: Record<string, unknown> }> {
  return Object.fromEntries(
    resources
      .filter((r) => r.type.startsWith("runpod-iac:index:") || r.type.startsWith("pulumi-nodejs:dynamic/runpod:"))
      .map((r) => {
        // `__provider` is the dynamic provider's reference, which both keep; the rest is the resource.
        const { __provider: _, ...outputs } = r.outputs ?? {};
        return [r.urn.slice(r.urn.lastIndexOf("::") + 2), { type: r.type, id: r.id, outputs }];
      }),
  );
}

/** Rewrites a program's import line: `runpod-iac` (dynamic resources) or `runpod-iac/plugin` (the plugin's). */
export function importFrom(workDir: string, module: "runpod-iac" | "runpod-iac/plugin"): void {
  const file = path.join(workDir, "index.js");
  const text = fs.readFileSync(file, "utf8");
  const next = text.replace(/require\("runpod-iac(\/plugin)?"\)/, `require(${JSON.stringify(module)})`);
  expect(next).toContain(`require(${JSON.stringify(module)})`);
  fs.writeFileSync(file, next);
}

/**
 * Writes a project file: `name`, Node.js, `main`, and, with `pluginFolder`, the plugin named by
 * its folder in this repository (relative to the work dir, as a user's Pulumi.yaml would name
 * `node_modules/runpod-iac/plugin`).
 */
export function writeProject(workDir: string, name: string, main: string, pluginFolder: boolean): void {
  const plugins = pluginFolder
    ? `plugins:\n  providers:\n    - name: runpod-iac\n      path: ${path.relative(workDir, path.join(REPO_ROOT, "plugin"))}\n`
    : "";
  // A JavaScript program needs no ts-node and TypeScript loaded at every run.
  const runtime = main.endsWith(".js") ? "\n  name: nodejs\n  options:\n    typescript: false" : " nodejs";
  fs.writeFileSync(path.join(workDir, "Pulumi.yaml"), `name: ${name}\nruntime:${runtime}\nmain: ${main}\n${plugins}`);
}
