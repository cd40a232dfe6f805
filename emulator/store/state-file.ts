import { mkdir, readdir, readFile, rename, rm, writeFile } from "node:fs/promises";
import path from "node:path";
import { z } from "zod";
import { SavedAccountSchema } from "./collections";
import { migrateStateFile, STATE_FILE_VERSION } from "./state-migration";

/**
 * What `--state-file` holds: management state per account, one array per collection of
 * collections.ts (jobs are not persisted). A collection added later loads empty from an older
 * file; a file of an earlier version is migrated on load (state-migration.ts). Registry auths hold
 * a password hash, never the password.
 */
export const StateFileSchema = z.object({
  version: z.literal(STATE_FILE_VERSION),
  accounts: z.record(z.string(), SavedAccountSchema),
});
/** The content of a state file. */
export type StateFileData = z.infer<typeof StateFileSchema>;

/**
 * The state file (`--state-file FILE` persists every management collection per account,
 * so a restart loses nothing). Writes are atomic (temporary file, then rename) and serialized; a
 * write requested while one runs is coalesced into the next.
 */
export class StateFile {
  private chain: Promise<void> = Promise.resolve();
  private queued: Promise<void> | undefined;
  private counter = 0;

  constructor(readonly file: string) {}

  /**
   * The saved state, or undefined when the file does not exist. A corrupt file is an error, never
   * silently dropped. Temporary files of earlier processes (a write cut short by a kill: the file
   * itself is intact, see {@link write}) are removed.
   */
  async load(): Promise<StateFileData | undefined> {
    await this.removeStaleTemporaries();
    let text: string;
    try {
      text = await readFile(this.file, "utf8");
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === "ENOENT") return undefined;
      throw error;
    }
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch (error) {
      throw new Error(`state file ${this.file} is not valid JSON: ${(error as Error).message}`);
    }
    let current: unknown;
    try {
      current = migrateStateFile(json);
    } catch (error) {
      throw new Error(`state file ${this.file}: ${(error as Error).message}`);
    }
    const parsed = StateFileSchema.safeParse(current);
    if (!parsed.success) throw new Error(`state file ${this.file} has an unexpected shape: ${parsed.error.message}`);
    return parsed.data;
  }

  /** Writes `snapshot()` (taken when the write starts); resolves once it is on disk. */
  save(snapshot: () => StateFileData): Promise<void> {
    if (this.queued) return this.queued;
    const next = this.chain.then(() => {
      this.queued = undefined;
      return this.write(snapshot());
    });
    this.queued = next;
    this.chain = next.catch(() => undefined);
    return next;
  }

  /** Waits for pending writes. */
  flush(): Promise<void> {
    return this.chain;
  }

  private async removeStaleTemporaries(): Promise<void> {
    const base = path.basename(this.file);
    const names = await readdir(path.dirname(this.file)).catch(() => [] as string[]);
    for (const name of names) {
      const m = /^(.*)\.(\d+)\.\d+\.tmp$/.exec(name);
      if (m && m[1] === base && Number(m[2]) !== process.pid)
        await rm(path.join(path.dirname(this.file), name), { force: true });
    }
  }

  private async write(data: StateFileData): Promise<void> {
    await mkdir(path.dirname(this.file), { recursive: true });
    const tmp = `${this.file}.${process.pid}.${this.counter++}.tmp`;
    try {
      await writeFile(tmp, `${JSON.stringify(data, null, 2)}\n`, { mode: 0o600 });
      await rename(tmp, this.file);
    } catch (error) {
      await rm(tmp, { force: true });
      throw error;
    }
  }
}
