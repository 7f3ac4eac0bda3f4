// The filter that lets a fresh Idempotency-Key be claimed in memory (src/http/idempotency-filter.ts): it must
// never say "not seen" of a key it was given within the TTL; it may say "maybe" of a few it was not.
import { describe, expect, it } from "vitest";
import { KeyFilter } from "../src/http/idempotency-filter.ts";

const HOUR = 60 * 60 * 1000;
const DAY = 24 * HOUR;
const start = Date.UTC(2026, 10, 21, 9, 30);

describe("KeyFilter", () => {
  it("never misses a key it holds, across hours and growth, and rarely claims one it does not", () => {
    const filter = new KeyFilter(DAY);
    // 120,000 keys over six hours: the first hour's filters fill and chain, the later hours start larger.
    const added: string[] = [];
    for (let i = 0; i < 120_000; i++) {
      const key = `wsp_${i % 7}\nkey-${i}-${(i * 2654435761) >>> 0}`;
      filter.add(key, start + Math.floor(i / 20_000) * HOUR);
      added.push(key);
    }
    const now = start + 6 * HOUR;
    expect(added.filter((key) => !filter.mayHave(key, now))).toEqual([]);
    let maybe = 0;
    for (let i = 0; i < 100_000; i++) if (filter.mayHave(`wsp_${i % 7}\nother-${i}`, now)) maybe++;
    // 0.1 % per filter when full, checked against six hours' filters.
    expect(maybe / 100_000).toBeLessThan(0.01);
  });

  it("forgets an hour's keys once they are all older than the TTL, and not before", () => {
    const filter = new KeyFilter(DAY);
    filter.add("wsp_a\nearly", start);
    filter.add("wsp_a\nlater", start + 2 * HOUR);
    expect(filter.mayHave("wsp_a\nearly", start + DAY)).toBe(true);
    // The hour holding "early" ends at 10:00; a day after that every key claimed in it has expired.
    const hourEnd = Math.ceil(start / HOUR) * HOUR;
    expect(filter.mayHave("wsp_a\nearly", hourEnd + DAY - 1)).toBe(true);
    expect(filter.mayHave("wsp_a\nearly", hourEnd + DAY)).toBe(false);
    expect(filter.mayHave("wsp_a\nlater", hourEnd + DAY)).toBe(true);
  });

  it("tells keys apart that differ only by workspace or by one character", () => {
    const filter = new KeyFilter(DAY);
    filter.add("wsp_a\norder-1", start);
    expect(filter.mayHave("wsp_a\norder-1", start)).toBe(true);
    expect(filter.mayHave("wsp_b\norder-1", start)).toBe(false);
    expect(filter.mayHave("wsp_a\norder-2", start)).toBe(false);
  });
});
