import { deriveSeed, seededRandom } from "../../sdk/seeded-random";
import { type AccountStats, emptyStats, resetStats } from "./account-stats";
import { volumeOpening } from "../billing/resource-usage";
import { UsageMeter } from "../billing/usage-meter";
import type { Capacity } from "../capacity/capacity";
import type { Scheduler } from "../clock/scheduler";
import type { CompiledFaultRule } from "../faults/fault-rules";
import type { Template } from "../handlers/handler-types";
import type { TemplateRegistry } from "../handlers/template-registry";
import type { EndpointRuntime } from "../jobs/endpoint-runtime";
import type { LoadBalancerRuntime } from "../jobs/load-balancer";
import type { Worker } from "../jobs/worker-pool";
import type { EndpointRecord } from "../endpoints/endpoint-record";
import type { TemplateRecord } from "../templates/template-record";
import { WebhookSender } from "../jobs/webhooks";
import type { PlatformCatalog } from "../platform/platform-catalog";
import { withTemplateRelease } from "../endpoints/endpoint-releases";
import { PodReservations } from "../pods/pod-reservations";
import type { QuotaCounts } from "../limits/management-quota";
import type { RateBucket } from "../limits/rate-limiter";
import { Collection, type CollectionHooks } from "../records/collection";
import { COLLECTION_NAMES, type CollectionName, type CollectionRecord, type Collections } from "./collections";
import { SSH_KEYS_ID } from "./ssh-keys-record";
import type { SecretBox } from "../secrets/secret-box";
import { SecretVault } from "../secrets/secret-vault";
import { EndpointRuntimes } from "./endpoint-runtimes";
import type { VolumeFiles } from "../s3/volume-files";

/** What every account shares. */
export interface AccountDeps {
  scheduler: Scheduler;
  templates: TemplateRegistry;
  /** Pre-deployed model endpoints, by model id. */
  models: ReadonlyMap<string, Template>;
  /** Fault rules a new (or reset) account starts with (the CLI's `--fault-*` flags). */
  defaultFaults: readonly CompiledFaultRule[];
  webhookTimeoutMs: number;
  /** Seed of the emulator's random choices; each account draws from its own stream of it. */
  seed: number;
  /** Saves every account's management state (the state file); resolves once it is on disk. */
  persist: () => Promise<void>;
  /** The machines every account's pods run on. */
  capacity: Capacity;
  /** What the platform sells, at which prices (billing). */
  catalog: PlatformCatalog;
  /** Seals and opens account secrets' values (one key for the emulator, never in the state file). */
  secretBox: SecretBox;
  /** How long (platform ms) a serverless worker takes to pull its image and boot (`--worker-boot-ms`). */
  workerBootMs: number;
  /** The network volumes' files (emulator/s3/): what workers see, deleted with their volume. */
  volumeFiles: VolumeFiles;
}

/**
 * One API key's world (each key is its own account and sees only its own volumes,
 * endpoints, templates, registry auths and jobs): management records, job runtimes, fault rules,
 * counters.
 */
export class Account implements Collections {
  readonly networkVolumes: Collections["networkVolumes"];
  readonly endpoints: Collections["endpoints"];
  readonly templates: Collections["templates"];
  readonly containerRegistryAuths: Collections["containerRegistryAuths"];
  readonly ecrDelegations: Collections["ecrDelegations"];
  readonly pods: Collections["pods"];
  readonly clusters: Collections["clusters"];
  readonly sshKeys: Collections["sshKeys"];
  readonly secrets: Collections["secrets"];
  readonly usage: Collections["usage"];
  /** The account's secrets as containers use them (`{{ RUNPOD_SECRET_<name> }}` in env values). */
  readonly vault: SecretVault;
  /** What the account is billed: spans of time at a rate (emulator/billing/). */
  readonly meter: UsageMeter;
  /** The GPUs and vCPUs the account's running pods hold. */
  readonly reservations: PodReservations;
  readonly stats: AccountStats = emptyStats();
  readonly rateBuckets = new Map<string, RateBucket>();
  /** The account's counts in each window of management API v2's quota. */
  readonly quotaCounts: QuotaCounts = [];
  faults: readonly CompiledFaultRule[] = [];
  /** The account's stream of fault decisions (see `EmulatorOptions.seed`). */
  random: () => number = Math.random;
  /** The job runtimes of its endpoints and of the models it calls. */
  private readonly runtimes: EndpointRuntimes;
  private readonly webhooks: WebhookSender;

