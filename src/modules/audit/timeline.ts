// A trail as one ordered list of events: the intelligence record, the audit entries, the execution and its
// steps, the escalations. Each event names its source and the record it comes from.
import type { TimelineEvent } from "./schemas.ts";
import { toWire } from "./schemas.ts";
import type { Trail } from "./service.ts";

const SOURCE_ORDER: Record<string, number> = { intelligence: 0, audit: 1, execution: 2, escalation: 3 };

interface StepFacts {
  tool?: string;
  status?: string;
  attempts?: number;
  error?: string | null;
  arguments?: Record<string, unknown>;
  started_at?: string | null;
  finished_at?: string | null;
  escalation_id?: string | null;
}

const clip = (text: string | null | undefined, max = 500) => (typeof text === "string" && text.length > max ? `${text.slice(0, max)}…` : (text ?? null));

export function timelineOf(trail: Trail): TimelineEvent[] {
  const events: TimelineEvent[] = [];
  const { intent, execution } = trail;

  if (intent) {
    const response = intent.response as { summary?: string; reason_code?: string; policy_id?: string; next_action?: unknown; intelligence?: { summary?: string } };
    events.push({
      at: intent.createdAt.toISOString(),
      source: "intelligence",
      type: "intent.decided",
      summary: `${intent.type} / ${intent.status}: ${response.intelligence?.summary ?? ""}`.trim(),
      ref: { type: "intent", id: intent.id },
      data: {
        intent_id: intent.id,
        type: intent.type,
        status: intent.status,
        decision: intent.decision,
        domain: intent.domain,
        confidence: intent.confidence,
        gaps: intent.gaps,
        reason_code: response.reason_code ?? null,
        policy_id: response.policy_id ?? null,
        next_action: response.next_action ?? null,
        execution_id: intent.executionId,
      },
    });
  }

  for (const entry of trail.entries) {
    const wire = toWire(entry);
    events.push({
      at: wire.created_at,
      source: "audit",
      type: wire.action,
      summary: `${wire.action} ${wire.resource_type}${wire.resource_id ? ` ${wire.resource_id}` : ""} by ${wire.actor}`,
      ref: { type: "audit_entry", id: wire.id },
      data: wire,
    });
  }

  if (execution) {
    const ref = { type: "execution", id: execution.id };
    events.push({ at: execution.createdAt.toISOString(), source: "execution", type: "execution.created", summary: `Execution created (${execution.status === "awaiting_approval" ? "waiting for approval" : "planned"})`, ref, data: { domain: execution.domain, steps: (execution.steps as unknown[]).length } });
    if (execution.startedAt) events.push({ at: execution.startedAt.toISOString(), source: "execution", type: "execution.started", summary: "Execution started", ref, data: {} });
    (execution.steps as StepFacts[]).forEach((step, index) => {
      const data = { step: index, tool: step.tool ?? null, status: step.status ?? null, attempts: step.attempts ?? 0, arguments: step.arguments ?? {}, error: clip(step.error), escalation_id: step.escalation_id ?? null };
      if (step.started_at) events.push({ at: step.started_at, source: "execution", type: "step_started", summary: `Step ${index + 1} (${step.tool}) started`, ref, data });
      if (step.finished_at) {
        const type = step.status === "succeeded" ? "step_completed" : step.status === "failed" ? "step_failed" : `step_${step.status}`;
        events.push({ at: step.finished_at, source: "execution", type, summary: `Step ${index + 1} (${step.tool}) ${step.status}${step.attempts ? ` after ${step.attempts} attempt(s)` : ""}`, ref, data });
      }
    });
    if (execution.finishedAt) {
      events.push({
        at: execution.finishedAt.toISOString(),
        source: "execution",
        type: `execution.${execution.status}`,
        summary: `Execution ${execution.status}${execution.error ? `: ${clip(execution.error, 200)}` : ""}`,
        ref,
        data: { status: execution.status, error: clip(execution.error), diagnosis: execution.diagnosis ?? null },
      });
    }
  }

  for (const escalation of trail.escalations) {
    const ref = { type: "escalation", id: escalation.id };
    events.push({
      at: escalation.createdAt.toISOString(),
      source: "escalation",
      type: "escalation.created",
      summary: `Escalation for ${escalation.toolName ?? "an action"}: ${clip(escalation.reason, 200)}`,
      ref,
      data: { status: escalation.status, category: escalation.category, severity: escalation.severity, tool_name: escalation.toolName, policy_id: escalation.policyId, policy_version: escalation.policyVersion, reason: escalation.reason, execution_id: escalation.executionId },
    });
    if (escalation.resolvedAt) {
      events.push({ at: escalation.resolvedAt.toISOString(), source: "escalation", type: "escalation.resolved", summary: `Escalation resolved: ${escalation.decision}`, ref, data: { status: escalation.status, decision: escalation.decision, resolved_by: escalation.resolvedBy, note: escalation.note } });
    }
  }

  // By time; at equal times the record first, then the audit (in chain order), the execution, the escalations.
  return events
    .map((event, index) => ({ event, index }))
    .sort((a, b) => a.event.at.localeCompare(b.event.at) || SOURCE_ORDER[a.event.source]! - SOURCE_ORDER[b.event.source]! || a.index - b.index)
    .map(({ event }) => event);
}
