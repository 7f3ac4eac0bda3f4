// Finding a workspace's stored secret values inside text, so that records keep "[redacted]" where a user
// typed (or pasted) a value equal to one of them. The values themselves are not kept: each is reduced, when
// the workspace's credentials are read, to a rolling fingerprint (Rabin-Karp, under a base drawn at random
// per process) and a keyed hash (HMAC-SHA-256 under a per-process random key); the plaintext is dropped at
// once. Masking slides a window of each secret's length over the text: O(text length × distinct secret
// lengths) with integer arithmetic, and a keyed hash only where a fingerprint matches, which is what keeps
// the intent path's budget (a few microseconds for a typical message).
//
// What counts as a secret value: every string (or number) in a credential's key_data of at least
// MIN_SECRET_LENGTH characters, except fields that name rather than authenticate (username, login, email,
// host, url, region …). A value is found only whole: a fragment of a secret is not.
import { createHmac, randomBytes, randomInt } from "node:crypto";

export const MIN_SECRET_LENGTH = 8;
const MAX_SECRET_LENGTH = 4_096;
const NOT_SECRET_FIELDS = new Set(["username", "user", "login", "email", "host", "hostname", "url", "base_url", "domain", "region", "account", "account_id", "client_id"]);
const MASK = "[redacted]";

export interface KnownSecrets {
  /** How many distinct secret values are known. */
  readonly size: number;
  /** The text with every occurrence of a known secret value replaced by "[redacted]". */
  mask(text: string): string;
}

export const NO_KNOWN_SECRETS: KnownSecrets = { size: 0, mask: (text) => text };

/** The secret-looking values of a credential's key_data (see above for what counts). */
export function secretValuesOf(data: Record<string, unknown>): string[] {
  const values: string[] = [];
  const visit = (value: unknown, field: string | undefined) => {
    if (field !== undefined && NOT_SECRET_FIELDS.has(field.toLowerCase())) return;
    if (typeof value === "string" || (typeof value === "number" && Number.isFinite(value))) {
      const text = String(value);
      if (text.length >= MIN_SECRET_LENGTH && text.length <= MAX_SECRET_LENGTH) values.push(text);
    } else if (Array.isArray(value)) {
      for (const item of value) visit(item, field);
    } else if (value && typeof value === "object") {
      for (const [key, item] of Object.entries(value)) visit(item, key);
    }
  };
  visit(data, undefined);
  return values;
}

/** Fingerprints of a set of secret values; `values` can be dropped by the caller once this returns. */
export function createKnownSecrets(values: Iterable<string>): KnownSecrets {
  const key = randomBytes(32);
  // Odd, so that multiplying by it modulo 2^32 loses nothing.
  const base = randomInt(1 << 16, 1 << 30) | 1;
  const digest = (text: string) => createHmac("sha256", key).update(text).digest("base64");
  // length → (base^(length-1), filter on the fingerprint's low 16 bits, fingerprint → keyed hashes)
  const byLength = new Map<number, { high: number; filter: Uint8Array; hashes: Map<number, Set<string>> }>();
  let size = 0;
  for (const value of new Set(values)) {
    let entry = byLength.get(value.length);
    if (!entry) {
      let high = 1;
      for (let i = 1; i < value.length; i++) high = Math.imul(high, base);
      entry = { high, filter: new Uint8Array(1 << 16), hashes: new Map() };
      byLength.set(value.length, entry);
    }
    const fp = fingerprint(value, value.length, base);
    entry.filter[fp & 0xffff] = 1;
    const hashes = entry.hashes.get(fp) ?? new Set<string>();
    const hash = digest(value);
    if (!hashes.has(hash)) size++;
    hashes.add(hash);
    entry.hashes.set(fp, hashes);
  }
  if (size === 0) return NO_KNOWN_SECRETS;
  const shortest = Math.min(...byLength.keys());

  return {
    size,
    mask: (text) => {
      if (text.length < shortest) return text;
      const found: [number, number][] = [];
      for (const [length, { high, filter, hashes }] of byLength) {
        if (text.length < length) continue;
        let fp = fingerprint(text, length, base);
        for (let start = 0; ; start++) {
          if (filter[fp & 0xffff] === 1 && hashes.get(fp)?.has(digest(text.slice(start, start + length)))) found.push([start, start + length]);
          if (start + length >= text.length) break;
          // Roll: drop text[start], add text[start + length] (all modulo 2^32).
          fp = (Math.imul(fp - Math.imul(text.charCodeAt(start), high), base) + text.charCodeAt(start + length)) | 0;
        }
      }
      if (found.length === 0) return text;
      found.sort((a, b) => a[0] - b[0] || b[1] - a[1]);
      let out = "";
      let at = 0;
      for (const [from, to] of found) {
        if (to <= at) continue;
        if (from >= at) out += text.slice(at, from) + MASK;
        at = to;
      }
      return out + text.slice(at);
    },
  };
}

function fingerprint(text: string, length: number, base: number): number {
  let fp = 0;
  for (let i = 0; i < length; i++) fp = (Math.imul(fp, base) + text.charCodeAt(i)) | 0;
  return fp;
}
