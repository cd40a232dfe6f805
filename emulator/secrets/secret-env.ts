import { SECRET_PLACEHOLDER, secretNamesIn, secretReference } from "../../sdk/schemas/v2";

/*
 * What starting a container does with the `{{ RUNPOD_SECRET_<name> }}` placeholders of its env
 * (pods, serverless workers; the env from a template, an endpoint or a pod alike): each names an
 * account secret whose value the container gets in its place. The records keep the placeholders
 * (the API shows them, never a value); only the running container's env holds values. Pure.
 */

/** A secret as a container start finds it. */
export interface FoundSecret {
  /** Its value, opened. */
  value: string;
  /** When the value was last set (RFC 3339), for the log line that says which value a container got. */
  valueLastUpdatedAt: string;
}

/** Finds the account's secret named `name`, or undefined. */
export type SecretLookup = (name: string) => FoundSecret | undefined;

/** What a container start makes of its env's placeholders. */
export type SecretResolution =
  | {
      ok: true;
      /** Each secret the env refers to, by name: what the container keeps until it stops. */
      secrets: Map<string, string>;
      /** One line per secret used, for the log: the env keys and when the value was set, never the value. */
      lines: string[];
    }
  | {
      ok: false;
      /** Why the container cannot start: each placeholder that names no secret, with its env key. */
      problem: string;
    };

/**
 * Resolves every placeholder of `env` with `lookup`. A placeholder naming no secret leaves the
 * container unable to start: the problem names the env key and the placeholder (never a value).
 */
export function resolveEnvSecrets(
  env: Readonly<Record<string, string>> | undefined,
  lookup: SecretLookup,
): SecretResolution {
  const secrets = new Map<string, string>();
  const usedBy = new Map<string, { keys: string[]; setAt: string }>();
  const missing: string[] = [];
  for (const [key, text] of Object.entries(env ?? {})) {
    for (const name of secretNamesIn(text)) {
      const found = lookup(name);
      if (!found) {
        missing.push(
          `env ${key} holds ${secretReference(name)}, but the account has no secret named ${JSON.stringify(name)}`,
        );
        continue;
      }
      secrets.set(name, found.value);
      const use = usedBy.get(name) ?? { keys: [], setAt: found.valueLastUpdatedAt };
      use.keys.push(key);
      usedBy.set(name, use);
    }
  }
  if (missing.length > 0) return { ok: false, problem: missing.join("; ") };
  const lines = [...usedBy].map(
    ([name, use]) => `env ${use.keys.join(", ")} gets secret ${JSON.stringify(name)} (value set ${use.setAt})`,
  );
  return { ok: true, secrets, lines };
}

/**
 * `env` as the container sees it: each placeholder replaced by the value of `secrets` (what the
 * container got when it started), else of `later` (a secret the env came to name after the
 * start, as a new release's env may); a placeholder found in neither stays as written.
 */
export function substituteSecrets(
  env: Readonly<Record<string, string>>,
  secrets: ReadonlyMap<string, string>,
  later: (name: string) => string | undefined = () => undefined,
): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [key, text] of Object.entries(env)) {
    out[key] = text.includes("{{")
      ? text.replace(SECRET_PLACEHOLDER, (whole, name: string) => secrets.get(name) ?? later(name) ?? whole)
      : text;
  }
  return out;
}
