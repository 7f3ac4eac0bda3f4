// Which network addresses outbound requests may reach. A URL given by a caller (an OpenAPI spec, an MCP
// server, later webhooks) must not become a way into the service's own network: loopback, private,
// link-local, carrier-grade NAT, unique-local IPv6 and cloud metadata addresses are refused, including
// when written as IPv4 inside IPv6 (mapped, translated, compatible, NAT64, 6to4, Teredo, ISATAP). Teredo
// (2001::/32) and local-use NAT64 (64:ff9b:1::/48) are refused whole, whatever they carry. The outbound client asks this policy for every
// address it is about to connect to; SVC_OUTBOUND_ALLOW_HOSTS opens named exceptions (local development,
// tests, a sanctioned internal service).
import { BlockList, isIP } from "node:net";

type Family = "ipv4" | "ipv6";

// Each range with the word a refusal message uses for it.
const DENIED: [label: string, family: Family, network: string, prefix: number][] = [
  ["unspecified", "ipv4", "0.0.0.0", 8],
  ["private", "ipv4", "10.0.0.0", 8],
  ["carrier-grade NAT", "ipv4", "100.64.0.0", 10],
  ["loopback", "ipv4", "127.0.0.0", 8],
  ["link-local", "ipv4", "169.254.0.0", 16],
  ["private", "ipv4", "172.16.0.0", 12],
  ["reserved", "ipv4", "192.0.0.0", 24],
  ["documentation", "ipv4", "192.0.2.0", 24],
  ["reserved", "ipv4", "192.88.99.0", 24],
  ["private", "ipv4", "192.168.0.0", 16],
  ["reserved", "ipv4", "198.18.0.0", 15],
  ["documentation", "ipv4", "198.51.100.0", 24],
  ["documentation", "ipv4", "203.0.113.0", 24],
  ["multicast", "ipv4", "224.0.0.0", 4],
  ["reserved", "ipv4", "240.0.0.0", 4],
  ["unspecified", "ipv6", "::", 128],
  ["loopback", "ipv6", "::1", 128],
  ["reserved", "ipv6", "100::", 64],
  ["reserved", "ipv6", "2001::", 32],
  ["documentation", "ipv6", "2001:db8::", 32],
  ["reserved", "ipv6", "64:ff9b:1::", 48],
  ["unique-local", "ipv6", "fc00::", 7],
  ["link-local", "ipv6", "fe80::", 10],
  ["site-local", "ipv6", "fec0::", 10],
  ["multicast", "ipv6", "ff00::", 8],
];

// Metadata services that sit on public-looking addresses (the others are inside the ranges above).
const METADATA = ["169.254.169.254", "168.63.129.16", "100.100.100.200", "fd00:ec2::254"];

const denied = DENIED.map(([label, family, network, prefix]) => {
  const list = new BlockList();
  list.addSubnet(network, prefix, family);
  return { label, list, family };
});
const metadata = new BlockList();
for (const address of METADATA) metadata.addAddress(address, isIP(address) === 4 ? "ipv4" : "ipv6");

/** The eight 16-bit groups of an IPv6 address (any textual form, embedded dotted IPv4 included). */
function ipv6Groups(address: string): number[] {
  // The URL parser normalises the text (dotted IPv4 tails become hex groups, zero runs compress).
  const normal = new URL(`http://[${address}]/`).hostname.slice(1, -1);
  const [head, tail] = normal.includes("::") ? normal.split("::") : [normal, undefined];
  const left = head ? head.split(":") : [];
  const right = tail ? tail.split(":") : [];
  const middle = tail === undefined ? [] : Array(8 - left.length - right.length).fill("0");
  return [...left, ...middle, ...right].map((group) => parseInt(group, 16));
}

/**
 * The IPv4 address an IPv6 address carries and can be routed to, if it is of a kind that does: every form
 * that reaches an IPv4 host through a translator, a tunnel or the dual stack itself. The embedded address is
 * then judged by the IPv4 rules, so `::ffff:0:7f00:1` is loopback like 127.0.0.1.
 */
