import { createHmac, randomBytes, timingSafeEqual } from "node:crypto";

/*
 * The cursors of management API v2's paged lists. The platform's cursor is opaque and valid only
 * for the operation and the parameters that issued it; a malformed or foreign one is a 422. The
 * emulator's carries what it binds in the clear and a MAC over it and the account:
 *
 *   base64url(JSON [1, list, params, after]) "." base64url(HMAC-SHA256(key, account "\n" payload)[0..16])
 *
 * so another account's cursor, an altered one and one from another emulator process all fail the
 * MAC, and a cursor of another list or of other parameters is told apart by what it claims. The
 * key is drawn when the emulator starts and never leaves the process.
 */

/** What a cursor binds, besides the account: the list, its parameters, and where the next page starts. */
export interface CursorClaims {
  /** The operation: method and path, e.g. `GET /v2/clusters/abc/pods`. */
  list: string;
  /** The request's other query parameters, normalized (see `listParams` in list-pages.ts). */
  params: string;
  /** The position of the last item of the page that issued it: the next page starts after it. */
  after: number;
}

/** A cursor read back: its claims, or why it cannot be used. */
export type CursorReading =
  | { ok: true; claims: CursorClaims }
  /** `malformed`: not a cursor at all; `foreign`: a well-formed cursor this process did not issue to this account. */
  | { ok: false; why: "malformed" | "foreign" };

const FORMAT = 1;
const MAC_BYTES = 16;
const BASE64URL = /^[A-Za-z0-9_-]+$/;

/** Issues and reads cursors under one key (one per emulator process). */
export class CursorCodec {
  constructor(private readonly key: Buffer = randomBytes(32)) {}

  /** The cursor of `claims` for `account` (the account's stable id). */
  encode(account: string, claims: CursorClaims): string {
    const payload = Buffer.from(JSON.stringify([FORMAT, claims.list, claims.params, claims.after])).toString(
      "base64url",
    );
    return `${payload}.${this.mac(account, payload).toString("base64url")}`;
  }

  /** Reads a cursor a caller sent for `account`: its claims, or `malformed` / `foreign`. */
  decode(account: string, token: string): CursorReading {
    const parts = token.split(".");
    if (parts.length !== 2 || !parts.every((part) => BASE64URL.test(part))) return { ok: false, why: "malformed" };
    const [payload, sent] = parts as [string, string];
    const claims = readClaims(payload);
    const mac = Buffer.from(sent, "base64url");
    if (!claims || mac.length !== MAC_BYTES) return { ok: false, why: "malformed" };
    if (!timingSafeEqual(mac, this.mac(account, payload))) return { ok: false, why: "foreign" };
    return { ok: true, claims };
  }

  private mac(account: string, payload: string): Buffer {
    return createHmac("sha256", this.key).update(`${account}\n${payload}`).digest().subarray(0, MAC_BYTES);
  }
}

function readClaims(payload: string): CursorClaims | undefined {
  let parsed: unknown;
  try {
    parsed = JSON.parse(Buffer.from(payload, "base64url").toString("utf8"));
  } catch {
    return undefined;
  }
  if (!Array.isArray(parsed) || parsed.length !== 4) return undefined;
  const [format, list, params, after] = parsed as unknown[];
  if (format !== FORMAT || typeof list !== "string" || typeof params !== "string") return undefined;
  if (typeof after !== "number" || !Number.isSafeInteger(after) || after < 0) return undefined;
  return { list, params, after };
}