  constructor(
    readonly userId: string,
    private readonly deps: AccountDeps,
  ) {
    const collection = <K extends CollectionName>(hooks?: CollectionHooks<CollectionRecord<K>>) =>
      new Collection<CollectionRecord<K>>(deps.persist, hooks);
    this.usage = collection<"usage">({ onPut: (record) => this.meter.observe(record) });
    this.meter = new UsageMeter(this.usage, () => deps.scheduler.clock.epochOrigin + deps.scheduler.now());
    this.reservations = new PodReservations(deps.capacity);
    // A volume is billed by the GB-hour from its creation to its deletion, at its size and tier.
    this.networkVolumes = collection<"networkVolumes">({
      onPut: (volume) => this.meter.open("networkVolume", volume.id, volumeOpening(volume), "stage"),
      onDelete: (id) => {
        this.meter.closeAll("networkVolume", id, "stage");
        void deps.volumeFiles.deleteVolume(userId, id);
      },
    });
    // An endpoint's job runtime follows its record: configured on every write, disposed on delete.
    this.endpoints = collection<"endpoints">({
      onPut: (endpoint) => this.runtimes.configure(endpoint),
      onDelete: (id) => this.disposeRuntime(id),
    });
    this.templates = collection<"templates">();
    this.containerRegistryAuths = collection<"containerRegistryAuths">();
    this.ecrDelegations = collection<"ecrDelegations">();
    // What a pod holds of the stock follows its record (also when the state file loads).
    this.pods = collection<"pods">({
      onPut: (pod) => this.reservations.sync(pod),
      onDelete: (id) => this.reservations.release(id),
    });
    this.clusters = collection<"clusters">();
    this.sshKeys = collection<"sshKeys">();
    this.secrets = collection<"secrets">();
    this.vault = new SecretVault(this.secrets, deps.secretBox);
    this.setFaults(deps.defaultFaults);
    this.webhooks = new WebhookSender(deps.scheduler, this.stats.webhooks, deps.webhookTimeoutMs);
    this.runtimes = new EndpointRuntimes({
      ...deps,
      endpoints: this.endpoints,
      ownTemplates: this.templates,
      vault: this.vault,
      meter: this.meter,
      webhooks: this.webhooks,
      userId,
    });
  }

  /** The environment an endpoint's workers run with (see {@link EndpointRuntimes.workerEnv}). */
  workerEnv(endpointId: string, secrets?: ReadonlyMap<string, string>): Readonly<Record<string, string>> | undefined {
    return this.runtimes.workerEnv(endpointId, secrets);
  }

  /**
   * A template changed: the endpoints linked to it (made through v1, holding no container settings
   * of their own) get a release of what changed, and roll onto it, as the platform rolls them.
   */
  async templateChanged(before: TemplateRecord, after: TemplateRecord, at: string): Promise<void> {
    for (const endpoint of this.endpointsUsingTemplate(after.id)) {
      if (endpoint.image !== undefined) continue;
      const next = withTemplateRelease(endpoint, before, after, at);
      if (next !== endpoint) await this.endpoints.put(next);
    }
  }

  /** The account's secrets changed: workers that could not start for want of one try again now. */
  secretsChanged(): void {
    this.runtimes.retryUnhealthy();
  }

  /**
   * Replaces the fault rules and restarts the account's random stream from its seed, so the same
   * rules over the same requests make the same choices however many requests came before.
   */
  setFaults(rules: readonly CompiledFaultRule[]): void {
    this.faults = rules;
    this.random = seededRandom(deriveSeed(this.deps.seed, this.userId));
  }

  /** The job runtime of an endpoint of this account, or of a pre-deployed model; undefined if neither. */
  runtime(endpointId: string): EndpointRuntime | undefined {
    return this.runtimes.runtime(endpointId);
  }

  /** What a worker of an endpoint with this `templateId` runs (see {@link EndpointRuntimes.handlerOf}). */
  handlerOf(templateId: string): Template | undefined {
    return this.runtimes.handlerOf(templateId);
  }

  /** The runtime of a load-balancing endpoint of this account, or undefined. */
  balancer(endpointId: string): LoadBalancerRuntime | undefined {
    return this.runtimes.balancer(endpointId);
  }

  /** The workers up now of an endpoint of either type (none for an unknown id). */
  workersOf(endpointId: string): Worker[] {
    return this.runtimes.workersOf(endpointId);
  }

  /** Endpoints whose workers run this template. */
  endpointsUsingTemplate(templateId: string): EndpointRecord[] {
    return [...this.endpoints.values()].filter((e) => e.templateId === templateId);
  }

  /** Templates that pull with this registry auth. */
  templatesUsingRegistryAuth(authId: string): TemplateRecord[] {
    return [...this.templates.values()].filter((t) => t.registry === authId);
  }

  /** Stops a deleted endpoint's jobs and workers and forgets its rate-limit counters. */
  private disposeRuntime(id: string): void {
    this.runtimes.dispose(id);
    for (const key of this.rateBuckets.keys()) if (key.startsWith(`${id}\u0000`)) this.rateBuckets.delete(key);
  }

  /** Runtimes with jobs or workers, by endpoint (or model) id. */
  allRuntimes(): ReadonlyMap<string, EndpointRuntime> {
    return this.runtimes.queueRuntimes();
  }

  /** Whether the account holds no management record at all. */
  isEmpty(): boolean {
    return COLLECTION_NAMES.every((name) => this[name].size === 0);
  }

  /**
   * `POST /_emulator/reset`: forgets every collection's records, jobs (pre-deployed models' too),
   * counters and runtime fault rules; resolves once the emptied account is persisted.
   */
  reset(): Promise<void> {
    for (const name of COLLECTION_NAMES) this[name].clear();
    this.runtimes.disposeAll();
    this.rateBuckets.clear();
    this.quotaCounts.length = 0;
    this.setFaults(this.deps.defaultFaults);
    resetStats(this.stats);
    return this.deps.persist();
  }

  /** Stops every runtime and webhook delivery. */
  dispose(): void {
    this.runtimes.disposeAll();
    this.webhooks.dispose();
  }

  /** The account's registered SSH public keys (`/v2/account/ssh-keys`), what `startSsh` injects as `PUBLIC_KEY`. */
  registeredSshKeys(): readonly string[] {
    return this.sshKeys.get(SSH_KEYS_ID)?.keys ?? [];
  }
}
