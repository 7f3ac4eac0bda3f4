// IPv4 addresses and CIDR blocks as values: "10.20.0.0/16" holds every address whose first 16 bits are
// those of 10.20.0.0; an address alone is a block of one. (IPv6 is not read yet: docs/policies.md.)

export interface Network {
  /** The block's first address as an unsigned 32-bit number. */
  base: number;
  /** How many leading bits an address must share with the base. */
  bits: number;
}

const DOTTED = /^(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})(?:\/(\d{1,2}))?$/;

/** An IPv4 address or CIDR block ("10.20.0.0/16", "192.168.1.7"), or undefined when the text is neither. */
export function networkOf(text: string): Network | undefined {
  const m = DOTTED.exec(text.trim());
  if (!m) return undefined;
  const octets = [m[1], m[2], m[3], m[4]].map(Number);
  if (octets.some((o) => o > 255)) return undefined;
  const bits = m[5] === undefined ? 32 : Number(m[5]);
  if (bits > 32) return undefined;
  const address = ((octets[0]! << 24) | (octets[1]! << 16) | (octets[2]! << 8) | octets[3]!) >>> 0;
  return { base: (address & mask(bits)) >>> 0, bits };
}

const mask = (bits: number) => (bits === 0 ? 0 : (~0 << (32 - bits)) >>> 0);

/** Whether an address (or a whole smaller block) lies inside a block. */
export function inNetwork(inner: Network, outer: Network): boolean {
  return inner.bits >= outer.bits && ((inner.base & mask(outer.bits)) >>> 0) === outer.base;
}
