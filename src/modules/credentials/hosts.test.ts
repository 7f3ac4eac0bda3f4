import { describe, expect, it } from "vitest";
import { hostAllowed, hostMatches, parseAllowedHosts, parseHostPattern } from "./hosts.ts";

describe("credential host patterns", () => {
  it.each([
    ["api.example.com", "api.example.com"],
    ["API.Example.COM.", "api.example.com"],
    ["*.example.com", "*.example.com"],
    ["10.0.0.7", "10.0.0.7"],
    ["[::1]", "[::1]"],
    ["bücher.example", "xn--bcher-kva.example"],
  ])("reads %s as %s", (raw, pattern) => {
    expect(parseHostPattern(raw)).toEqual({ pattern });
  });

  it.each(["https://api.example.com", "api.example.com:443", "api.example.com/v1", "user@api.example.com", "api.example.com?x", "*", "*.com", "*.10.0.0.1", "a.*.example.com", "", " ", 5, null, "x".repeat(254)])(
    "refuses %s",
    (raw) => {
      expect(parseHostPattern(raw)).toHaveProperty("problem");
    },
  );

  it("a wildcard is one or more labels in front of its domain, never the domain itself or a look-alike", () => {
    expect(hostMatches("*.example.com", "a.example.com")).toBe(true);
    expect(hostMatches("*.example.com", "a.b.example.com")).toBe(true);
    expect(hostMatches("*.example.com", "example.com")).toBe(false);
    expect(hostMatches("*.example.com", "evilexample.com")).toBe(false);
    expect(hostMatches("*.example.com", "a.example.com.evil.net")).toBe(false);
    expect(hostMatches("api.example.com", "API.example.com.")).toBe(true);
    expect(hostMatches("api.example.com", "x.api.example.com")).toBe(false);
    expect(hostAllowed([], "api.example.com")).toBe(false);
  });

  it("lists: 1 to 20 patterns, duplicates folded, each problem named by its index", () => {
    expect(parseAllowedHosts(["a.example.com", "A.example.com"])).toEqual({ hosts: ["a.example.com"] });
    expect(parseAllowedHosts([])).toHaveProperty("problems");
    expect(parseAllowedHosts(Array(21).fill("a.example.com"))).toHaveProperty("problems");
    expect(parseAllowedHosts(["ok.example.com", "bad/path"])).toEqual({ problems: [{ field: "allowed_hosts[1]", message: expect.any(String) }] });
  });
});
