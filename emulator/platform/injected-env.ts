import { randomBytes } from "node:crypto";

/*
 * Env the platform injects into containers (OpenAPI v2 `CreateTemplateRequest` and
 * `CreatePodRequest`, `startSsh` and `startJupyter`): `PUBLIC_KEY`, the account's registered SSH
 * keys (none registered: nothing), and a generated `JUPYTER_PASSWORD`, each "unless the env already
 * sets one". One function for every resource that injects (templates here; pods use it too), so
 * they inject alike.
 */

/** The create-time switches that make the platform inject env. */
export interface InjectionSwitches {
  startSsh?: boolean | undefined;
  startJupyter?: boolean | undefined;
}

/** A generated Jupyter password: 24 URL-safe characters (144 random bits). */
export function generateJupyterPassword(): string {
  return randomBytes(18).toString("base64url");
}

/**
 * `env` with what the switches inject added (never over a value `env` sets): `PUBLIC_KEY` holds the
 * registered keys one per line, as an authorized_keys file would. `password` generates the
 * Jupyter password (tests pass a fixed one).
 */
export function injectPlatformEnv(
  env: Readonly<Record<string, string>>,
  switches: InjectionSwitches,
  sshKeys: readonly string[],
  password: () => string = generateJupyterPassword,
): Record<string, string> {
  const out = { ...env };
  if (switches.startSsh && sshKeys.length > 0 && out.PUBLIC_KEY === undefined) out.PUBLIC_KEY = sshKeys.join("\n");
  if (switches.startJupyter && out.JUPYTER_PASSWORD === undefined) out.JUPYTER_PASSWORD = password();
  return out;
}

/**
 * The switches a v2 update turns on (off before, on now): the platform provisions what they
 * inject from then on. A switch left on injects nothing again, and an env the update replaces
 * keeps only what the update sends.
 */
export function switchesTurnedOn(before: InjectionSwitches, after: InjectionSwitches): InjectionSwitches {
  return {
    startSsh: !before.startSsh && after.startSsh,
    startJupyter: !before.startJupyter && after.startJupyter,
  };
}
