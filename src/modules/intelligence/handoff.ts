// The hand-off packet (GET /intelligence/{id}/handoff): everything a human taking over a request needs on one
// page: what the system knew, what it did not know, what happened since, and what to do next. Built from the
// stored record (its full answer and trace, secrets already masked) and the trail joined to it.
import type { Trail } from "../audit/service.ts";
import type { IntentRow } from "../intent/store.ts";

const RUNTIME = "/api/v1/svc";

interface SuggestedAction {
  type: string;
  label: string;
  method?: "GET" | "POST";
  endpoint?: string;
  reason: string;
  body?: Record<string, unknown>;
}

interface Trace {
  summary?: string;
  capability?: { total_available?: number; healthy_count?: number; active_integrations?: string[] };
  reasoning?: { capability_matches?: number; evidence?: string[]; gaps?: string[] };
  memory?: { healthy?: boolean; knowledge_queried?: number; items_used?: string[] };
  governance?: { active?: boolean; decision?: string; confidence?: number; reason_code?: string; policy_id?: string | null; rules_fired?: unknown[]; reason?: string };
  humility?: { gaps_detected?: number; blocking?: number; gaps?: { kind?: string; field?: string; capability?: string; reason?: string; blocking?: boolean; severity?: string }[] };
  stages?: { name: string; status: string; detail?: string }[];
}

interface Answer {
  type?: string;
  status?: string;
  message?: { content?: string; metadata?: { memory_ids?: string[]; known?: boolean } };
  clarification?: { questions?: { field?: string; question?: string; options?: unknown[] }[]; tool?: string; conversation_id?: string };
  action?: { tool?: string; arguments?: Record<string, unknown> };
  integration?: { id?: string; name?: string; degraded?: boolean };
  reason_code?: string;
  policy_id?: string;
  reason?: string;
  conversation_id?: string;
  next_action?: Record<string, unknown>;
  intelligence?: Trace;
  // Chat records
  gate?: string;
  tool_calls?: string[];
  pending_actions?: string[];
}

