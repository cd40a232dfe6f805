import {
  ENDPOINT_DEFAULTS,
  type Endpoint,
  type NetworkVolume,
  type Template as TemplateRecord,
} from "../../sdk/schemas";
import { deriveSeed, seededRandom } from "../../sdk/seeded-random";
import { type AccountStats, emptyStats, resetStats } from "../admin/stats";
import type { Scheduler } from "../clock/scheduler";
import type { CompiledFaultRule } from "../faults/fault-rules";
import type { Template } from "../handlers/handler-types";
import type { TemplateRegistry } from "../handlers/template-registry";
import { EndpointRuntime, type RuntimeServices, type RuntimeSettings } from "../jobs/endpoint-runtime";
import { WebhookSender } from "../jobs/webhooks";
import type { RateBucket } from "../limits/rate-limiter";
import type { RegistryAuthRecord } from "../management/registry-auth-record";
import { newJobId, newWorkerId } from "./ids";

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
}

/** How an endpoint record runs jobs (OpenAPI defaults where a field is absent; `idleTimeout` is in seconds). */
export function runtimeSettingsOf(endpoint: Endpoint): RuntimeSettings {
  return {
    workersMin: endpoint.workersMin ?? ENDPOINT_DEFAULTS.workersMin,
    workersMax: endpoint.workersMax ?? ENDPOINT_DEFAULTS.workersMax,
    idleTimeoutMs: (endpoint.idleTimeout ?? ENDPOINT_DEFAULTS.idleTimeout) * 1000,
    executionTimeoutMs: endpoint.executionTimeoutMs ?? ENDPOINT_DEFAULTS.executionTimeoutMs,
    templateId: endpoint.templateId ?? "",
  };
}

/**
 * One API key's world (issue: each key is its own account and sees only its own volumes,
 * endpoints, templates, registry auths and jobs): management records, job runtimes, fault rules,
 * counters.
 */
export class Account {
  readonly volumes = new Map<string, NetworkVolume>();
  readonly endpoints = new Map<string, Endpoint>();
  readonly templates = new Map<string, TemplateRecord>();
  readonly registryAuths = new Map<string, RegistryAuthRecord>();
  readonly stats: AccountStats = emptyStats();
  readonly rateBuckets = new Map<string, RateBucket>();
  faults: readonly CompiledFaultRule[] = [];
  /** The account's stream of fault decisions (see `EmulatorOptions.seed`). */
  random: () => number = Math.random;
  private readonly runtimes = new Map<string, EndpointRuntime>();
  private readonly webhooks: WebhookSender;
  private readonly services: RuntimeServices;

  constructor(
    readonly userId: string,
    private readonly deps: AccountDeps,
  ) {
    this.setFaults(deps.defaultFaults);
    this.webhooks = new WebhookSender(deps.scheduler, this.stats.webhooks, deps.webhookTimeoutMs);
    this.services = {
      scheduler: deps.scheduler,
      template: (id) => this.handlerOf(id),
      webhooks: this.webhooks,
      newJobId,
      newWorkerId,
    };
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
    if (own) return this.deps.templates.forImage(own.imageName);
    return this.deps.templates.get(templateId) ?? this.deps.models.get(templateId);
  }

  /** Endpoints whose workers run this template. */
  endpointsUsingTemplate(templateId: string): Endpoint[] {
    return [...this.endpoints.values()].filter((e) => e.templateId === templateId);
  }

  /** Templates that pull with this registry auth. */
  templatesUsingRegistryAuth(authId: string): TemplateRecord[] {
    return [...this.templates.values()].filter((t) => t.containerRegistryAuthId === authId);
  }

  /** Stores an endpoint record and (re)configures its runtime (workersMin start at once). */
  putEndpoint(endpoint: Endpoint): void {
    this.endpoints.set(endpoint.id, endpoint);
    const settings = runtimeSettingsOf(endpoint);
    const runtime = this.runtimes.get(endpoint.id);
    if (runtime) runtime.configure(settings);
    else this.runtimes.set(endpoint.id, new EndpointRuntime(endpoint.id, settings, this.services));
  }

  /** Deletes an endpoint with its jobs and workers. */
  deleteEndpoint(id: string): void {
    this.endpoints.delete(id);
    this.runtimes.get(id)?.dispose();
    this.runtimes.delete(id);
    for (const key of this.rateBuckets.keys()) if (key.startsWith(`${id}\u0000`)) this.rateBuckets.delete(key);
  }

  /** Runtimes with jobs or workers, by endpoint (or model) id. */
  allRuntimes(): ReadonlyMap<string, EndpointRuntime> {
    return this.runtimes;
  }

  /** `POST /_emulator/reset`: forgets volumes, endpoints, templates, registry auths, jobs, counters and runtime fault rules. */
  reset(): void {
    for (const runtime of this.runtimes.values()) runtime.dispose();
    this.runtimes.clear();
    this.volumes.clear();
    this.endpoints.clear();
    this.templates.clear();
    this.registryAuths.clear();
    this.rateBuckets.clear();
    this.setFaults(this.deps.defaultFaults);
    resetStats(this.stats);
  }

  /** Stops every runtime and webhook delivery. */
  dispose(): void {
    for (const runtime of this.runtimes.values()) runtime.dispose();
    this.webhooks.dispose();
  }
}
