import { createCipheriv, createDecipheriv, randomBytes } from "node:crypto";
import { mkdir, readFile, writeFile } from "node:fs/promises";
import path from "node:path";

/*
 * How the emulator keeps account secrets' values at rest: sealed with AES-256-GCM under a key that
 * is never in the state file. With `--state-file FILE` the key lives in `FILE.key` (32 random
 * bytes, hex, mode 0600, created on first start), so a restart can open what the last run sealed
 * while the state file alone (a CI artifact, a bug report) reveals no value. Without a state file
 * nothing is written: the key is random and lives as long as the process.
 */

/** The cipher; a 96-bit random nonce per seal, the 128-bit tag checked on every open. */
const CIPHER = "aes-256-gcm";
const KEY_BYTES = 32;
const NONCE_BYTES = 12;
/** The format's version, first field of a sealed value: `v1.<nonce>.<tag>.<ciphertext>`, base64url. */
const FORMAT = "v1";

/** A sealed value as the record holds it. */
export const SEALED_VALUE = /^v1\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]*$/;

/** Seals and opens secret values with one key. */
export class SecretBox {
  private constructor(
    private readonly key: Buffer,
    /** Where the key is kept, for errors; undefined for a key of this process only. */
    readonly keyFile: string | undefined,
  ) {}

  /** A box with a fresh key that lives as long as the process (an emulator without a state file). */
  static ephemeral(): SecretBox {
    return new SecretBox(randomBytes(KEY_BYTES), undefined);
  }

  /** The box of the key in `file`, created (mode 0600) when the file does not exist yet. */
  static async fromKeyFile(file: string): Promise<SecretBox> {
    let text: string;
    try {
      text = await readFile(file, "utf8");
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "ENOENT") throw error;
      const key = randomBytes(KEY_BYTES);
      await mkdir(path.dirname(file), { recursive: true });
      // `wx`: two emulators starting on one state file at once must not write two keys.
      await writeFile(file, `${key.toString("hex")}\n`, { mode: 0o600, flag: "wx" }).catch((e: unknown) => {
        if ((e as NodeJS.ErrnoException).code !== "EEXIST") throw e;
      });
      text = await readFile(file, "utf8");
    }
    const hex = text.trim();
    if (!/^[0-9a-f]{64}$/.test(hex)) {
      throw new Error(`secrets key file ${file} must hold 64 hex digits (a 256-bit key); it holds something else`);
    }
    return new SecretBox(Buffer.from(hex, "hex"), file);
  }

  /** `value` sealed for the record `id` (the id is authenticated: a sealed value moved to another record does not open). */
  seal(value: string, id: string): string {
    const nonce = randomBytes(NONCE_BYTES);
    const cipher = createCipheriv(CIPHER, this.key, nonce);
    cipher.setAAD(Buffer.from(id, "utf8"));
    const body = Buffer.concat([cipher.update(value, "utf8"), cipher.final()]);
    return [FORMAT, nonce, cipher.getAuthTag(), body]
      .map((p) => (typeof p === "string" ? p : p.toString("base64url")))
      .join(".");
  }

  /** The value `sealed` holds; throws when it was sealed under another key or for another record. */
  open(sealed: string, id: string): string {
    const [format, nonce, tag, body] = sealed.split(".");
    if (format !== FORMAT || nonce === undefined || tag === undefined || body === undefined) {
      throw new Error(`secret ${id}: its sealed value is not in the ${FORMAT} format`);
    }
    const decipher = createDecipheriv(CIPHER, this.key, Buffer.from(nonce, "base64url"));
    decipher.setAAD(Buffer.from(id, "utf8"));
    decipher.setAuthTag(Buffer.from(tag, "base64url"));
    try {
      return Buffer.concat([decipher.update(Buffer.from(body, "base64url")), decipher.final()]).toString("utf8");
    } catch {
      const where = this.keyFile === undefined ? "this process's key" : `the key in ${this.keyFile}`;
      throw new Error(`secret ${id}: its value does not open with ${where} (it was sealed under another key)`);
    }
  }
}
