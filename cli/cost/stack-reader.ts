import { execFile } from "node:child_process";
import { redactText } from "../recover/backend-url";
import { CostUsageError } from "./cost-args";

/*
 * What `cost` reads through the engine, in the project directory: the stack's resources
 * (`pulumi stack export`), the config of their provider (`runpod:*` for the dynamic resources,
 * `runpod-iac:*` for the provider plugin's; the secret key decrypted by the engine, as a
 * `pulumi up` would) and its tags (for the cost ceiling's `byStackTag`).
 */

/** The kinds of resource the billing API bills. */
export type BilledType = "Pod" | "ServerlessEndpoint" | "NetworkVolume";
const BILLED: readonly string[] = ["Pod", "ServerlessEndpoint", "NetworkVolume"];
/**
 * The stack config namespace of each provider, by the prefix of its type tokens: the dynamic
 * resources read `runpod:*`, the provider plugin (`runpod-iac/plugin`, other languages)
 * `runpod-iac:*`. The dynamic resources' first: a stack holding both is one moving to the plugin.
 */
const PROVIDERS = [
  { prefix: "pulumi-nodejs:dynamic/runpod:", namespace: "runpod" },
  { prefix: "runpod-iac:index:", namespace: "runpod-iac" },
] as const;
/** A stack config namespace a provider of this package reads: `runpod` or `runpod-iac`. */
export type ConfigNamespace = (typeof PROVIDERS)[number]["namespace"];
const TYPE_PREFIXES = PROVIDERS.map((p) => p.prefix);

/** One of the stack's billed resources. */
export interface StackResource {
  type: BilledType;
  /** The logical name (the last part of its URN). */
  name: string;
  /** The platform's id. */
  id: string;
}

/** The stack's settings, from its providers' config (the key decrypted). */
export interface StackSettingsRead {
  apiKey?: string | undefined;
  apiUrl?: string | undefined;
}

/** The billed resources of a `pulumi stack export` document, in the engine's order. */
export function billedResources(exported: unknown): StackResource[] {
  const resources = (exported as { deployment?: { resources?: unknown[] } }).deployment?.resources ?? [];
  const out: StackResource[] = [];
  for (const r of resources as { type?: string; urn?: string; id?: string; delete?: boolean }[]) {
    const prefix = TYPE_PREFIXES.find((p) => r.type?.startsWith(p));
    const type = prefix !== undefined ? r.type!.slice(prefix.length) : undefined;
    if (type === undefined || !BILLED.includes(type) || !r.id || r.delete === true || !r.urn) continue;
    out.push({ type: type as BilledType, name: r.urn.slice(r.urn.lastIndexOf("::") + 2), id: r.id });
  }
  return out;
}

/**
 * The config namespaces of the providers that serve the stack's resources (any type, billed or
 * not), the dynamic resources' first; both when the stack holds none of either.
 */
export function configNamespaces(exported: unknown): ConfigNamespace[] {
  const resources = (exported as { deployment?: { resources?: { type?: string }[] } }).deployment?.resources ?? [];
  const used = PROVIDERS.filter((p) => resources.some((r) => r.type?.startsWith(p.prefix)));
  return (used.length > 0 ? used : PROVIDERS).map((p) => p.namespace);
}

/** Runs `pulumi` in the project directory; output redacted of `secrets`. */
export class StackReader {
  private readonly secrets: string[];
  /** The config namespaces of the stack's providers, once {@link resources} has read them. */
  private namespaces: ConfigNamespace[] | undefined;

  constructor(
    private readonly pulumi: string,
    private readonly cwd: string,
    private readonly stack: string,
    secrets: readonly string[],
  ) {
    this.secrets = secrets.filter((s) => s.length >= 4);
  }

  /** The billed resources of the stack; a missing stack is a usage error with the engine's words. */
  async resources(): Promise<StackResource[]> {
    const exported = await this.json(["stack", "export"], "read the stack's resources");
    this.namespaces = configNamespaces(exported);
    return billedResources(exported);
  }

  /**
   * The API key (decrypted) and URL the stack's resources use, when set in its config: each from
   * the config of the stack's providers ({@link configNamespaces}; `runpod:apiKey`, then
   * `runpod-iac:apiKey`, as far as the stack holds resources of each), read after {@link resources}.
   */
  async settings(): Promise<StackSettingsRead> {
    const config = (await this.json(["config", "--json"], "read the stack's config")) as Record<
      string,
      { value?: string; secret?: boolean }
    >;
    const plain = (key: string) => {
      const v = config[key];
      return v && !v.secret && typeof v.value === "string" && v.value !== "" ? v.value : undefined;
    };
    const namespaces = this.namespaces ?? PROVIDERS.map((p) => p.namespace);
    // The first namespace that sets the key, secret or not: the engine decrypts a secret one.
    const keyName = namespaces.map((ns) => `${ns}:apiKey`).find((k) => plain(k) !== undefined || config[k]?.secret);
    let apiKey = keyName === undefined ? undefined : plain(keyName);
    if (keyName !== undefined && apiKey === undefined) {
      apiKey = (await this.run(["config", "get", keyName], `decrypt ${keyName}`)).trim();
      if (apiKey) this.secrets.push(apiKey);
    }
    const apiUrl = namespaces.map((ns) => plain(`${ns}:apiUrl`)).find((v) => v !== undefined);
    return { apiKey: apiKey || undefined, apiUrl };
  }

  /** The stack's tags, by name. */
  async tags(): Promise<Map<string, string>> {
    const tags = (await this.json(["stack", "tag", "ls", "--json"], "read the stack's tags")) as Record<string, string>;
    return new Map(Object.entries(tags ?? {}));
  }

  /** Redacts what this run knows to be secret. */
  redact(text: string): string {
    return redactText(text, this.secrets);
  }

  private async json(args: string[], what: string): Promise<unknown> {
    const out = await this.run(args, what);
    try {
      return JSON.parse(out);
    } catch {
      throw new Error(`could not ${what}: pulumi ${args.join(" ")} printed no JSON`);
    }
  }

  private run(args: string[], what: string): Promise<string> {
    const argv = [...args, "--stack", this.stack, "--non-interactive"];
    return new Promise((resolve, reject) => {
      execFile(
        this.pulumi,
        argv,
        { cwd: this.cwd, env: { ...process.env, PULUMI_SKIP_UPDATE_CHECK: "true" }, maxBuffer: 256 << 20 },
        (error, stdout, stderr) => {
          if (!error) return resolve(stdout);
          const code = (error as NodeJS.ErrnoException).code;
          if (code === "ENOENT")
            return reject(new CostUsageError(`could not run ${this.pulumi}: not found (give --pulumi PATH)`));
          const said = String(stderr || stdout || error.message).trim();
          // Told apart on the engine's own words: masking first could cut a secret out of them.
          const missing = /no stack named|stack .* not found|could not find stack/i.test(said);
          const words = this.redact(said).split("\n").slice(-3).join(" ");
          const message = missing
            ? `--stack ${this.stack}: no such stack in this project's backend (${words})`
            : `could not ${what} (pulumi ${args.join(" ")} failed: ${words})`;
          reject(missing ? new CostUsageError(message) : new Error(message));
        },
      );
    });
  }
}