export function handoffPacket(row: IntentRow, trail: Trail) {
  const answer = row.response as Answer;
  const trace: Trace = answer.intelligence ?? {};
  const request = row.request as { messages?: { role: string; content: string }[] };
  const lastUser = [...(request.messages ?? [])].reverse().find((m) => m.role === "user");
  const gaps = trace.humility?.gaps ?? [];
  const questions = answer.clarification?.questions ?? [];
  const execution = trail.execution;
  const steps = (execution?.steps ?? []) as { tool?: string; status?: string; attempts?: number; error?: string | null; escalation_id?: string | null }[];
  const pending = trail.escalations.filter((e) => e.status === "pending");
  const conversationId = answer.conversation_id ?? row.conversationId ?? undefined;

  const suggested: SuggestedAction[] = [];
  for (const escalation of pending) {
    suggested.push({
      type: "resolve_escalation",
      label: `Decide on the escalated ${escalation.toolName ?? "action"}`,
      method: "POST",
      endpoint: `${RUNTIME}/escalations/${escalation.id}/resolve`,
      reason: escalation.reason,
      body: { decision: "auto | abstain | handoff | escalate | clarify_requester | auto_complete", note: "why" },
    });
  }
  if (questions.length > 0) {
    suggested.push({
      type: "provide_input",
      label: `Provide ${questions.map((q) => q.field ?? "the answer").join(", ")}`,
      method: "POST",
      endpoint: `${RUNTIME}/intent`,
      reason: questions.map((q) => q.question).filter(Boolean).join(" ") || "The request is missing information.",
      ...(conversationId ? { body: { conversation_id: conversationId, messages: [{ role: "user", content: "<the missing values>" }] } } : {}),
    });
  }
  if (answer.type === "connect_required" && answer.integration) {
    suggested.push(
      answer.integration.degraded
        ? { type: "check_connection", label: `Check the ${answer.integration.name ?? answer.integration.id} connection`, method: "GET", endpoint: `${RUNTIME}/connections`, reason: answer.reason ?? "The tool is degraded." }
        : { type: "connect_tool", label: `Install ${answer.integration.name ?? answer.integration.id}`, method: "POST", endpoint: `${RUNTIME}/connections/install`, reason: answer.reason ?? "The integration is not connected.", body: { integration_id: answer.integration.id } },
    );
  }
  if (answer.reason_code === "blocked_by_policy" && answer.policy_id) {
    suggested.push({ type: "review_policy", label: "Review the policy that blocked the request", method: "GET", endpoint: `${RUNTIME}/policies/${answer.policy_id}`, reason: trace.governance?.reason ?? answer.reason ?? "A policy blocked the action." });
  }
  if (execution?.status === "ready") {
    suggested.push({ type: "confirm_execution", label: "Confirm the planned execution", method: "POST", endpoint: `${RUNTIME}/executions/${execution.id}/confirm`, reason: "The action was approved and waits for a confirmation." });
  }
  if (execution?.status === "failed") {
    const diagnosis = (execution.diagnosis ?? {}) as { error_category?: string; can_retry?: boolean; root_cause?: string };
    if (diagnosis.error_category === "auth") {
      suggested.push({ type: "check_auth", label: "Check the credential of the failing tool", method: "GET", endpoint: `${RUNTIME}/credentials`, reason: diagnosis.root_cause ?? execution.error ?? "The tool refused the credentials." });
    }
    suggested.push({
      type: "retry",
      label: "Ask again, so the request is decided and planned anew",
      method: "POST",
      endpoint: `${RUNTIME}/intent`,
      reason: `The execution failed: ${(diagnosis.root_cause ?? execution.error ?? "unknown error").slice(0, 300)}${diagnosis.can_retry === false ? " (the diagnosis says retrying as is will not help)" : ""}`,
      ...(conversationId ? { body: { conversation_id: conversationId } } : {}),
    });
  }
  if (gaps.some((g) => g.kind === "no_knowledge")) {
    suggested.push({ type: "add_memory", label: "Add the missing knowledge to memory", method: "POST", endpoint: `${RUNTIME}/memory`, reason: gaps.find((g) => g.kind === "no_knowledge")?.reason ?? "Memory did not cover the question." });
  }
  const nextAction = suggested[0] ? { type: suggested[0].type, label: suggested[0].label, endpoint: suggested[0].endpoint, reason: suggested[0].reason } : { type: "none", label: "Nothing is waiting on a human", reason: "The request was handled." };

  return {
    trace_id: row.traceId,
    intent_id: row.id,
    domain: row.domain,
    created_at: row.createdAt.toISOString(),
    governance: {
      active: trace.governance?.active ?? false,
      decision: trace.governance?.decision ?? row.decision,
      confidence: trace.governance?.confidence ?? row.confidence,
      reason_code: answer.reason_code ?? trace.governance?.reason_code ?? null,
      policy_id: answer.policy_id ?? trace.governance?.policy_id ?? null,
      reason: trace.governance?.reason ?? null,
      rules_fired: trace.governance?.rules_fired ?? [],
    },
    what_the_system_knew: {
      summary: trace.summary ?? null,
      request: { last_user_message: lastUser?.content ?? null, messages: request.messages?.length ?? 0, conversation_id: conversationId ?? null },
      matched_tools: [answer.action?.tool, answer.clarification?.tool, ...(answer.tool_calls ?? []), ...(answer.pending_actions ?? [])].filter((t, i, all): t is string => typeof t === "string" && all.indexOf(t) === i),
      capability_matches: trace.reasoning?.capability_matches ?? 0,
      action: answer.action ? { tool: answer.action.tool ?? null, arguments: answer.action.arguments ?? {} } : null,
      active_integrations: trace.capability?.active_integrations ?? [],
      memory: { knowledge_queried: trace.memory?.knowledge_queried ?? 0, items_used: trace.memory?.items_used ?? answer.message?.metadata?.memory_ids ?? [], healthy: trace.memory?.healthy ?? true },
      policies_fired: trace.governance?.rules_fired ?? [],
      evidence: trace.reasoning?.evidence ?? [],
    },
    what_the_system_didnt_know: {
      gaps,
      blocking_gaps: gaps.filter((g) => g.blocking).length,
      missing_arguments: [...new Set([...questions.map((q) => q.field), ...gaps.filter((g) => g.kind === "missing_argument").map((g) => g.field)].filter((f): f is string => typeof f === "string"))],
      questions: questions.map((q) => ({ field: q.field ?? null, question: q.question ?? null, ...(q.options ? { options: q.options } : {}) })),
      missing_integration: answer.type === "connect_required" && answer.integration ? { id: answer.integration.id ?? null, name: answer.integration.name ?? null, degraded: answer.integration.degraded ?? false } : null,
      unknowns: gaps.filter((g) => g.kind === "no_knowledge" || g.kind === "ambiguous_tool").map((g) => g.reason ?? ""),
    },
    what_happened: {
      type: row.type,
      status: row.status,
      decision: row.decision,
      answer: answer.message?.content ?? null,
      execution: execution
        ? {
            id: execution.id,
            status: execution.status,
            error: execution.error,
            diagnosis: execution.diagnosis ?? null,
            steps: steps.map((s, index) => ({ step: index, tool: s.tool ?? null, status: s.status ?? null, attempts: s.attempts ?? 0, error: s.error ?? null, escalation_id: s.escalation_id ?? null })),
            finished_at: execution.finishedAt?.toISOString() ?? null,
          }
        : null,
      escalations: trail.escalations.map((e) => ({ id: e.id, status: e.status, tool_name: e.toolName, policy_id: e.policyId, reason: e.reason, decision: e.decision, note: e.note, created_at: e.createdAt.toISOString(), resolved_at: e.resolvedAt?.toISOString() ?? null })),
      stages: (trace.stages ?? []).map((s) => ({ name: s.name, status: s.status, detail: s.detail ?? null })),
      audit: trail.entries.map((e) => ({ id: e.id, action: e.action, resource_type: e.resourceType, resource_id: e.resourceId, at: e.createdAt.toISOString() })),
    },
    suggested_actions: suggested,
    next_action: nextAction,
    requires_human: pending.length > 0 || questions.length > 0 || answer.type === "connect_required" || answer.type === "blocked" || execution?.status === "failed",
    trace_url: `${RUNTIME}/intelligence/${row.traceId}`,
    timeline_url: `${RUNTIME}/audit/timeline?trace_id=${encodeURIComponent(row.traceId)}`,
  };
}
