// Identifiers: `<prefix>_<random base62>` for resources, UUIDs where the contract validates them (memory).
// Passed to buildApp as a dependency so tests can make ids predictable.
import { randomFillSync, randomUUID } from "node:crypto";

const BASE62 = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";

// CSPRNG bytes are drawn 4 KiB at a time and handed out once each: one getrandom call per ~150 ids instead
// of one per id (a request makes several ids; the call costs ~25 µs here, more than the rest of id making).
const pool = Buffer.alloc(4096);
let used = pool.length;

function nextByte(): number {
  if (used === pool.length) {
    randomFillSync(pool);
    used = 0;
  }
  return pool[used++]!;
}

/** Uniform base62 string from the CSPRNG (bytes >= 248 are rejected so no symbol is favoured). */
export function randomBase62(length: number): string {
  let out = "";
  while (out.length < length) {
    const byte = nextByte();
    if (byte < 248) out += BASE62[byte % 62];
  }
  return out;
}

/** `bytes` CSPRNG bytes from the pool, as lowercase hex. */
export function randomHex(bytes: number): string {
  if (used + bytes > pool.length) {
    randomFillSync(pool);
    used = 0;
  }
  const hex = pool.toString("hex", used, used + bytes);
  used += bytes;
  return hex;
}

export function toBase62(value: number, width: number): string {
  let out = "";
  let n = value;
  do {
    out = BASE62[n % 62] + out;
    n = Math.floor(n / 62);
  } while (n > 0);
  return out.padStart(width, "0");
}

export type IdPrefix = "wsp" | "key" | "int" | "exe" | "pol" | "esc" | "cred" | "con" | "whk" | "fed" | "xag" | "dev" | "aud" | "conv" | "setup" | "hp" | "evt" | "dlv";

export interface Ids {
  make(prefix: IdPrefix): string;
  uuid(): string;
}

export const randomIds: Ids = {
  make: (prefix) => `${prefix}_${randomBase62(22)}`,
  uuid: () => randomUUID(),
};
