import { Type } from "typebox";
import type { EngineResult } from "../../engine/intent/engine.ts";
import { FIELD_STABILITY, TRACE_VERSION, type NextAction } from "../../engine/intent/trace.ts";
import { redactAction } from "../escalations/service.ts";

const Role = Type.Union([Type.Literal("user"), Type.Literal("assistant"), Type.Literal("system")]);

export const IntentBody = Type.Object({
  messages: Type.Array(Type.Object({ role: Role, content: Type.String({ maxLength: 20_000 }) }, { additionalProperties: true }), { minItems: 1, maxItems: 200 }),
  context: Type.Optional(
    Type.Object(
      {
        domain: Type.Optional(Type.String({ maxLength: 100 })),
        workspace_id: Type.Optional(Type.String({ maxLength: 100 })),
        constraints: Type.Optional(Type.Unknown()),
        existing_connectors: Type.Optional(Type.Array(Type.String())),
      },
      { additionalProperties: true },
    ),
  ),
  mode: Type.Optional(Type.Union([Type.Literal("auto"), Type.Literal("chat"), Type.Literal("execution")])),
  stream: Type.Optional(Type.Boolean()),
  conversation_id: Type.Optional(Type.String({ minLength: 1, maxLength: 200, pattern: "^[A-Za-z0-9_.:-]+$" })),
  dry_run: Type.Optional(Type.Boolean()),
  user_id: Type.Optional(Type.String({ maxLength: 200 })),
});

/** The answer's schema for the OpenAPI document; the body itself is written by intentToWire. */
export const IntentResponse = Type.Object(
  {
    id: Type.String(),
    type: Type.String({ description: "direct, clarify, execution, blocked or connect_required" }),
    status: Type.String({ description: "answered, needs_input, ready_to_execute, executing, blocked_by_policy, blocked_by_missing_connection or failed" }),
    next_action: Type.Object({ type: Type.String(), label: Type.String(), endpoint: Type.Optional(Type.String()) }, { additionalProperties: true }),
    message: Type.Object({}, { additionalProperties: true }),
    clarification: Type.Object({}, { additionalProperties: true }),
    execution: Type.Object({}, { additionalProperties: true }),
    trace_id: Type.String(),
  },
  { additionalProperties: true },
);

export type Gate = "ok" | "blocked" | "escalate" | "needs_input";

export interface WireContext {
  intentId: string;
  traceId: string;
  conversationId: string;
  domain: string | undefined;
  execution?: { id: string; status: string };
  escalationId?: string;
  dryRun: boolean;
}

const RUNTIME = "/api/v1/svc";

function summaryOf(result: EngineResult): string {
  const o = result.outcome;
  switch (o.type) {
    case "direct":
      return o.smallTalk ? "Small talk: answered directly." : o.answer.known ? `Answered from memory (${o.answer.used.join(", ")}).` : "Answered directly; nothing in memory covers the question.";
    case "clarify":
      return o.tool ? `${o.tool.name} needs ${o.questions.map((q) => q.field).join(", ")} before it can run.` : "The request fits more than one tool; asked which.";
    case "execution":
      return `Planned ${o.tool.name}; governance approved it.`;
    case "blocked":
      return o.conditional ? `${o.tool.name} needs human approval: ${o.verdict.policy?.name ?? "a policy"}.` : `${o.tool.name} is blocked by ${o.verdict.policy?.name ?? "governance"}.`;
    case "connect_required":
      return o.degraded ? `${o.tool?.name} is degraded.` : `${o.integration.name} must be connected first.`;
  }
}

