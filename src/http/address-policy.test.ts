import { describe, expect, it } from "vitest";
import { createAddressPolicy, deniedReason } from "./address-policy.ts";

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
  ])("refuses %s (%s)", (address, reason) => {
    expect(deniedReason(address)).toBe(reason);
  });

  it.each(["8.8.8.8", "1.1.1.1", "172.32.0.1", "100.128.0.1", "2606:4700:4700::1111", "::ffff:8.8.8.8", "64:ff9b::808:808"])("allows the public address %s", (address) => {
    expect(deniedReason(address)).toBeUndefined();
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
