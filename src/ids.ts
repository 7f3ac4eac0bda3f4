// Identifiers: `<prefix>_<random base62>` for resources, UUIDs where the contract validates them (memory).
// Passed to buildApp as a dependency so tests can make ids predictable.
import { randomBytes, randomUUID } from "node:crypto";

const BASE62 = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";

/** Uniform base62 string from the CSPRNG (bytes >= 248 are rejected so no symbol is favoured). */
export function randomBase62(length: number): string {
  let out = "";
  while (out.length < length) {
    for (const byte of randomBytes(length * 2)) {
      if (byte < 248) out += BASE62[byte % 62];
      if (out.length === length) break;
    }
  }
  return out;
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

export type IdPrefix = "wsp" | "key" | "int" | "exe" | "pol" | "esc" | "cred" | "con" | "whk" | "fed" | "xag" | "dev" | "aud" | "conv";

export interface Ids {
  make(prefix: IdPrefix): string;
  uuid(): string;
}

export const randomIds: Ids = {
  make: (prefix) => `${prefix}_${randomBase62(22)}`,
  uuid: () => randomUUID(),
};
