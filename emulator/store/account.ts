import { deriveSeed, seededRandom } from "../../sdk/seeded-random";
import { type AccountStats, emptyStats, resetStats } from "./account-stats";
import { volumeOpening, workerOpening } from "../billing/resource-usage";
import { UsageMeter } from "../billing/usage-meter";
import type { Capacity } from "../capacity/capacity";
import type { Scheduler } from "../clock/scheduler";
import type { CompiledFaultRule } from "../faults/fault-rules";
import type { Template } from "../handlers/handler-types";
import type { TemplateRegistry } from "../handlers/template-registry";
import { EndpointRuntime } from "../jobs/endpoint-runtime";
import { type RuntimeServices, runtimeSettingsOf } from "../jobs/runtime-settings";
import { LoadBalancerRuntime, type LoadBalancerSettings } from "../jobs/load-balancer";
import type { Worker } from "../jobs/worker-pool";
import { type EndpointRecord, networkVolumesOf, scalerValueOf } from "../endpoints/endpoint-record";
import type { TemplateRecord } from "../templates/template-record";
import { WebhookSender } from "../jobs/webhooks";
import type { PlatformCatalog } from "../platform/platform-catalog";
import { containerOf } from "../endpoints/endpoint-render";
import { PodReservations } from "../pods/pod-reservations";
import type { QuotaCounts } from "../limits/management-quota";
import type { RateBucket } from "../limits/rate-limiter";
import { Collection, type CollectionHooks } from "../records/collection";
import { COLLECTION_NAMES, type CollectionName, type CollectionRecord, type Collections } from "./collections";
import { newJobId, newWorkerId } from "../records/ids";
import { SSH_KEYS_ID } from "./ssh-keys-record";
import type { SecretBox } from "../secrets/secret-box";
import { substituteSecrets } from "../secrets/secret-env";
import { SecretVault } from "../secrets/secret-vault";
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
  private readonly runtimes = new Map<string, EndpointRuntime>();
  /** Load-balancing endpoints' runtimes (their workers answer HTTP, not jobs). */
  private readonly balancers = new Map<string, LoadBalancerRuntime>();
  private readonly webhooks: WebhookSender;
  private readonly services: RuntimeServices;

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
      onPut: (endpoint) => this.configureRuntime(endpoint),
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
    this.services = {
      scheduler: deps.scheduler,
      template: (id) => this.handlerOf(id),
      image: (name) => deps.templates.forImage(name),
      webhooks: this.webhooks,
      newJobId,
      newWorkerId,
      env: (endpointId, secrets) => this.workerEnv(endpointId, secrets),
      bootWorker: (endpointId) => this.vault.bootWorker(this.workerEnv(endpointId)),
      onWorker: (endpointId, workerId, event) => this.meterWorker(endpointId, workerId, event),
    };
  }

  /**
   * The environment an endpoint's workers run with: the endpoint's own env over its linked
   * template's (containerOf, what v2 shows), as the platform starts the container. With the
   * `secrets` a worker started with, its placeholders hold their values (a secret the env came to
   * name later: its current value). Undefined for an id that is no endpoint of the account (a
   * pre-deployed model).
   */
  workerEnv(endpointId: string, secrets?: ReadonlyMap<string, string>): Readonly<Record<string, string>> | undefined {
    const endpoint = this.endpoints.get(endpointId);
    if (!endpoint) return undefined;
    const container = containerOf(endpoint, this.templates.get(endpoint.templateId ?? "")).env;
    // The volume's files, where the platform mounts it at /runpod-volume (docs/emulator.md, "Volume files").
    const volumeId = networkVolumesOf(endpoint)[0];
    const env = volumeId
      ? { ...container, RUNPOD_VOLUME_PATH: this.deps.volumeFiles.pathOf(this.userId, volumeId) }
      : container;
    return secrets ? substituteSecrets(env, secrets, (name) => this.vault.find(name)?.value) : env;
  }

  /** The account's secrets changed: workers that could not start for want of one try again now. */
  secretsChanged(): void {
    for (const runtime of this.runtimes.values()) runtime.retryUnhealthyWorkers();
    for (const balancer of this.balancers.values()) balancer.retryUnhealthyWorkers();
  }

  /** A serverless worker of one of the account's endpoints is billed by the second while it is up. */
  private meterWorker(endpointId: string, workerId: string, event: "start" | "stop"): void {
    const endpoint = this.endpoints.get(endpointId);
    if (event === "stop") return this.meter.closeLive("serverless", endpointId, workerId);
    // Pre-deployed models are the platform's own endpoints: not billed here.
    if (!endpoint) return;
    const template = this.templates.get(endpoint.templateId ?? "");
    const attributes = {
      templateId: endpoint.templateId,
      imageName: template?.image,
      dataCenterIds: endpoint.dataCenterIds,
    };
    this.meter.openLive("serverless", endpointId, workerOpening(endpoint, workerId, this.deps.catalog), attributes);
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
    const existing = this.runtimes.get(endpointId);
    if (existing) return existing;
    if (!this.deps.models.has(endpointId)) return undefined;
    const runtime = new EndpointRuntime(
      endpointId,
      runtimeSettingsOf({ id: endpointId, templateId: endpointId }),
      this.services,
    );
    this.runtimes.set(endpointId, runtime);
    return runtime;
  }

  /**
   * What a worker of an endpoint with this `templateId` runs, looked up when each job starts (so
   * a template update changes what new jobs run): the handler its image names for the account's
   * own templates, else a built-in or handler-file template, else a pre-deployed model.
   */
  handlerOf(templateId: string): Template | undefined {
    const own = this.templates.get(templateId);
    if (own) return this.deps.templates.forImage(own.image);
    return this.deps.templates.get(templateId) ?? this.deps.models.get(templateId);
  }

  /** The runtime of a load-balancing endpoint of this account, or undefined. */
  balancer(endpointId: string): LoadBalancerRuntime | undefined {
    return this.balancers.get(endpointId);
  }

  /** The workers up now of an endpoint of either type (none for an unknown id). */
  workersOf(endpointId: string): Worker[] {
    return (this.balancers.get(endpointId) ?? this.runtimes.get(endpointId))?.workers() ?? [];
  }

  /** Endpoints whose workers run this template. */
  endpointsUsingTemplate(templateId: string): EndpointRecord[] {
    return [...this.endpoints.values()].filter((e) => e.templateId === templateId);
  }

  /** Templates that pull with this registry auth. */
  templatesUsingRegistryAuth(authId: string): TemplateRecord[] {
    return [...this.templates.values()].filter((t) => t.registry === authId);
  }

  /** (Re)configures the job runtime of a stored endpoint record (its workersMin start at once). */
  private configureRuntime(endpoint: EndpointRecord): void {
    if (endpoint.type === "LOAD_BALANCER") return this.configureBalancer(endpoint);
    const settings = runtimeSettingsOf(endpoint);
    const runtime = this.runtimes.get(endpoint.id);
    if (runtime) runtime.configure(settings);
    else this.runtimes.set(endpoint.id, new EndpointRuntime(endpoint.id, settings, this.services));
  }

  /** (Re)configures a load-balancing endpoint's workers; what they run is looked up per request. */
  private configureBalancer(endpoint: EndpointRecord): void {
    const base = runtimeSettingsOf(endpoint);
    const settings: LoadBalancerSettings = {
      ...base,
      requestCount: scalerValueOf(endpoint),
      env: (secrets) => this.workerEnv(endpoint.id, secrets) ?? {},
      handler: () =>
        base.image !== undefined ? this.deps.templates.forImage(base.image) : this.handlerOf(base.templateId),
    };
    const balancer = this.balancers.get(endpoint.id);
    if (balancer) balancer.configure(settings);
    else
      this.balancers.set(
        endpoint.id,
        new LoadBalancerRuntime(endpoint.id, settings, this.deps.scheduler, newWorkerId, () =>
          this.vault.bootWorker(this.workerEnv(endpoint.id)),
        ),
      );
  }

  /** Stops a deleted endpoint's jobs and workers and forgets its rate-limit counters. */
  private disposeRuntime(id: string): void {
    this.balancers.get(id)?.dispose();
    this.balancers.delete(id);
    this.runtimes.get(id)?.dispose();
    this.runtimes.delete(id);
    for (const key of this.rateBuckets.keys()) if (key.startsWith(`${id}\u0000`)) this.rateBuckets.delete(key);
  }

  /** Runtimes with jobs or workers, by endpoint (or model) id. */
  allRuntimes(): ReadonlyMap<string, EndpointRuntime> {
    return this.runtimes;
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
    for (const runtime of this.runtimes.values()) runtime.dispose();
    this.runtimes.clear();
    for (const balancer of this.balancers.values()) balancer.dispose();
    this.balancers.clear();
    this.rateBuckets.clear();
    this.quotaCounts.length = 0;
    this.setFaults(this.deps.defaultFaults);
    resetStats(this.stats);
    return this.deps.persist();
  }

  /** Stops every runtime and webhook delivery. */
  dispose(): void {
    for (const runtime of this.runtimes.values()) runtime.dispose();
    for (const balancer of this.balancers.values()) balancer.dispose();
    this.webhooks.dispose();
  }

  /** The account's registered SSH public keys (`/v2/account/ssh-keys`), what `startSsh` injects as `PUBLIC_KEY`. */
  registeredSshKeys(): readonly string[] {
    return this.sshKeys.get(SSH_KEYS_ID)?.keys ?? [];
  }
}
