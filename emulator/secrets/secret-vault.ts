import type { WorkerBoot } from "../jobs/worker-pool";
import type { Collection } from "../records/collection";
import type { SecretBox } from "./secret-box";
import { resolveEnvSecrets, type FoundSecret, type SecretResolution } from "./secret-env";
import type { SecretRecord } from "./secret-record";

/**
 * One account's secrets as containers use them: found by name, opened with the emulator's key,
 * resolved into a starting container's env. The records stay sealed; a value is opened only for
 * a container that starts (or a job whose env came to name the secret later).
 */
export class SecretVault {
  constructor(
    private readonly records: Collection<SecretRecord>,
    /** Seals and opens the values (secret-box.ts). */
    readonly box: SecretBox,
  ) {}

  /** The secret named `name`, opened, or undefined when the account has none by that name. */
  find(name: string): FoundSecret | undefined {
    for (const r of this.records.values()) {
      if (r.name === name)
        return { value: this.box.open(r.sealedValue, r.id), valueLastUpdatedAt: r.valueLastUpdatedAt };
    }
    return undefined;
  }

  /** What a container starting now with `env` gets of the account's secrets (secret-env.ts). */
  resolve(env: Readonly<Record<string, string>> | undefined): SecretResolution {
    return resolveEnvSecrets(env, (name) => this.find(name));
  }

  /** The same, as a serverless worker's start (worker-pool.ts). */
  bootWorker(env: Readonly<Record<string, string>> | undefined): WorkerBoot {
    const resolved = this.resolve(env);
    return resolved.ok ? { secrets: resolved.secrets, lines: resolved.lines } : { failure: resolved.problem };
  }

  /** Opens every stored value once: a state file sealed under another key fails the start, naming the key file. */
  assertReadable(): void {
    for (const r of this.records.values()) this.box.open(r.sealedValue, r.id);
  }
}
