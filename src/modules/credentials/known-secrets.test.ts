import { describe, expect, it } from "vitest";
import { createKnownSecrets, NO_KNOWN_SECRETS, secretValuesOf } from "./known-secrets.ts";

describe("known secret values", () => {
  it("masks every whole occurrence, overlapping ones together, and leaves other text alone", () => {
    const known = createKnownSecrets(["sk-custom-0123456789", "pass-3c9e1a7f", "ABCDEFGH", "DEFGHIJK"]);
    expect(known.size).toBe(4);
    expect(known.mask("my key is sk-custom-0123456789, twice: sk-custom-0123456789!")).toBe("my key is [redacted], twice: [redacted]!");
    expect(known.mask("pass-3c9e1a7f")).toBe("[redacted]");
    expect(known.mask('{"password":"pass-3c9e1a7f"}')).toBe('{"password":"[redacted]"}');
    expect(known.mask("xxABCDEFGHIJKyy")).toBe("xx[redacted]yy");
    expect(known.mask("sk-custom-012345678 (one short) and pass-3c9e1a7")).toBe("sk-custom-012345678 (one short) and pass-3c9e1a7");
    expect(known.mask("short")).toBe("short");
    expect(known.mask("")).toBe("");
    expect(known.mask("émoji 😀 pass-3c9e1a7f 😀")).toBe("émoji 😀 [redacted] 😀");
  });

  it("finds a secret among thousands of characters of text", () => {
    const secret = "Zq8-rT5!pL2@vB9#nM4$";
    const known = createKnownSecrets([secret]);
    const text = `${"lorem ipsum ".repeat(500)}${secret}${" dolor".repeat(500)}`;
    expect(known.mask(text)).toBe(`${"lorem ipsum ".repeat(500)}[redacted]${" dolor".repeat(500)}`);
  });

  it("takes the secret fields of key_data, not names, short values or identifiers", () => {
    expect(secretValuesOf({ api_key: "k-1234567890", username: "clerk-with-long-name", password: "pw", nested: { token: "t-0987654321", url: "https://api.example.com" }, pin: 123456789 })).toEqual([
      "k-1234567890",
      "t-0987654321",
      "123456789",
    ]);
    expect(createKnownSecrets([])).toBe(NO_KNOWN_SECRETS);
  });
});
