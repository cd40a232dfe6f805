/**
 * The state backend a `recover` run works on, as its URL names it, and keeping that URL's
 * credentials out of everything `recover` prints. The Pulumi CLI itself prints a postgres:// URL
 * with its password when it cannot open the database (v3.259.0: `unable to open state database
 * "postgres://user:password@..."`), so every line of the engine's output that `recover` passes on
 * goes through `redactText` too.
 */

/** A mistake in how `recover` was called: printed with the usage, exit code 2. */
export class RecoverUsageError extends Error {}

/**
 * The backends the engine supports: its DIY backends (a storage bucket of gocloud.dev's URL mux:
 * `file`, `s3`, `gs`, `azblob`, and its own `postgres` bucket) and Pulumi Cloud (an `https://`
 * service URL such as `https://api.pulumi.com`).
 */
export type BackendKind = "file" | "postgres" | "s3" | "gs" | "azblob" | "cloud";

const DIY_SCHEMES: Record<string, BackendKind> = {
  file: "file",
  postgres: "postgres",
  s3: "s3",
  gs: "gs",
  azblob: "azblob",
};

/** The kind of backend `url` names; anything else is a usage error naming the scheme. */
export function classifyBackend(url: string): BackendKind {
  const scheme = /^([a-z][a-z0-9+.-]*):\/\//i.exec(url)?.[1]?.toLowerCase();
  if (scheme === "https" || scheme === "http") return "cloud";
  const kind = scheme !== undefined ? DIY_SCHEMES[scheme] : undefined;
  if (kind) return kind;
  throw new RecoverUsageError(
    `--backend: scheme ${scheme ?? "(none)"} is not a state backend Pulumi supports; ` +
      "use file://, postgres://, s3://, gs://, azblob:// or a Pulumi Cloud URL (https://)",
  );
}

/** Query parameters that carry a credential (a password, a SAS signature, a token, a key). */
const SECRET_PARAM = /pass|secret|token|sig|key|credential/i;

/** `url` with its password and credential-bearing query values replaced by `****`. */
export function redactUrl(url: string): string {
  const [head = "", query] = splitOnce(url, "?");
  const redactedHead = head.replace(/^([a-z][a-z0-9+.-]*:\/\/[^/@:]*):[^/@]*@/i, "$1:****@");
  if (query === undefined) return redactedHead;
  const params = query.split("&").map((pair) => {
    const [name = "", value] = splitOnce(pair, "=");
    return value !== undefined && SECRET_PARAM.test(name) ? `${name}=****` : pair;
  });
  return `${redactedHead}?${params.join("&")}`;
}

/** Environment variables whose values are credentials of a backend or of its secrets provider. */
const SECRET_ENV = [
  "PGPASSWORD",
  "AWS_ACCESS_KEY_ID",
  "AWS_SECRET_ACCESS_KEY",
  "AWS_SESSION_TOKEN",
  "AZURE_STORAGE_KEY",
  "AZURE_STORAGE_SAS_TOKEN",
  "AZURE_CLIENT_SECRET",
  "GOOGLE_CREDENTIALS",
  "PULUMI_ACCESS_TOKEN",
  "PULUMI_CONFIG_PASSPHRASE",
];

/**
 * Every credential `recover` knows of: the backend URL's password and secret query values (as
 * written and decoded) and the credential environment variables that are set. Values shorter
 * than 4 characters are left out: masking them would mangle ordinary text.
 */
export function knownSecrets(url: string, env: NodeJS.ProcessEnv = process.env): string[] {
  const found = new Set<string>();
  const add = (value: string | undefined) => {
    if (value === undefined || value.length < 4) return;
    found.add(value);
    try {
      found.add(decodeURIComponent(value));
    } catch {
      // Not percent-encoded: the raw value is enough.
    }
  };
  const [head = "", query] = splitOnce(url, "?");
  add(/^[a-z][a-z0-9+.-]*:\/\/[^/@:]*:([^/@]*)@/i.exec(head)?.[1]);
  for (const pair of query?.split("&") ?? []) {
    const [name = "", value] = splitOnce(pair, "=");
    if (SECRET_PARAM.test(name)) add(value);
  }
  for (const name of SECRET_ENV) add(env[name]);
  // Longest first, so a secret containing another is masked whole.
  return [...found].sort((a, b) => b.length - a.length);
}

/** `text` with every known secret, and the password of any URL in it, replaced by `****`. */
export function redactText(text: string, secrets: readonly string[]): string {
  let result = text;
  for (const secret of secrets) result = result.split(secret).join("****");
  return result.replace(/([a-z][a-z0-9+.-]*:\/\/[^\s/@:"']*):[^\s/@"']+@/gi, "$1:****@");
}

function splitOnce(text: string, separator: string): [string, string | undefined] {
  const at = text.indexOf(separator);
  return at < 0 ? [text, undefined] : [text.slice(0, at), text.slice(at + 1)];
}
