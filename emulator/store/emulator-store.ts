import { createHash } from "node:crypto";
import { bearerKey } from "./auth";
import { Account, type AccountDeps } from "./account";
import { COLLECTION_NAMES, type SavedAccount } from "./collections";
import type { StateFile, StateFileData } from "./state-file";
import { STATE_FILE_VERSION } from "./state-migration";

/** The account id of an API key: a stable hash, so the state file never holds a key. */
export function userIdOf(apiKey: string): string {
  return `user_${createHash("sha256").update(apiKey).digest("hex").slice(0, 24)}`;
}

/** Every account of the emulator, found by API key. */
export class EmulatorStore {
  readonly accounts = new Map<string, Account>();
  private readonly byKey = new Map<string, Account>();
  /** Accepted `Authorization` header values, so the hot path does one lookup, no parsing. */
  private readonly byHeader = new Map<string, Account>();

  private readonly deps: AccountDeps;

  constructor(
    apiKeys: readonly string[],
    deps: Omit<AccountDeps, "persist">,
    private readonly stateFile: StateFile | undefined,
  ) {
    this.deps = { ...deps, persist: () => this.persist() };
    for (const key of apiKeys) this.byKey.set(key, this.account(userIdOf(key)));
  }

  /** The account of a bearer key, or undefined for an unknown key. */
  accountForKey(apiKey: string): Account | undefined {
    return this.byKey.get(apiKey);
  }

  /** The account of an `Authorization` header (`Bearer <key>`), or undefined. */
  accountForAuthorization(header: string | undefined): Account | undefined {
    if (header === undefined) return undefined;
    const cached = this.byHeader.get(header);
    if (cached) return cached;
    const key = bearerKey(header);
    const account = key === undefined ? undefined : this.byKey.get(key);
    if (account && this.byHeader.size < 1024) this.byHeader.set(header, account);
    return account;
  }

  /** Loads the state file, if any (accounts of keys not configured now are kept for later runs). */
  async load(): Promise<void> {
    const data = await this.stateFile?.load();
    if (!data) return;
    for (const [userId, saved] of Object.entries(data.accounts)) {
      const account = this.account(userId);
      for (const name of COLLECTION_NAMES) account[name].load(saved[name] as never);
    }
  }

  /**
   * Saves the management state (a no-op without a state file). Every collection write calls it
   * (collection.ts), so routes never do.
   */
  persist(): Promise<void> {
    return this.stateFile ? this.stateFile.save(() => this.snapshot()) : Promise.resolve();
  }

  /** Waits for pending state writes. */
  flush(): Promise<void> {
    return this.stateFile?.flush() ?? Promise.resolve();
  }

  /** Stops every account's runtimes and deliveries. */
  dispose(): void {
    for (const account of this.accounts.values()) account.dispose();
  }

  private snapshot(): StateFileData {
    const accounts: StateFileData["accounts"] = {};
    for (const [userId, a] of this.accounts) {
      if (!a.isEmpty()) accounts[userId] = snapshotOf(a);
    }
    return { version: STATE_FILE_VERSION, accounts };
  }

  private account(userId: string): Account {
    let account = this.accounts.get(userId);
    if (!account) {
      account = new Account(userId, this.deps);
      this.accounts.set(userId, account);
    }
    return account;
  }
}

/** Every collection of an account as arrays: its part of the state file. */
function snapshotOf(account: Account): SavedAccount {
  return Object.fromEntries(COLLECTION_NAMES.map((name) => [name, [...account[name].values()]])) as SavedAccount;
}
