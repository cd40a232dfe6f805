/*
 * Env the platform injects into containers on management API v2: `PUBLIC_KEY` (the account's SSH keys, with
 * `startSsh`) and a generated `JUPYTER_PASSWORD` (with `startJupyter`), each unless the env already
 * sets one. The platform writes them into the env it answers, but the program never declared them:
 * read back as part of `env` they would be drift at every refresh, and an env update that sends
 * only the program's env would wipe them (the SSH key is gone, the Jupyter password changes). So
 * the provider keeps them apart, in the secret output `injectedEnv`, and sends them along with
 * every env it writes.
 */

/** The env names the platform injects, each with the switch that makes it do so. */
export const INJECTED_ENV_NAMES: Readonly<Record<string, "startSsh" | "startJupyter">> = {
  PUBLIC_KEY: "startSsh",
  JUPYTER_PASSWORD: "startJupyter",
};

type Env = Readonly<Record<string, string>>;

/**
 * The platform's env split into what the program declared (`declared`: its env, undefined when it
 * sets none) and what the platform injected: an injected name the program sets itself is the
 * program's, like any other.
 */
export function splitInjectedEnv(
  platformEnv: Env | undefined,
  declared: Env | undefined,
): { env: Record<string, string>; injected: Record<string, string> } {
  const env: Record<string, string> = {};
  const injected: Record<string, string> = {};
  for (const [name, value] of Object.entries(platformEnv ?? {})) {
    if (name in INJECTED_ENV_NAMES && !(declared !== undefined && name in declared)) injected[name] = value;
    else env[name] = value;
  }
  return { env, injected };
}

/** The env to send for the program's `env`: the injected values it does not set itself, then its own. */
export function withInjectedEnv(declared: Env, injected: Env | undefined): Record<string, string> {
  const kept = Object.entries(injected ?? {}).filter(([name]) => name in INJECTED_ENV_NAMES && !(name in declared));
  return { ...Object.fromEntries(kept), ...declared };
}