/** The contract's intent response: every "always" field, the type/status pair, and the trace. */
export function intentToWire(result: EngineResult, ctx: WireContext): { body: Record<string, unknown>; gate: Gate; nextAction: NextAction } {
  const o = result.outcome;
  const type: string = o.type;
  let status: string;
  let gate: Gate;
  let nextAction: NextAction;
  const extra: Record<string, unknown> = {};
  let message: Record<string, unknown> = { role: "assistant", content: "" };
  let clarification: Record<string, unknown> = { questions: [], conversation_id: ctx.conversationId };
  let execution: Record<string, unknown> = {};
  const action = (tool: { name: string }, args: Record<string, unknown>) => ({ tool: tool.name, arguments: redactAction(args) as Record<string, unknown> });

  switch (o.type) {
    case "direct":
      status = "answered";
      gate = "ok";
      nextAction = { type: "none", label: "Nothing to do" };
      message = { role: "assistant", content: o.answer.content, metadata: { memory_ids: o.answer.used, known: o.answer.known } };
      break;
    case "clarify":
      status = "needs_input";
      gate = "needs_input";
      nextAction = { type: "provide_input", label: "Answer the questions in the same conversation_id", reason: "arguments are missing" };
      clarification = { questions: o.questions, conversation_id: ctx.conversationId, ...(o.tool ? { tool: o.tool.name } : {}) };
      message = { role: "assistant", content: o.questions.map((q) => q.question).join(" ") };
      if (o.tool) extra.action = action(o.tool, o.arguments);
      break;
    case "execution": {
      const executing = ctx.execution?.status === "running";
      status = executing ? "executing" : "ready_to_execute";
      gate = "ok";
      const id = ctx.execution?.id;
      nextAction =
        executing || !id
          ? { type: "track_execution", label: "Follow the execution", ...(id ? { endpoint: `${RUNTIME}/executions/${id}` } : {}) }
          : { type: "confirm_execution", label: `Confirm to run ${o.tool.name}`, endpoint: `${RUNTIME}/executions/${id}/confirm` };
      const steps = [action(o.tool, o.arguments)];
      execution = {
        ...(id ? { id, status: ctx.execution!.status, stream_url: `${RUNTIME}/executions/${id}/stream`, poll_url: `${RUNTIME}/executions/${id}`, confirm_url: `${RUNTIME}/executions/${id}/confirm` } : { id: null, status: "preview" }),
        steps,
      };
      extra.action = steps[0];
      extra.mission = execution;
      message = { role: "assistant", content: executing ? `Running ${o.tool.name}.` : `Ready to run ${o.tool.name}; confirm to start.` };
      break;
    }
    case "blocked": {
      status = "blocked_by_policy";
      gate = o.conditional ? "escalate" : "blocked";
      const reasonCode = o.conditional ? "conditional_approval_required" : "blocked_by_policy";
      const escalationId = o.verdict.escalationId;
      nextAction = o.conditional
        ? { type: "resolve_escalation", label: "A human must approve this action", ...(escalationId ? { endpoint: `${RUNTIME}/escalations/${escalationId}/resolve` } : {}), reason: o.verdict.reason }
        : { type: "none", label: "Blocked by policy; change the request or the policy", reason: o.verdict.reason };
      extra.reason_code = reasonCode;
      extra.policy_id = o.verdict.policy?.id ?? null;
      extra.reason = o.verdict.reason;
      extra.action = action(o.tool, o.arguments);
      if (escalationId) extra.escalation = { id: escalationId, status: "pending", url: `${RUNTIME}/escalations/${escalationId}` };
      if (ctx.execution) execution = { id: ctx.execution.id, status: ctx.execution.status, poll_url: `${RUNTIME}/executions/${ctx.execution.id}`, steps: [extra.action] };
      extra.meta = { governance: { decision: reasonCode, reason: o.verdict.policy?.id ?? o.verdict.reason, reason_code: reasonCode, policy_id: o.verdict.policy?.id ?? null } };
      message = { role: "assistant", content: o.verdict.reason };
      break;
    }
    case "connect_required": {
      status = "blocked_by_missing_connection";
      gate = "blocked";
      const endpoint = o.degraded ? `${RUNTIME}/connections` : `${RUNTIME}/connections/install`;
      nextAction = { type: "resolve_gap", label: o.degraded ? `Check the ${o.tool?.name} connection` : `Connect ${o.integration.name}`, endpoint, reason: o.reason };
      extra.endpoint = endpoint;
      extra.reason = o.reason;
      extra.integration = o.degraded ? { id: o.integration.id, name: o.integration.name, degraded: true } : { id: o.integration.id, name: o.integration.name, installed: o.installed };
      extra.mission = { id: null, status: "blocked", stream_url: endpoint };
      extra.meta = { governance: { decision: "connect_required", reason: o.reason } };
      message = { role: "assistant", content: o.reason };
      break;
    }
  }

  const g = result.governance;
  const intelligence = {
    version: TRACE_VERSION,
    summary: summaryOf(result),
    capability: { total_available: result.capability.total, healthy_count: result.capability.healthy, active_integrations: result.capability.active },
    reasoning: {
      capability_matches: result.capability.matches,
      evidence: result.evidence,
      gaps: result.gaps.map((x) => x.reason),
      turn: result.kind,
    },
    memory: { healthy: result.memory.healthy, knowledge_queried: result.memory.queried, items_used: result.memory.used },
    governance: {
      active: g.active,
      decision: g.decision ?? "approved",
      evaluated: g.decision !== undefined,
      confidence: g.confidence,
      ...(o.type === "blocked" ? { reason_code: extra.reason_code, policy_id: extra.policy_id } : {}),
      rules_fired: g.rulesFired,
      reason: g.verdict?.reason ?? "No action to govern.",
    },
    humility: {
      gaps_detected: result.gaps.length,
      blocking: result.gaps.filter((x) => x.blocking).length,
      gaps: result.gaps,
    },
    process: { started_at: result.startedAt.toISOString(), duration_ms: result.durationMs, components: { memory: result.memory.queried > 0 || result.stages.some((s) => s.name === "memory_lookup" && s.status !== "skipped"), governance: g.decision !== undefined, tools: result.capability.total > 0 } },
    next_action: nextAction,
    stages: result.stages,
    field_stability: FIELD_STABILITY,
  };

  return {
    gate,
    nextAction,
    body: {
      id: ctx.intentId,
      type,
      status,
      next_action: nextAction,
      message,
      clarification,
      execution,
      ...extra,
      conversation_id: ctx.conversationId,
      domain: ctx.domain ?? null,
      dry_run: ctx.dryRun,
      intelligence,
      trace_id: ctx.traceId,
    },
  };
}
