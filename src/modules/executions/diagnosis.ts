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

/** A failure described from outside a run (POST /healing/diagnose): its text, and what the caller knows. */
export interface FailureReport {
  errorMessage: string;
  /** The caller's ErrorCategory, used when the text itself does not say (a status code always wins). */
  errorCategory?: string;
  toolName?: string;
}

const STATUS_IN_TEXT = /\b(?:HTTP(?:\/\d(?:\.\d)?)?|status(?: code)?|code)\s*:?\s*([1-5]\d\d)\b|\b([45]\d\d)\s+(?:too many requests|unauthori[sz]ed|forbidden|not found|bad request|internal server error|bad gateway|service unavailable|gateway time-?out|unprocessable)/i;
const RETRY_AFTER_IN_TEXT = /retry[- ]after\D{0,3}(\d+(?:\.\d+)?)\s*(ms|milliseconds?|s|sec|seconds?)?/i;
const KNOWN_CATEGORIES = new Set(["timeout", "rate_limit", "auth", "validation", "resource", "external", "network", "capability", "policy"]);

/**
 * The Failure a report describes, so that it is diagnosed by `diagnose` exactly as the runner diagnoses a
 * step (one implementation). Read in order: an HTTP status in the text (as the runner classifies the
 * service's answer), the runner's own messages (policy block, missing tool, invalid arguments), the words of
 * a transport failure, then the caller's category; anything else is an unknown failure.
 */
export function failureOfReport(report: FailureReport): Failure {
  const text = report.errorMessage;
  const status = STATUS_IN_TEXT.exec(text);
  const code = status ? Number(status[1] ?? status[2]) : undefined;
  const retryAfter = RETRY_AFTER_IN_TEXT.exec(text);
  const retryAfterMs = retryAfter ? Math.round(Number(retryAfter[1]) * (/^m/i.test(retryAfter[2] ?? "s") ? 1 : 1000)) : undefined;
  const call = (run: Pick<ToolRun, "result" | "unhealthy" | "error" | "retryAfterMs">): Failure => ({ kind: "call", run, retriesExhausted: /retries are exhausted|after \d+ attempts/i.test(text) });
  if (code !== undefined && code >= 400) return call({ result: { status_code: code }, unhealthy: code >= 500, error: text, ...(retryAfterMs !== undefined ? { retryAfterMs } : {}) });
  if (/blocked by policy|^blocked:|governance blocks/i.test(text)) return { kind: "policy", reason: text };
  if (/no tool "?[\w.-]+"? in this workspace|tool (?:is )?not (?:connected|found)/i.test(text)) return { kind: "missing_tool" };
  if (/arguments? (?:of [\w.-]+ )?(?:are|is) not valid|schema validation|does not match (?:the )?schema|must have required property|invalid (?:argument|parameter|params)/i.test(text)) {
    return { kind: "invalid_arguments", problems: [] };
  }
  if (/rate.?limit|too many requests/i.test(text)) return call({ result: { status_code: 429 }, unhealthy: true, error: text, ...(retryAfterMs !== undefined ? { retryAfterMs } : {}) });
  if (/unauthori[sz]ed|forbidden|credential|api key|invalid token|authentication/i.test(text)) return call({ result: null, unhealthy: true, error: /credential/i.test(text) ? text : `credential rejected: ${text}` });
  if (TIMEOUT.test(text) || /ETIMEDOUT/.test(text)) return call({ result: null, unhealthy: true, error: text });
  // The outbound client's own wording (src/http/outbound.ts) and the system's error codes.
  if (/ECONNREFUSED|ECONNRESET|ENOTFOUND|EAI_AGAIN|socket hang up|refused the connection|could not be (?:called|reached|resolved)|TLS certificate|network|fetch failed/i.test(text)) return call({ result: null, unhealthy: true, error: text });
  // The caller's category, when the text does not say: made into the failure the runner would have seen.
  switch (KNOWN_CATEGORIES.has(report.errorCategory ?? "") ? report.errorCategory : undefined) {
    case "timeout":
      return call({ result: null, unhealthy: true, error: `timed out: ${text}` });
    case "rate_limit":
      return call({ result: { status_code: 429 }, unhealthy: true, error: text });
    case "auth":
      return call({ result: null, unhealthy: true, error: `credential rejected: ${text}` });
    case "validation":
      return { kind: "invalid_arguments", problems: [] };
    case "resource":
      return call({ result: { status_code: 404 }, unhealthy: false, error: text });
    case "external":
      return call({ result: { status_code: 502 }, unhealthy: true, error: text });
    case "network":
      return call({ result: null, unhealthy: true, error: text });
    case "capability":
      return { kind: "missing_tool" };
    case "policy":
      return { kind: "policy", reason: text };
    default:
      return { kind: "internal", message: text };
  }
}
