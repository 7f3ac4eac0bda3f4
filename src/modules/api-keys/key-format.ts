// API key format: `sk_svc_` + 32 random base62 characters + a 6-character base62 CRC-32 checksum of what
// precedes it. The checksum lets the edge reject typos and forged strings without touching the database;
// it is not a secret (the 190 random bits are).
import { hash } from "node:crypto";
import { randomBase62, toBase62 } from "../../ids.ts";

export const KEY_PREFIX = "sk_svc_";
const RANDOM_LENGTH = 32;
const CHECKSUM_LENGTH = 6;
const KEY_PATTERN = /^sk_svc_[0-9A-Za-z]{38}$/;

const CRC_TABLE = (() => {
  const table = new Uint32Array(256);
  for (let i = 0; i < 256; i++) {
    let c = i;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    table[i] = c >>> 0;
  }
  return table;
})();

function crc32(text: string): number {
  let crc = 0xffffffff;
  for (let i = 0; i < text.length; i++) crc = CRC_TABLE[(crc ^ text.charCodeAt(i)) & 0xff]! ^ (crc >>> 8);
  return (crc ^ 0xffffffff) >>> 0;
}

function checksum(body: string): string {
  return toBase62(crc32(body), CHECKSUM_LENGTH);
}

export function generateKey(): string {
  const body = KEY_PREFIX + randomBase62(RANDOM_LENGTH);
  return body + checksum(body);
}

/**
 * True when the string has the shape and checksum of a key this service issues. The checksum is public
 * (anyone can compute it), so a plain comparison leaks nothing.
 */
export function isWellFormedKey(candidate: string): boolean {
  if (!KEY_PATTERN.test(candidate)) return false;
  const split = KEY_PREFIX.length + RANDOM_LENGTH;
  return candidate.slice(split) === checksum(candidate.slice(0, split));
}

/**
 * SHA-256 of the key as hex: what is stored, and what identifies the key in the verification cache.
 * One-shot hashing to a string allocates no Buffer: per-request Buffers (off-heap memory) cost more under
 * load than the hash itself.
 */
export function digestKey(key: string): string {
  return hash("sha256", key, "hex");
}

/** Constant-time comparison of two digests (no early exit on the first differing character). */
export function digestsEqual(a: string, b: string): boolean {
  if (a.length !== b.length) return false;
  let difference = 0;
  for (let i = 0; i < a.length; i++) difference |= a.charCodeAt(i) ^ b.charCodeAt(i);
  return difference === 0;
}
