import { ENDPOINT_DEFAULTS, type Endpoint, type NetworkVolume } from "../../sdk/schemas";
import { type AccountStats, emptyStats, resetStats } from "../admin/stats";
import type { Scheduler } from "../clock/scheduler";
import type { CompiledFaultRule } from "../faults/fault-rules";
import type { Template } from "../handlers/handler-types";
import type { TemplateRegistry } from "../handlers/template-registry";
import { EndpointRuntime, type RuntimeServices, type RuntimeSettings } from "../jobs/endpoint-runtime";
import { WebhookSender } from "../jobs/webhooks";
import type { RateBucket } from "../limits/rate-limiter";
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
 * endpoints and jobs): management records, job runtimes, fault rules, counters.
 */
export class Account {
  readonly volumes = new Map<string, NetworkVolume>();
  readonly endpoints = new Map<string, Endpoint>();
  readonly stats: AccountStats = emptyStats();
  readonly rateBuckets = new Map<string, RateBucket>();
  faults: readonly CompiledFaultRule[];
  private readonly runtimes = new Map<string, EndpointRuntime>();
  private readonly webhooks: WebhookSender;
  private readonly services: RuntimeServices;

  constructor(
    readonly userId: string,
    private readonly deps: AccountDeps,
  ) {
    this.faults = deps.defaultFaults;
    this.webhooks = new WebhookSender(deps.scheduler, this.stats.webhooks, deps.webhookTimeoutMs);
    this.services = {
      scheduler: deps.scheduler,
      template: (id) => deps.templates.get(id) ?? deps.models.get(id),
      webhooks: this.webhooks,
      newJobId,
      newWorkerId,
    };
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

  /** `POST /_emulator/reset`: forgets volumes, endpoints, jobs, counters and runtime fault rules. */
  reset(): void {
    for (const runtime of this.runtimes.values()) runtime.dispose();
    this.runtimes.clear();
    this.volumes.clear();
    this.endpoints.clear();
    this.rateBuckets.clear();
    this.faults = this.deps.defaultFaults;
    resetStats(this.stats);
  }

  /** Stops every runtime and webhook delivery. */
  dispose(): void {
    for (const runtime of this.runtimes.values()) runtime.dispose();
    this.webhooks.dispose();
  }
}