export function embeddedIpv4(address: string): string | undefined {
  const g = ipv6Groups(address);
  const v4 = (hi: number, lo: number) => `${hi >> 8}.${hi & 255}.${lo >> 8}.${lo & 255}`;
  const zero = (from: number, to: number) => g.slice(from, to).every((x) => x === 0);
  if (zero(0, 5) && g[5] === 0xffff) return v4(g[6]!, g[7]!); // ::ffff:a.b.c.d (mapped, RFC 4291)
  if (zero(0, 4) && g[4] === 0xffff && g[5] === 0) return v4(g[6]!, g[7]!); // ::ffff:0:a.b.c.d (translated, RFC 2765)
  if (zero(0, 6)) return v4(g[6]!, g[7]!); // ::a.b.c.d (compatible, deprecated)
  if (g[0] === 0x64 && g[1] === 0xff9b && zero(2, 6)) return v4(g[6]!, g[7]!); // 64:ff9b::/96 (NAT64, RFC 6052)
  if (g[0] === 0x2002) return v4(g[1]!, g[2]!); // 2002::/16 (6to4, RFC 3056)
  // 2001::/32 (Teredo, RFC 4380): the client's address, inverted bit by bit (the whole range is refused anyway).
  if (g[0] === 0x2001 && g[1] === 0) return v4(~g[6]! & 0xffff, ~g[7]! & 0xffff);
  // ISATAP (RFC 5214): the interface identifier [02]00:5efe:a.b.c.d under any prefix.
  if ((g[4]! & 0xfcff) === 0 && g[5] === 0x5efe) return v4(g[6]!, g[7]!);
  return undefined;
}

/** Why an address may not be reached ("loopback", "metadata" …), or undefined when it may. */
export function deniedReason(address: string): string | undefined {
  const family = isIP(address);
  if (family === 0) return "not an IP address";
  const kind: Family = family === 4 ? "ipv4" : "ipv6";
  if (metadata.check(address, kind)) return "cloud metadata";
  const direct = denied.find((range) => range.family === kind && range.list.check(address, kind))?.label;
  if (direct !== undefined || kind === "ipv4") return direct;
  const inner = embeddedIpv4(address);
  const reason = inner === undefined ? undefined : deniedReason(inner);
  return reason === undefined ? undefined : `${reason}, inside IPv6`;
}

export interface AddressPolicy {
  /** Undefined when `address` (resolved for `hostname`) may be reached, else the reason it may not. */
  refuse(hostname: string, address: string): string | undefined;
  /** Whether the host name or address is on the allow-list (no private-address check applies to it). */
  allowListed(hostname: string): boolean;
}

/** `allow`: host names, addresses and CIDR ranges from SVC_OUTBOUND_ALLOW_HOSTS (already validated). */
export function createAddressPolicy(allow: string[]): AddressPolicy {
  const names = new Set<string>();
  const ranges = new BlockList();
  for (const entry of allow) {
    const [address, prefix] = entry.split("/");
    const family = isIP(address!);
    if (family === 0) names.add(entry.toLowerCase());
    else if (prefix === undefined) ranges.addAddress(address!, family === 4 ? "ipv4" : "ipv6");
    else ranges.addSubnet(address!, Number(prefix), family === 4 ? "ipv4" : "ipv6");
  }
  const bare = (hostname: string) => hostname.toLowerCase().replace(/^\[(.*)\]$/, "$1").replace(/\.$/, "");
  const rangeAllows = (address: string) => {
    const family = isIP(address);
    if (family === 0) return false;
    if (ranges.check(address, family === 4 ? "ipv4" : "ipv6")) return true;
    // Only the mapped form is the IPv4 host itself (the dual stack connects to it); the other embedded forms
    // travel through translators and tunnels, and an exception named for an IPv4 address does not open them.
    const inner = family === 6 && /^::ffff:[0-9a-f]{1,4}:[0-9a-f]{1,4}$/.test(new URL(`http://[${address}]/`).hostname.slice(1, -1)) ? embeddedIpv4(address) : undefined;
    return inner !== undefined && ranges.check(inner, "ipv4");
  };
  return {
    refuse: (hostname, address) => (names.has(bare(hostname)) || rangeAllows(address) ? undefined : deniedReason(address)),
    allowListed: (hostname) => names.has(bare(hostname)) || rangeAllows(bare(hostname)),
  };
}
