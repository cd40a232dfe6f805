import * as fs from "node:fs";
import * as path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { REPO_ROOT } from "../../scripts/pulumi-cli";
import { apiUrlOf, createE2EStack, type E2EApiVersion, type E2EStack } from "./harness";

/**
 * Stacks carry over (docs/api-versions.md): a stack deployed through one management API version shows no
 * changes in `pulumi preview` once `runpod:apiUrl` names the other, and again after `pulumi
 * refresh`; ids, outputs and secrets stay as they are; nothing is replaced, and an unchanged
 * preview sends no request. The whole deployment (registry credential, template, volume,
 * endpoint) and two pods (GPU on the volume, CPU), both ways, each stack switched and then
 * switched back. The emulator's v2 lists page 2 items at a time, and the account holds resources of
 * each kind made before the stack's, so every resource of the stack sits past the first page of its
 * list: refresh reads them through every page and keeps them all.
 */

type Resource = { urn: string; type: string; id?: string; outputs?: Record<string, unknown> };

/** The engine's marker of a secret value in an exported state. */
const SECRET_SIG = "4dabf18193072939515e22adb298388d";

/**
 * A value with every secret opened (`{sig, plaintext}` becomes `{secret: value}`): a refresh may
 * store a secret map whose members were secrets of their own as one secret map, the same values.
 */
function opened(value: unknown, inSecret = false): unknown {
  if (Array.isArray(value)) return value.map((v) => opened(v, inSecret));
  if (value === null || typeof value !== "object") return value;
  const record = value as Record<string, unknown>;
  if (SECRET_SIG in record) {
    const inner = opened(JSON.parse(String(record.plaintext)), true);
    return inSecret ? inner : { secret: inner };
  }
  return Object.fromEntries(Object.entries(record).map(([k, v]) => [k, opened(v, inSecret)]));
}

/** Each runpod resource's id and outputs, secrets decrypted (`stack export --show-secrets`). */
async function resourcesOf(e: E2EStack): Promise<Record<string, { id?: string; outputs?: Record<string, unknown> }>> {
  const exported = await e.cli(["stack", "export", "--show-secrets"]);
  expect(exported.code, exported.stderr).toBe(0);
  const resources = (JSON.parse(exported.stdout).deployment.resources as Resource[]).filter((r) =>
    r.type.includes("dynamic/runpod"),
  );
  return Object.fromEntries(
    resources.map((r) => [r.urn, { id: r.id, outputs: comparable(opened(r.outputs) as Record<string, unknown>) }]),
  );
}

/**
 * Outputs as both versions can tell them: a pod's `publicIp` only where it exposes a port, which
 * is the one place v2 answers an address (v1 also names the machine's address of a pod exposing
 * none: docs/api-versions.md).
 */
function comparable(outputs: Record<string, unknown>): Record<string, unknown> {
  if (!("publicIp" in outputs) || outputs.portMappings !== undefined) return outputs;
  const { publicIp: _unreachable, ...rest } = outputs;
  return rest;
}

/** v2's page size here: small, so the stack's resources sit on later pages. */
const PAGE_SIZE = 2;

/** Resources of each kind made outside the stack, before it: they fill the first page of each list. */
async function othersFirst(e: E2EStack): Promise<void> {
  const c = e.client;
  for (let i = 0; i < PAGE_SIZE; i++) {
    await c.networkVolumes.create({ name: `not-ours-${i}`, size: 10, dataCenterId: "EU-RO-1" });
    await c.containerRegistryAuth.create({ name: `not-ours-${i}`, username: "bot", password: "not-real" });
    const template = await c.templates.create({ name: `not-ours-${i}`, imageName: "img:1", isServerless: true });
    await c.endpoints.create({ name: `not-ours-${i}`, templateId: template.id, gpuTypeIds: ["NVIDIA L4"] });
    await c.pods.create({
      name: `not-ours-${i}`,
      imageName: "ubuntu:24.04",
      computeType: "CPU",
      cpuFlavorIds: ["cpu3m"],
    });
  }
}

/** The ids on the first page of a v2 list (`/pods`), as the platform pages it. */
async function firstPageIds(e: E2EStack, list: string): Promise<string[]> {
  const res = await fetch(`${e.emulator.apiUrlV2}${list}`, { headers: { authorization: `Bearer ${e.apiKey}` } });
  const body = (await res.json()) as Record<string, unknown> & { pagination: { hasNextPage: boolean } };
  expect(body.pagination.hasNextPage, list).toBe(true);
  const key = Object.keys(body).find((k) => k !== "pagination")!;
  return (body[key] as { id: string }[]).map((item) => item.id);
}

