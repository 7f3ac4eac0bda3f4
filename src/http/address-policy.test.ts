import { describe, expect, it } from "vitest";
import { createAddressPolicy, deniedReason, embeddedIpv4 } from "./address-policy.ts";

describe("outbound address policy", () => {
  it.each([
    ["127.0.0.1", "loopback"],
    ["127.255.0.9", "loopback"],
    ["10.20.30.40", "private"],
    ["172.16.0.1", "private"],
    ["172.31.255.255", "private"],
    ["192.168.0.10", "private"],
    ["100.64.0.1", "carrier-grade NAT"],
    ["169.254.10.10", "link-local"],
    ["169.254.169.254", "cloud metadata"],
    ["168.63.129.16", "cloud metadata"],
    ["100.100.100.200", "cloud metadata"],
    ["0.0.0.0", "unspecified"],
    ["224.0.0.1", "multicast"],
    ["255.255.255.255", "reserved"],
    ["::1", "loopback"],
    ["::", "unspecified"],
    ["fd12:3456::1", "unique-local"],
    ["fc00::1", "unique-local"],
    ["fe80::1", "link-local"],
    ["fd00:ec2::254", "cloud metadata"],
    ["::ffff:127.0.0.1", "loopback, inside IPv6"],
    ["::ffff:a9fe:a9fe", "cloud metadata"],
    ["::ffff:10.0.0.1", "private, inside IPv6"],
    ["64:ff9b::10.0.0.1", "private, inside IPv6"],
    ["2002:7f00:1::", "loopback, inside IPv6"],
    ["::127.0.0.1", "loopback, inside IPv6"],
    // IPv4-translated (RFC 2765 ::ffff:0:a.b.c.d), in hex and dotted forms.
    ["::ffff:0:7f00:1", "loopback, inside IPv6"],
    ["::ffff:0:127.0.0.1", "loopback, inside IPv6"],
    ["0:0:0:0:ffff:0:a00:1", "private, inside IPv6"],
    ["::ffff:0:a9fe:a9fe", "cloud metadata, inside IPv6"],
    // IPv4-mapped and IPv4-compatible, other spellings.
    ["0:0:0:0:0:ffff:c0a8:101", "private, inside IPv6"],
    ["::a9fe:a9fe", "cloud metadata, inside IPv6"],
    ["::0.0.0.2", "unspecified, inside IPv6"],
    // NAT64 well-known prefix, hex form; local-use NAT64 refused whole.
    ["64:ff9b::7f00:1", "loopback, inside IPv6"],
    ["64:ff9b::a9fe:a9fe", "cloud metadata, inside IPv6"],
    ["64:ff9b:1::808:808", "reserved"],
    // 6to4.
    ["2002:a00:1::1", "private, inside IPv6"],
    ["2002:a9fe:a9fe::", "cloud metadata, inside IPv6"],
    // Teredo (client address inverted): the whole range is refused, whatever it carries.
    ["2001:0:4136:e378:8000:63bf:80ff:fffe", "reserved"],
    ["2001:0:4136:e378:8000:63bf:f7f7:f7f7", "reserved"],
    // ISATAP interface identifiers under a global prefix.
    ["2001:db9::5efe:7f00:1", "loopback, inside IPv6"],
    ["2606:4700::200:5efe:c0a8:101", "private, inside IPv6"],
  ])("refuses %s (%s)", (address, reason) => {
    expect(deniedReason(address)).toBe(reason);
  });

  it.each(["8.8.8.8", "1.1.1.1", "172.32.0.1", "100.128.0.1", "2606:4700:4700::1111", "::ffff:8.8.8.8", "64:ff9b::808:808"])("allows the public address %s", (address) => {
    expect(deniedReason(address)).toBeUndefined();
  });

  it.each([
    ["::ffff:0:7f00:1", "127.0.0.1"],
    ["::ffff:7f00:1", "127.0.0.1"],
    ["::7f00:1", "127.0.0.1"],
    ["64:ff9b::c0a8:101", "192.168.1.1"],
    ["2002:c0a8:101::", "192.168.1.1"],
    ["2001:0:4136:e378:8000:63bf:80ff:fffe", "127.0.0.1"],
    ["fe80::5efe:a00:1", "10.0.0.1"],
    ["2606:4700:4700::1111", undefined],
  ])("finds the IPv4 address inside %s", (address, inner) => {
    expect(embeddedIpv4(address)).toBe(inner);
  });

  it("an allow-listed IPv4 address opens its mapped form only, not the translated or tunnelled ones", () => {
    const policy = createAddressPolicy(["127.0.0.1"]);
    expect(policy.refuse("::ffff:7f00:1", "::ffff:7f00:1")).toBeUndefined();
    expect(policy.refuse("::ffff:0:7f00:1", "::ffff:0:7f00:1")).toBe("loopback, inside IPv6");
    expect(policy.refuse("64:ff9b::7f00:1", "64:ff9b::7f00:1")).toBe("loopback, inside IPv6");
  });

  it("opens exactly what the allow-list names: host names, addresses and ranges", () => {
    const policy = createAddressPolicy(["localhost", "10.1.0.0/16", "::1", "127.0.0.2"]);
    expect(policy.refuse("localhost", "127.0.0.1")).toBeUndefined();
    expect(policy.refuse("LOCALHOST.", "::1")).toBeUndefined();
    expect(policy.refuse("10.1.2.3", "10.1.2.3")).toBeUndefined();
    expect(policy.refuse("10.2.0.1", "10.2.0.1")).toBe("private");
    expect(policy.refuse("internal.example", "10.1.9.9")).toBeUndefined();
    expect(policy.refuse("[::1]", "::1")).toBeUndefined();
    expect(policy.refuse("127.0.0.1", "127.0.0.1")).toBe("loopback");
    expect(policy.refuse("127.0.0.2", "127.0.0.2")).toBeUndefined();
    expect(policy.refuse("x", "::ffff:10.1.0.5")).toBeUndefined();
    expect(policy.allowListed("localhost")).toBe(true);
    expect(policy.allowListed("10.1.4.4")).toBe(true);
    expect(policy.allowListed("example.com")).toBe(false);
    expect(createAddressPolicy([]).refuse("localhost", "127.0.0.1")).toBe("loopback");
  });
});
