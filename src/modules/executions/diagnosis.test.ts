import { describe, expect, it } from "vitest";
import { retryAfterOf } from "../../tools/openapi.ts";
import { classifyCall, diagnose, failureOfReport } from "./diagnosis.ts";

const http = (status: number) => ({ result: { status_code: status, body: {} }, unhealthy: status >= 500, error: `HTTP ${status}` });
const where = { tool: "t", step: 2, attempts: 4, baseDelayMs: 200 };

describe("classifyCall: what is worth retrying", () => {
  it.each([
    [429, "rate_limit", true],
    [500, "external", true],
    [502, "external", true],
    [503, "external", true],
    [504, "external", true],
    [400, "validation", false],
    [401, "auth", false],
    [403, "auth", false],
    [404, "resource", false],
    [408, "timeout", false],
    [409, "validation", false],
    [422, "validation", false],
  ] as const)("HTTP %i → %s, transient %s", (status, category, transient) => {
    expect(classifyCall(http(status))).toEqual({ category, transient, statusCode: status });
  });

  it("transport failures by what the runtime said", () => {
    expect(classifyCall({ result: { error: "x" }, unhealthy: true, error: "https://a.test did not answer within 1500 ms." })).toEqual({ category: "timeout", transient: true });
    expect(classifyCall({ result: { error: "x" }, unhealthy: true, error: "MCP error -32001: Request timed out" })).toEqual({ category: "timeout", transient: true });
    expect(classifyCall({ result: { error: "x" }, unhealthy: true, error: "https://a.test refused the connection." })).toEqual({ category: "network", transient: true });
    expect(classifyCall({ result: { error: "x" }, unhealthy: true, error: "the connection's credential cred_1 no longer exists" })).toEqual({ category: "auth", transient: false });
    // The server refused the arguments (MCP invalid params): the caller's fault, never retried.
    expect(classifyCall({ result: { error: "x" }, unhealthy: false, error: "MCP error -32602: invalid" })).toEqual({ category: "validation", transient: false });
    // An MCP tool that ran and reported an error is not a transport failure.
    expect(classifyCall({ result: { content: [], is_error: true }, unhealthy: true, error: "the MCP tool reported an error" })).toEqual({ category: "external", transient: false });
  });
});

describe("diagnose", () => {
  it("exhausted 5xx: a person should look (escalation), a later retry may work", () => {
    const d = diagnose({ kind: "call", run: http(503), retriesExhausted: true }, where);
    expect(d).toMatchObject({ error_category: "external", status_code: 503, recovery_strategy: "human_handoff", can_retry: true, needs_human: true, tool_name: "t", step: 2, attempts: 4, retry_delay_ms: 200 });
    expect(Number.isInteger(d.retry_delay_ms)).toBe(true);
  });

  it("rate limits advise waiting at least the Retry-After, and need nobody", () => {
    expect(diagnose({ kind: "call", run: { ...http(429), retryAfterMs: 1500.4 }, retriesExhausted: true }, where)).toMatchObject({
      error_category: "rate_limit",
      recovery_strategy: "retry",
      can_retry: true,
      needs_human: false,
      retry_delay_ms: 1500,
    });
  });

  it("auth needs a person; a bad request needs new arguments; a policy block names the policy", () => {
    expect(diagnose({ kind: "call", run: http(401), retriesExhausted: false }, where)).toMatchObject({ error_category: "auth", recovery_strategy: "reconfigure", needs_human: true, can_retry: false });
    expect(diagnose({ kind: "call", run: http(422), retriesExhausted: false }, where)).toMatchObject({ error_category: "validation", recovery_strategy: "repair", needs_re_decide: true, needs_human: false });
    expect(diagnose({ kind: "call", run: http(404), retriesExhausted: false }, where)).toMatchObject({ error_category: "resource", recovery_strategy: "repair", needs_human: false });
    const blocked = diagnose({ kind: "policy", reason: "Blocked by policy", policyName: "no refunds" }, where);
    expect(blocked).toMatchObject({ error_category: "policy", recovery_strategy: "human_handoff", needs_human: true, can_retry: false, confidence: 1 });
    expect(blocked.root_cause).toContain("no refunds");
    expect(diagnose({ kind: "missing_tool" }, where)).toMatchObject({ error_category: "capability", recovery_strategy: "reconfigure", needs_human: true });
    expect(diagnose({ kind: "invalid_arguments", problems: [{ field: "arguments.amount", message: "must be number" }] }, where).root_cause).toContain("arguments.amount must be number");
  });
});

describe("retryAfterOf (Retry-After as the OpenAPI runtime reads it)", () => {
  it("seconds or an HTTP date; nothing for what it cannot read", () => {
    expect(retryAfterOf("3")).toBe(3000);
    expect(retryAfterOf(["2", "9"])).toBe(2000);
    expect(retryAfterOf(new Date(10_000 + 4_000).toUTCString(), 10_000)).toBe(4000);
    expect(retryAfterOf(new Date(0).toUTCString(), 10_000)).toBe(0);
    expect(retryAfterOf("soon")).toBeUndefined();
    expect(retryAfterOf(undefined)).toBeUndefined();
  });
});

describe("failureOfReport: a message diagnosed as the runner diagnosed it", () => {
  const category = (errorMessage: string, errorCategory?: string) => diagnose(failureOfReport({ errorMessage, ...(errorCategory ? { errorCategory } : {}) }), where).error_category;

  it("the runner's own messages come back to the runner's category", () => {
    // What the runner writes as an execution's error for each failure (runner.ts), and what it diagnosed.
    const written: [string, string][] = [
      ["shop_status failed after 3 attempts: HTTP 503", "external"],
      ["get_order failed: HTTP 401", "auth"],
      ["get_order failed: HTTP 404", "resource"],
      ["refund_order failed: HTTP 422", "validation"],
      ["lookup failed after 3 attempts: https://a.test did not answer within 1500 ms.", "timeout"],
      ["lookup failed after 3 attempts: https://a.test refused the connection.", "network"],
      ['Blocked by policy "no refunds" (pol_1, version 1): Refunds over $500 are blocked.', "policy"],
      ['No tool "gone" in this workspace.', "capability"],
      ["The arguments of refund_order are not valid: amount must be number.", "validation"],
    ];
    for (const [message, expected] of written) expect(category(message), message).toBe(expected);
  });

  it("an exhausted retry keeps its human handoff; a Retry-After in the text is the delay", () => {
    expect(diagnose(failureOfReport({ errorMessage: "x failed after 3 attempts: HTTP 503" }), where)).toMatchObject({ recovery_strategy: "human_handoff", needs_human: true });
    expect(diagnose(failureOfReport({ errorMessage: "HTTP 429 Too Many Requests, retry after 2.5 s" }), where).retry_delay_ms).toBe(2500);
    expect(diagnose(failureOfReport({ errorMessage: "429 too many requests" }), where).error_category).toBe("rate_limit");
  });

  it("the caller's category when the text says nothing; unknown otherwise", () => {
    expect(category("it broke", "timeout")).toBe("timeout");
    expect(category("it broke", "auth")).toBe("auth");
    expect(category("it broke", "nonsense")).toBe("unknown");
    expect(category("it broke")).toBe("unknown");
    // A status code in the text wins over the caller's category.
    expect(category("HTTP 503", "auth")).toBe("external");
  });
});
