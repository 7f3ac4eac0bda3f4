// Why a step failed, in the wire reference's HealingDiagnosis terms (§4.14), and whether a call's failure
// is worth retrying. Deterministic: a failure is classified from the HTTP status the tool's service
// answered, the runtime's own flags, and only then from the message.
import type { ErrorDetail } from "../../errors/app-error.ts";
import type { ToolRun } from "../tools/service.ts";

/**
 * The wire's ErrorCategory values where one fits (auth, network, rate_limit, timeout, validation, resource,
 * external, capability, unknown), plus `policy`, which it lacks: a governance block is not a fault.
 */
export type ErrorCategory = "timeout" | "rate_limit" | "auth" | "validation" | "resource" | "external" | "network" | "capability" | "policy" | "unknown";

/** The wire's RecoveryStrategyType values this service proposes. */
export type RecoveryStrategy = "retry" | "reconfigure" | "repair" | "human_handoff" | "skip";

export interface Diagnosis {
  error_category: ErrorCategory;
  semantic_reason: string;
  root_cause: string;
  recovery_strategy: RecoveryStrategy;
  can_retry: boolean;
  needs_human: boolean;
  should_skip: boolean;
  needs_sub_execution: boolean;
  needs_re_decide: boolean;
  needs_try_alternative: boolean;
  /** Integer milliseconds to wait before a retry (0 when a retry is not advised). */
  retry_delay_ms: number;
  confidence: number;
  tool_name: string;
  /** The failed step's index (0-based). */
  step: number;
  attempts: number;
  /** The HTTP status the tool's service answered, when it answered. */
  status_code?: number;
}

export interface CallClass {
  category: ErrorCategory;
  /** Worth another attempt now: timeouts, transport errors, HTTP 429 and 5xx. Other 4xx never are. */
  transient: boolean;
  statusCode?: number;
}

const TIMEOUT = /did not answer within|timed? ?out|timeout/i;

function statusCodeOf(result: unknown): number | undefined {
  const code = (result as { status_code?: unknown } | null | undefined)?.status_code;
  return typeof code === "number" && Number.isInteger(code) ? code : undefined;
}

/** What kind of failure a tool call's outcome is. */
export function classifyCall(run: Pick<ToolRun, "result" | "unhealthy" | "error">): CallClass {
  const statusCode = statusCodeOf(run.result);
  if (statusCode !== undefined) {
    if (statusCode === 429) return { category: "rate_limit", transient: true, statusCode };
    if (statusCode >= 500) return { category: "external", transient: true, statusCode };
    if (statusCode === 401 || statusCode === 403 || statusCode === 407) return { category: "auth", transient: false, statusCode };
    if (statusCode === 404 || statusCode === 410) return { category: "resource", transient: false, statusCode };
    if (statusCode === 408) return { category: "timeout", transient: false, statusCode };
    if (statusCode >= 400) return { category: "validation", transient: false, statusCode };
    return { category: "unknown", transient: false, statusCode };
  }
  // An MCP tool that answered with isError: it ran and said no; calling again is not a transport retry.
  if ((run.result as { is_error?: unknown } | null | undefined)?.is_error === true) return { category: "external", transient: false };
  // The runtime says the request itself was wrong (MCP invalid params, a path value that climbs out).
  if (!run.unhealthy) return { category: "validation", transient: false };
  const message = run.error ?? "";
  if (/credential/i.test(message)) return { category: "auth", transient: false };
  if (TIMEOUT.test(message)) return { category: "timeout", transient: true };
  return { category: "network", transient: true };
}

export type Failure =
  | { kind: "policy"; reason: string; policyName?: string; policy?: { id: string; version: number; clause: string } }
  | { kind: "missing_tool" }
  | { kind: "invalid_arguments"; problems: ErrorDetail[] }
  | { kind: "call"; run: Pick<ToolRun, "result" | "unhealthy" | "error" | "retryAfterMs">; retriesExhausted: boolean }
  | { kind: "internal"; message: string };

interface Where {
  tool: string;
  step: number;
  attempts: number;
  /** The delay a retry should wait at least (the first backoff step). */
  baseDelayMs: number;
}

function base(where: Where, fields: Omit<Diagnosis, "tool_name" | "step" | "attempts" | "should_skip" | "needs_sub_execution" | "needs_try_alternative" | "needs_re_decide" | "retry_delay_ms"> & Partial<Diagnosis>): Diagnosis {
  return {
    should_skip: false,
    needs_sub_execution: false,
    needs_re_decide: false,
    needs_try_alternative: false,
    retry_delay_ms: 0,
    ...fields,
    tool_name: where.tool,
    step: where.step,
    attempts: where.attempts,
  };
}

