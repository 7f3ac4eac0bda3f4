import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { digestKey, digestsEqual, generateKey, isWellFormedKey } from "./key-format.ts";

describe("API key format", () => {
  it("issues sk_svc_ + 38 base62 characters that pass their own checksum", () => {
    const keys = new Set(Array.from({ length: 200 }, generateKey));
    expect(keys.size).toBe(200);
    for (const key of keys) {
      expect(key).toMatch(/^sk_svc_[0-9A-Za-z]{38}$/);
      expect(isWellFormedKey(key)).toBe(true);
    }
  });

  it("rejects any single-character change (checksum)", () => {
    const key = generateKey();
    fc.assert(
      fc.property(fc.integer({ min: 7, max: key.length - 1 }), fc.constantFrom(..."0123456789abcXYZ"), (index, char) => {
        fc.pre(key[index] !== char);
        const tampered = key.slice(0, index) + char + key.slice(index + 1);
        return !isWellFormedKey(tampered);
      }),
    );
  });

  it("rejects other shapes", () => {
    for (const bad of ["", "sk_svc_", "sk_live_" + "a".repeat(38), generateKey() + "x", generateKey().slice(0, -1)]) {
      expect(isWellFormedKey(bad)).toBe(false);
    }
  });

  it("compares digests in constant time and exactly", () => {
    const a = digestKey("a");
    expect(a).toBe("ca978112ca1bbdcafac231b39a23dc4da786eff8147c4e72b9807785afee48bb");
    expect(digestsEqual(a, digestKey("a"))).toBe(true);
    expect(digestsEqual(a, digestKey("b"))).toBe(false);
    expect(digestsEqual(a, "")).toBe(false);
  });
});