/** Where the preview a version switch shows is saved (docs/api-versions.md quotes it). */
const PREVIEW_OUTPUT = path.join(REPO_ROOT, ".e2e-work", "migration-preview.txt");

function describeMigration(from: E2EApiVersion, to: E2EApiVersion): void {
  describe(`a stack deployed through ${from}, switched to ${to} and back`, { timeout: 300_000 }, () => {
    let e: E2EStack;
    let deployed: Awaited<ReturnType<typeof resourcesOf>>;

    beforeAll(async () => {
      e = await createE2EStack(
        "migration",
        {},
        { label: `migrate-${from}`, apiVersion: from, emulator: { pageSize: PAGE_SIZE } },
      );
      await othersFirst(e);
    }, 300_000);
    afterAll(async () => e?.dispose());

    /** Previews through `version`: no change, no request; returns what the engine printed. */
    async function unchangedPreview(version: E2EApiVersion): Promise<string> {
      let printed = "";
      const before = await e.requestCount();
      const preview = await e.stack.preview({ diff: true, onOutput: (s) => (printed += s) });
      expect(preview.changeSummary, `${version}: ${printed}`).toEqual({ same: 7 });
      expect(await e.requestCount(), `requests of an unchanged preview through ${version}`).toBe(before);
      return printed;
    }

    it(`deploys the whole deployment through ${from}`, async () => {
      const up = await e.stack.up();
      expect(up.summary.resourceChanges).toEqual({ create: 7 });
      deployed = await resourcesOf(e);
      expect(Object.keys(deployed)).toHaveLength(6);
      const stackIds = new Set(Object.values(deployed).map((r) => r.id));
      for (const list of ["/network-volumes", "/registries", "/templates", "/serverless", "/pods"]) {
        expect(
          (await firstPageIds(e, list)).filter((id) => stackIds.has(id)),
          list,
        ).toEqual([]);
      }
      expect(await unchangedPreview(from)).toContain("7 unchanged");
    });

    it(`previews no change once runpod:apiUrl names ${to}, sending nothing, and again after a refresh`, async () => {
      await e.stack.setConfig("runpod:apiUrl", { value: apiUrlOf(e.emulator, to) });
      const printed = await unchangedPreview(to);
      if (from === "v1") {
        fs.mkdirSync(path.dirname(PREVIEW_OUTPUT), { recursive: true });
        fs.writeFileSync(PREVIEW_OUTPUT, printed);
      }
      // A refresh runs the providers as the last update recorded them: an up that changes nothing
      // records the new URL, and the refresh after it reads through it.
      const up = await e.stack.up();
      expect(up.summary.resourceChanges).toEqual({ same: 7 });
      await e.takeRequestCounts();
      const refresh = await e.stack.refresh();
      expect(refresh.summary.resourceChanges).toEqual({ same: 7 });
      expect(managementVersions(await e.takeRequestCounts())).toEqual([to]);
      await unchangedPreview(to);
      // Same ids, same outputs (secrets included), nothing replaced.
      expect(await resourcesOf(e)).toEqual(deployed);
      // The endpoint still runs jobs at the same address.
      const endpointId = Object.values(deployed).find((r) => typeof r.outputs?.healthUrl === "string")?.id as string;
      const job = await e.client.jobs(endpointId).runSync({ input: { through: to } }, { wait: 30_000 });
      expect(job).toMatchObject({ status: "COMPLETED", output: { through: to } });
    });

    it(`switches back to ${from} the same way`, async () => {
      await e.stack.setConfig("runpod:apiUrl", { value: apiUrlOf(e.emulator, from) });
      await unchangedPreview(from);
      expect((await e.stack.up()).summary.resourceChanges).toEqual({ same: 7 });
      await e.takeRequestCounts();
      const refresh = await e.stack.refresh();
      expect(refresh.summary.resourceChanges).toEqual({ same: 7 });
      expect(managementVersions(await e.takeRequestCounts())).toEqual([from]);
      await unchangedPreview(from);
      expect(await resourcesOf(e)).toEqual(deployed);
      const destroy = await e.stack.destroy();
      expect(destroy.summary.resourceChanges).toEqual({ delete: 7 });
    });
  });
}

/** The management API versions of the routes in `counts` (`GET /v2/pods` is v2's; `/v1/...` v1's). */
function managementVersions(counts: Record<string, number>): string[] {
  return [...new Set(Object.keys(counts).map((route) => /^\w+ \/(v[12])\//.exec(route)?.[1] ?? route))].sort();
}

describeMigration("v1", "v2");
describeMigration("v2", "v1");
