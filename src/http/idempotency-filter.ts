// Which idempotency keys may already have a row, so that a fresh key (the usual case: our SDKs send a new
// one with every POST) is claimed without asking the database first. Only for the embedded database, which
// one process owns: every row is either loaded at start or claimed by this process, so the filter sees them
// all. Bloom filters: "no" is certain, "maybe" (a key really seen, or a false positive) sends the claim to
// the database as before. One filter per hour of claims, so a day's keys age out with their rows (24 hours)
// instead of filling one filter for ever. A fresh key is checked against every live hour (up to 26), so each
// filter is kept at 0.1 % when full: at most about 2.6 % of fresh keys pay the database. An hour starts with
// room for as many keys as the busiest hour before it, and chains a filter twice as large when it fills.

const HOUR_MS = 60 * 60 * 1000;
// 14.4 bits a key and 10 probes: 0.1 % false positives when a filter holds its capacity (15 MB for the
// 8.6 million keys of a day at 100 keyed requests a second).
const BITS_PER_KEY = 14.4;
const PROBES = 10;
const FIRST_CAPACITY = 16_384;

/** Two independent 32-bit hashes of a string (FNV-1a and a multiply-xorshift), mixed to full avalanche. */
function hashes(text: string): [number, number] {
  let a = 0x811c9dc5;
  let b = 0x9747b28c;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    a = Math.imul(a ^ c, 0x01000193);
    b = Math.imul(b ^ c, 0x5bd1e995);
    b ^= b >>> 15;
  }
  return [mix(a), mix(b) | 1];
}

function mix(h: number): number {
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  return (h ^ (h >>> 16)) >>> 0;
}

class Bloom {
  private readonly bits: Uint32Array;
  private readonly size: number;
  count = 0;

  constructor(readonly capacity: number) {
    this.size = Math.ceil((capacity * BITS_PER_KEY) / 32) * 32;
    this.bits = new Uint32Array(this.size / 32);
  }

  add(h1: number, h2: number): void {
    for (let i = 0; i < PROBES; i++) {
      const bit = (h1 + Math.imul(i, h2)) >>> 0;
      const at = bit % this.size;
      this.bits[at >>> 5]! |= 1 << (at & 31);
    }
    this.count++;
  }

  has(h1: number, h2: number): boolean {
    for (let i = 0; i < PROBES; i++) {
      const at = ((h1 + Math.imul(i, h2)) >>> 0) % this.size;
      if ((this.bits[at >>> 5]! & (1 << (at & 31))) === 0) return false;
    }
    return true;
  }
}

export class KeyFilter {
  // Hour number (claimed at, in hours since the epoch) -> that hour's filters, smallest first.
  private readonly hours = new Map<number, Bloom[]>();
  // The most keys one hour has held so far: the next hour's first filter is made that large.
  private busiest = FIRST_CAPACITY;

  constructor(private readonly ttlMs: number) {}

  /** Records a key claimed (or found) at `atMs`. */
  add(id: string, atMs: number): void {
    const hour = Math.floor(atMs / HOUR_MS);
    let chain = this.hours.get(hour);
    if (!chain) this.hours.set(hour, (chain = [new Bloom(this.busiest)]));
    let last = chain[chain.length - 1]!;
    if (last.count >= last.capacity) {
      chain.push((last = new Bloom(last.capacity * 2)));
      this.busiest = Math.max(this.busiest, chain.reduce((sum, bloom) => sum + bloom.capacity, 0));
    }
    const [h1, h2] = hashes(id);
    last.add(h1, h2);
  }

  /** False only when the key was certainly never added within the last ttl (its row, if any, expired). */
  mayHave(id: string, nowMs: number): boolean {
    this.forget(nowMs);
    const [h1, h2] = hashes(id);
    for (const chain of this.hours.values()) {
      for (const bloom of chain) if (bloom.has(h1, h2)) return true;
    }
    return false;
  }

  /** Drops the hours whose keys have all expired (claimed more than ttl ago). */
  private forget(nowMs: number): void {
    for (const hour of this.hours.keys()) {
      if ((hour + 1) * HOUR_MS + this.ttlMs <= nowMs) this.hours.delete(hour);
    }
  }
}