/** The diagnosis of a failed step. `needs_human` is what opens an escalation. */
export function diagnose(failure: Failure, where: Where): Diagnosis {
  const tool = where.tool;
  switch (failure.kind) {
    case "policy":
      return base(where, {
        error_category: "policy",
        semantic_reason: "blocked_by_policy",
        root_cause: failure.policyName ? `Policy "${failure.policyName}" blocks ${tool}: ${failure.reason}` : `Governance blocks ${tool}: ${failure.reason}`,
        recovery_strategy: "human_handoff",
        can_retry: false,
        needs_human: true,
        confidence: 1,
      });
    case "missing_tool":
      return base(where, {
        error_category: "capability",
        semantic_reason: "tool_not_connected",
        root_cause: `The workspace no longer has a tool named ${tool} (its connection was removed or re-imported).`,
        recovery_strategy: "reconfigure",
        can_retry: false,
        needs_human: true,
        needs_try_alternative: true,
        confidence: 0.95,
      });
    case "invalid_arguments": {
      const first = failure.problems[0];
      return base(where, {
        error_category: "validation",
        semantic_reason: "arguments_invalid",
        root_cause: `The arguments do not match ${tool}'s parameters${first ? `: ${first.field} ${first.message}` : ""}.`,
        recovery_strategy: "repair",
        can_retry: false,
        needs_human: false,
        needs_re_decide: true,
        confidence: 0.95,
      });
    }
    case "internal":
      return base(where, {
        error_category: "unknown",
        semantic_reason: "internal_error",
        root_cause: failure.message,
        recovery_strategy: "retry",
        can_retry: true,
        needs_human: false,
        retry_delay_ms: where.baseDelayMs,
        confidence: 0.3,
      });
    case "call":
      return diagnoseCall(failure.run, failure.retriesExhausted, where);
  }
}

function diagnoseCall(run: Pick<ToolRun, "result" | "unhealthy" | "error" | "retryAfterMs">, retriesExhausted: boolean, where: Where): Diagnosis {
  const tool = where.tool;
  const { category, statusCode } = classifyCall(run);
  const answered = statusCode !== undefined ? `answered HTTP ${statusCode}` : `failed (${run.error ?? "no reason given"})`;
  const tries = where.attempts > 1 ? ` after ${where.attempts} attempts` : "";
  const code = statusCode !== undefined ? { status_code: statusCode } : {};
  switch (category) {
    case "rate_limit":
      return base(where, {
        ...code,
        error_category: "rate_limit",
        semantic_reason: "rate_limited",
        root_cause: `${tool}'s service is rate limiting the calls (HTTP 429${tries}).`,
        recovery_strategy: "retry",
        can_retry: true,
        needs_human: false,
        retry_delay_ms: Math.round(Math.max(run.retryAfterMs ?? 0, where.baseDelayMs)),
        confidence: 0.95,
      });
    case "auth":
      return base(where, {
        ...code,
        error_category: "auth",
        semantic_reason: "credentials_rejected",
        root_cause: `${tool}'s service refused the credentials (${statusCode !== undefined ? `HTTP ${statusCode}` : run.error ?? "credential problem"}).`,
        recovery_strategy: "reconfigure",
        can_retry: false,
        needs_human: true,
        confidence: statusCode !== undefined ? 0.9 : 0.7,
      });
    case "resource":
      return base(where, {
        ...code,
        error_category: "resource",
        semantic_reason: "not_found",
        root_cause: `${tool}'s service ${answered}: what the arguments name does not exist.`,
        recovery_strategy: "repair",
        can_retry: false,
        needs_human: false,
        needs_re_decide: true,
        confidence: 0.85,
      });
    case "validation":
      return base(where, {
        ...code,
        error_category: "validation",
        semantic_reason: "request_rejected",
        root_cause: `${tool}'s service ${answered}: it rejected the request as sent.`,
        recovery_strategy: "repair",
        can_retry: false,
        needs_human: false,
        needs_re_decide: true,
        confidence: statusCode !== undefined ? 0.85 : 0.7,
      });
    case "timeout":
    case "network":
    case "external": {
      const toolSaidNo = statusCode === undefined && (run.result as { is_error?: unknown } | null)?.is_error === true;
      if (toolSaidNo) {
        return base(where, {
          error_category: "external",
          semantic_reason: "tool_reported_error",
          root_cause: `${tool} reported an error.`,
          recovery_strategy: "retry",
          can_retry: true,
          needs_human: false,
          needs_try_alternative: true,
          retry_delay_ms: where.baseDelayMs,
          confidence: 0.6,
        });
      }
      const what =
        category === "timeout" ? `did not answer in time${tries}` : category === "network" ? `could not be reached${tries} (${run.error ?? "transport error"})` : `${answered}${tries}`;
      return base(where, {
        ...code,
        error_category: category,
        semantic_reason: category === "external" ? "upstream_error" : category === "timeout" ? "upstream_timeout" : "upstream_unreachable",
        root_cause: `${tool}'s service ${what}${retriesExhausted ? "; the retries are exhausted" : ""}.`,
        // The service keeps failing: a person should look before anything runs again.
        recovery_strategy: retriesExhausted ? "human_handoff" : "retry",
        can_retry: true,
        needs_human: retriesExhausted,
        retry_delay_ms: where.baseDelayMs,
        confidence: category === "external" ? 0.9 : 0.75,
      });
    }
    default:
      return base(where, {
        ...code,
        error_category: "unknown",
        semantic_reason: "unexpected_answer",
        root_cause: `${tool}'s service ${answered}.`,
        recovery_strategy: "repair",
        can_retry: false,
        needs_human: false,
        confidence: 0.4,
      });
  }
}
