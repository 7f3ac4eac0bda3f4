import { describe, expect, it } from "vitest";
import { createCallHealth } from "./call-health.ts";

function clockAt(start: number) {
  const clock = { ms: start, now: () => new Date(clock.ms), nowMs: () => clock.ms };
  return clock;
}

describe("connection call health", () => {
  it("degrades when the last call failed and 3 of the last 5 (within 10 minutes) failed; a success heals", () => {
    const clock = clockAt(Date.UTC(2026, 0, 1));
    const health = createCallHealth(clock);
    const record = (ok: boolean) => health.record("w", "c", { ok, error: ok ? undefined : "HTTP 502" });
    record(false);
    record(false);
    expect(health.of("w", "c").status).toBe("healthy");
    record(false);
    expect(health.of("w", "c")).toEqual({ status: "degraded", recentCalls: 3, recentFailures: 3, lastError: "HTTP 502" });
    expect(health.degradedCount("w")).toBe(1);
    record(true);
    expect(health.of("w", "c").status).toBe("healthy");
    // Still 3 failures among the last 5, and the last failed: degraded again.
    record(false);
    expect(health.of("w", "c")).toMatchObject({ status: "degraded", recentCalls: 5, recentFailures: 4 });
    // Only the last five count: F S S S F has two failures → healthy although the last call failed.
    record(true);
    record(true);
    record(true);
    record(false);
    expect(health.of("w", "c")).toMatchObject({ status: "healthy", recentCalls: 5, recentFailures: 2 });
    expect(health.degradedCount("w")).toBe(0);
  });

  it("forgets calls older than 10 minutes, and forgets deleted connections", () => {
    const clock = clockAt(Date.UTC(2026, 0, 1));
    const health = createCallHealth(clock);
    for (let i = 0; i < 2; i++) health.record("w", "c", { ok: false });
    clock.ms += 11 * 60_000;
    health.record("w", "c", { ok: false });
    expect(health.of("w", "c")).toMatchObject({ status: "healthy", recentCalls: 1, recentFailures: 1 });
    health.record("w", "c", { ok: false });
    health.record("w", "c", { ok: false });
    expect(health.of("w", "c").status).toBe("degraded");
    expect(health.of("other", "c").status).toBe("healthy");
    health.forget("w", "c");
    expect(health.of("w", "c")).toMatchObject({ status: "healthy", recentCalls: 0 });
    expect(health.degradedCount("w")).toBe(0);
  });
});
