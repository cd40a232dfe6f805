import { workerOpening } from "../billing/resource-usage";
import type { UsageMeter } from "../billing/usage-meter";
import type { Scheduler } from "../clock/scheduler";
import { containerOf } from "../endpoints/endpoint-render";
import { type EndpointRecord, networkVolumesOf, scalerValueOf } from "../endpoints/endpoint-record";
import type { Template } from "../handlers/handler-types";
import type { TemplateRegistry } from "../handlers/template-registry";
import { EndpointRuntime } from "../jobs/endpoint-runtime";
import { LoadBalancerRuntime, type LoadBalancerSettings } from "../jobs/load-balancer";
import { type RuntimeServices, runtimeSettingsOf } from "../jobs/runtime-settings";
import type { WebhookSender } from "../jobs/webhooks";
import type { Worker, WorkerBoot } from "../jobs/worker-pool";
import type { PlatformCatalog } from "../platform/platform-catalog";
import type { RecordLookup } from "../records/collection";
import { newJobId, newWorkerId } from "../records/ids";
import { substituteSecrets } from "../secrets/secret-env";
import type { SecretVault } from "../secrets/secret-vault";
import type { TemplateRecord } from "../templates/template-record";
import type { VolumeFiles } from "../s3/volume-files";

/** What an account's endpoint runtimes use of the emulator and of the account. */
export interface EndpointRuntimeDeps {
  scheduler: Scheduler;
  templates: TemplateRegistry;
  /** Pre-deployed model endpoints, by model id. */
  models: ReadonlyMap<string, Template>;
  catalog: PlatformCatalog;
  /** How long (platform ms) a serverless worker takes to pull its image and boot. */
  workerBootMs: number;
  endpoints: RecordLookup<EndpointRecord>;
  ownTemplates: RecordLookup<TemplateRecord>;
  vault: SecretVault;
  meter: UsageMeter;
  webhooks: WebhookSender;
  /** The network volumes' files (emulator/s3/), where a worker finds its volume. */
  volumeFiles: VolumeFiles;
  /** The account's user id (whose volumes the workers mount). */
  userId: string;
}

/**
 * The job runtimes of an account's endpoints (and of the pre-deployed models it calls): queue-based
 * ones run jobs, load-balancing ones answer HTTP. Each follows its endpoint's record; a worker's
 * container is started with what the endpoint runs then (its handler and env, fixed for its life).
 */
export class EndpointRuntimes {
  private readonly runtimes = new Map<string, EndpointRuntime>();
  private readonly balancers = new Map<string, LoadBalancerRuntime>();
  private readonly services: RuntimeServices;

