import { randomFillSync } from "node:crypto";

const ALPHANUMERIC = Buffer.from("abcdefghijklmnopqrstuvwxyz0123456789", "latin1");
const HEX = Buffer.from("0123456789abcdef", "latin1");
const pool = Buffer.alloc(4096);
let poolOffset = pool.length;

/** `n` random bytes from a pooled buffer (one syscall per 4 KB instead of one per id). */
function randomBytes(n: number): Buffer {
  if (poolOffset + n > pool.length) {
    randomFillSync(pool);
    poolOffset = 0;
  }
  const bytes = pool.subarray(poolOffset, poolOffset + n);
  poolOffset += n;
  return bytes;
}

/** A random lowercase alphanumeric id, like the platform's. Built in a buffer, so the string is flat (no rope). */
export function randomId(length: number): string {
  const bytes = randomBytes(length);
  const out = Buffer.allocUnsafe(length);
  for (let i = 0; i < length; i++) out[i] = ALPHANUMERIC[bytes[i]! % ALPHANUMERIC.length]!;
  return out.toString("latin1");
}

/** A network volume id (10 characters, like the platform's). */
export const newVolumeId = (): string => randomId(10);
/** An endpoint id (14 characters, like the platform's). */
export const newEndpointId = (): string => randomId(14);
/** An account secret id (12 characters, the shape of the platform's example `2q9m7x4cavgd`). */
export const newSecretId = (): string => randomId(12);
/** A worker id (14 characters, like a pod id). */
export const newWorkerId = (): string => randomId(14);

/**
 * A job id: a version-4 UUID with a region-like suffix (`-e1`), the shape of the platform's job
 * ids. Written byte by byte into one buffer: `crypto.randomUUID()` returns a rope of ~500 bytes
 * of heap, which alone would break the memory budget per held job.
 */
export function newJobId(): string {
  const r = randomBytes(16);
  const out = Buffer.allocUnsafe(39);
  let o = 0;
  for (let i = 0; i < 16; i++) {
    if (i === 4 || i === 6 || i === 8 || i === 10) out[o++] = 0x2d;
    let b = r[i]!;
    if (i === 6) b = (b & 0x0f) | 0x40;
    if (i === 8) b = (b & 0x3f) | 0x80;
    out[o++] = HEX[b >> 4]!;
    out[o++] = HEX[b & 15]!;
  }
  out.write("-e1", o, "latin1");
  return out.toString("latin1");
}

/** A template id (10 characters, like the platform's `30zmvf89kd`). */
export const newTemplateId = (): string => randomId(10);
/** A container registry auth id (25 characters starting with `c`, the shape of the platform's `clzdaifot0001l90809257ynb`). */
export const newRegistryAuthId = (): string => `c${randomId(24)}`;
/** A pod id (14 characters, like the platform's `xedezhzb9la3ye`). */
export const newPodId = (): string => randomId(14);
/** A cluster id (10 characters). */
export const newClusterId = (): string => randomId(10);
