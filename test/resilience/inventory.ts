import type { RunningEmulator } from "../../emulator";
import { v1ViewOf } from "../../emulator/endpoints/endpoint-v1-view";
import { renderVolumeV1 } from "../../emulator/volumes/volume-record";
import type { StateExport } from "./engine-harness";

/** A paid resource the platform holds. */
export interface PlatformResource {
  kind: "volume" | "endpoint";
  id: string;
  name: string;
  /** What the provider's lookup matches besides the name: a volume's data center, an endpoint's compute type. */
  place: string;
}

/** What the emulator holds for an account, read in-process (no request, so no fault can touch it). */
export function platformInventory(emulator: RunningEmulator, apiKey: string): PlatformResource[] {
  const account = emulator.store.accountForKey(apiKey);
  if (!account) throw new Error("no account for this key");
  return [
    ...[...account.networkVolumes.values()].map((v) => ({
      kind: "volume" as const,
      id: v.id,
      name: v.name,
      place: v.dataCenter,
    })),
    ...[...account.endpoints.values()].map((e) => ({
      kind: "endpoint" as const,
      id: e.id,
      name: e.name ?? e.id,
      place: e.cpu !== undefined ? "CPU" : "GPU",
    })),
  ];
}

/** Ids of the runpod resources Pulumi's state records, and its pending operations. */
export function stateInventory(state: StateExport): { ids: string[]; pending: string[] } {
  const ids = (state.deployment.resources ?? [])
    .filter((r) => r.type.includes("dynamic/runpod:") && r.id)
    .map((r) => r.id as string);
  const pending = (state.deployment.pending_operations ?? []).map((op) => `${op.type} ${op.resource.urn}`);
  return { ids, pending };
}

/** How the platform and Pulumi's state compare. Everything but the counts must be empty. */
export interface Reconciliation {
  platform: number;
  state: number;
  /** On the platform, not in state: paid for and forgotten. */
  orphans: string[];
  /** In state, not on the platform. */
  missing: string[];
  /** Extra copies of one auto-named resource (same kind, name and place). */
  duplicates: string[];
  /** Ids recorded twice in state. */
  doubleRecorded: string[];
}

/** Compares the platform's inventory with the state's. */
export function reconcile(platform: PlatformResource[], state: StateExport): Reconciliation {
  const { ids } = stateInventory(state);
  const inState = new Set(ids);
  const onPlatform = new Set(platform.map((r) => r.id));
  const copies = new Map<string, number>();
  for (const r of platform) {
    const key = `${r.kind} ${r.name} ${r.place}`;
    copies.set(key, (copies.get(key) ?? 0) + 1);
  }
  return {
    platform: platform.length,
    state: ids.length,
    orphans: platform.filter((r) => !inState.has(r.id)).map((r) => `${r.kind} ${r.name} (${r.id})`),
    missing: ids.filter((id) => !onPlatform.has(id)),
    duplicates: [...copies].filter(([, n]) => n > 1).map(([key, n]) => `${key} x${n}`),
    doubleRecorded: ids.filter((id, i) => ids.indexOf(id) !== i),
  };
}

/** Fault and request counters of an account, read in-process. */
export function accountCounters(emulator: RunningEmulator, apiKey: string) {
  const account = emulator.store.accountForKey(apiKey);
  if (!account) throw new Error("no account for this key");
  const { faults, requests, byRoute, rateLimited, peakInFlight, managementQuotaRefused } = account.stats;
  return {
    faults: { ...faults },
    requests,
    byRoute: Object.fromEntries(byRoute),
    rateLimited,
    peakInFlight,
    quotaRefused: managementQuotaRefused,
  };
}

/**
 * Resources whose recorded outputs differ from what the platform holds (every output but `url`,
 * which the platform does not store): the "platform changed, state did not" of a killed update.
 */
export function drift(emulator: RunningEmulator, apiKey: string, state: StateExport): string[] {
  const account = emulator.store.accountForKey(apiKey);
  if (!account) throw new Error("no account for this key");
  const found: string[] = [];
  for (const r of state.deployment.resources ?? []) {
    if (!r.type.includes("dynamic/runpod:") || !r.id) continue;
    // Each record as v1 names it (v2's own fields, such as a volume's tier, under their names too).
    const volume = account.networkVolumes.get(r.id);
    const endpoint = account.endpoints.get(r.id);
    const record = (volume ? { ...renderVolumeV1(volume), type: volume.type } : endpoint && v1ViewOf(endpoint)) as
      Record<string, unknown> | undefined;
    if (!record) continue; // missing, reported by reconcile
    for (const [k, v] of Object.entries(r.outputs ?? {})) {
      // Addresses are derived, not recorded. A record written through management API v2 holds
      // v2's fields (GPU pools, the template's settings copied, a list of volumes) where v1's
      // names are absent: those outputs are what the provider keeps from state on v2, and the
      // end-to-end tests check that a refresh leaves them unchanged. Compared here: every output
      // the platform records under the same name.
      if (k === "url" || k === "healthUrl" || k.startsWith("__") || record[k] === undefined) continue;
      if (JSON.stringify(record[k]) !== JSON.stringify(v)) {
        found.push(`${r.id} ${k}: state ${JSON.stringify(v)}, platform ${JSON.stringify(record[k])}`);
      }
    }
  }
  return found;
}