  constructor(private readonly deps: EndpointRuntimeDeps) {
    this.services = {
      scheduler: deps.scheduler,
      template: (id) => this.handlerOf(id),
      image: (name) => deps.templates.forImage(name),
      webhooks: deps.webhooks,
      newJobId,
      newWorkerId,
      env: (endpointId, secrets) => this.workerEnv(endpointId, secrets),
      bootWorker: (endpointId) => this.bootWorker(endpointId),
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
    const endpoint = this.deps.endpoints.get(endpointId);
    if (!endpoint) return undefined;
    const container = containerOf(endpoint, this.deps.ownTemplates.get(endpoint.templateId ?? "")).env;
    // The volume's files, where the platform mounts it at /runpod-volume (docs/emulator.md, "Volume files").
    const volumeId = networkVolumesOf(endpoint)[0];
    const env = volumeId
      ? { ...container, RUNPOD_VOLUME_PATH: this.deps.volumeFiles.pathOf(this.deps.userId, volumeId) }
      : container;
    return secrets ? substituteSecrets(env, secrets, (name) => this.deps.vault.find(name)?.value) : env;
  }

  /**
   * What a worker of an endpoint with this `templateId` runs: the handler its image names for the
   * account's own templates, else a built-in or handler-file template, else a pre-deployed model.
   */
  handlerOf(templateId: string): Template | undefined {
    const own = this.deps.ownTemplates.get(templateId);
    if (own) return this.deps.templates.forImage(own.image);
    return this.deps.templates.get(templateId) ?? this.deps.models.get(templateId);
  }

  /** The job runtime of an endpoint of the account, or of a pre-deployed model; undefined if neither. */
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

  /** The runtime of a load-balancing endpoint of the account, or undefined. */
  balancer(endpointId: string): LoadBalancerRuntime | undefined {
    return this.balancers.get(endpointId);
  }

  /** The workers up now of an endpoint of either type (none for an unknown id). */
  workersOf(endpointId: string): Worker[] {
    return (this.balancers.get(endpointId) ?? this.runtimes.get(endpointId))?.workers() ?? [];
  }

  /** Runtimes with jobs or workers, by endpoint (or model) id. */
  queueRuntimes(): ReadonlyMap<string, EndpointRuntime> {
    return this.runtimes;
  }

  /** Workers that could not start for want of a secret try again now. */
  retryUnhealthy(): void {
    for (const runtime of this.runtimes.values()) runtime.retryUnhealthyWorkers();
    for (const balancer of this.balancers.values()) balancer.retryUnhealthyWorkers();
  }

  /** (Re)configures the runtime of a stored endpoint record (its workersMin start; a new release rolls). */
  configure(endpoint: EndpointRecord): void {
    if (endpoint.type === "LOAD_BALANCER") return this.configureBalancer(endpoint);
    const settings = { ...runtimeSettingsOf(endpoint), bootMs: this.deps.workerBootMs };
    const runtime = this.runtimes.get(endpoint.id);
    if (runtime) runtime.configure(settings);
    else this.runtimes.set(endpoint.id, new EndpointRuntime(endpoint.id, settings, this.services));
  }

  /** Stops a deleted endpoint's jobs and workers. */
  dispose(id: string): void {
    this.balancers.get(id)?.dispose();
    this.balancers.delete(id);
    this.runtimes.get(id)?.dispose();
    this.runtimes.delete(id);
  }

  /** Stops every runtime (reset, emulator closing). */
  disposeAll(): void {
    for (const runtime of this.runtimes.values()) runtime.dispose();
    this.runtimes.clear();
    for (const balancer of this.balancers.values()) balancer.dispose();
    this.balancers.clear();
  }

  /** (Re)configures a load-balancing endpoint's workers. */
  private configureBalancer(endpoint: EndpointRecord): void {
    const base = runtimeSettingsOf(endpoint);
    const settings: LoadBalancerSettings = {
      ...base,
      bootMs: this.deps.workerBootMs,
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
          this.bootWorker(endpoint.id),
        ),
      );
  }

  /**
   * Starts a worker's container of an endpoint as it is configured now: what it runs (its image's
   * handler; a handler file that throws when loaded is a container that exits at start) and its
   * env with the secrets it names resolved, fixed for the worker's life; or why it cannot start.
   */
  private bootWorker(endpointId: string): WorkerBoot {
    const endpoint = this.deps.endpoints.get(endpointId);
    const linked = endpoint && this.deps.ownTemplates.get(endpoint.templateId ?? "");
    const template =
      endpoint &&
      (endpoint.image !== undefined
        ? this.deps.templates.forImage(endpoint.image)
        : this.handlerOf(endpoint.templateId ?? ""));
    if (template?.startError !== undefined) {
      return { failure: "its container exited at start (exit code 1)", output: [template.startError] };
    }
    const boot = this.deps.vault.bootWorker(this.workerEnv(endpointId));
    if (boot.secrets === undefined || !endpoint) return boot;
    const image = containerOf(endpoint, linked).image;
    return { ...boot, runs: { image, template, env: this.workerEnv(endpointId, boot.secrets) } };
  }

  /** A serverless worker of one of the account's endpoints is billed by the second while it is up. */
  private meterWorker(endpointId: string, workerId: string, event: "start" | "stop"): void {
    const endpoint = this.deps.endpoints.get(endpointId);
    if (event === "stop") return this.deps.meter.closeLive("serverless", endpointId, workerId);
    // Pre-deployed models are the platform's own endpoints: not billed here.
    if (!endpoint) return;
    const template = this.deps.ownTemplates.get(endpoint.templateId ?? "");
    const attributes = {
      templateId: endpoint.templateId,
      imageName: template?.image,
      dataCenterIds: endpoint.dataCenterIds,
    };
    this.deps.meter.openLive(
      "serverless",
      endpointId,
      workerOpening(endpoint, workerId, this.deps.catalog),
      attributes,
    );
  }
}
