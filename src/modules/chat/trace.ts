// The reasoning trace of a chat answer the intent engine did not make: an upstream model's answer, a
// summary of the client's tool results, a yes/no to a pending confirmation, a call forced by tool_choice.
// Same sections and field names as the engine's trace (src/engine/intent/trace.ts, the contract's
// "intelligence"), filled from what this turn did: the stages it went through, the memory given to the
// model, every governance verdict with the rule that decided, and what the caller can do next.
import { FIELD_STABILITY, TRACE_VERSION, type Gap, type NextAction, type Stage } from "../../engine/intent/trace.ts";
import type { GovernanceVerdict } from "../../engine/governance/action.ts";

export interface ChatTurnFacts {
  summary: string;
  startedAt: Date;
  durationMs: number;
  stages: Stage[];
  evidence: string[];
  gaps: Gap[];
  /** Offered tools (client and workspace), how many are healthy, the workspace's active integrations. */
  capability: { total: number; healthy: number; active: string[]; matches: number };
  memory: { healthy: boolean; queried: number; used: string[]; consulted: boolean };
  policiesActive: boolean;
  /** Every call governed this turn, in order. */
  verdicts: { tool: string; verdict: GovernanceVerdict }[];
  nextAction: NextAction;
}

/** The turn's decision: a block anywhere wins, then a confirmation asked, else approved. */
export function turnDecision(verdicts: ChatTurnFacts["verdicts"]): "approved" | "blocked" | "conditional" {
  if (verdicts.some((v) => v.verdict.decision === "blocked")) return "blocked";
  if (verdicts.some((v) => v.verdict.decision === "conditional")) return "conditional";
  return "approved";
}

export function chatTrace(facts: ChatTurnFacts): Record<string, unknown> {
  const decided = [...facts.verdicts].reverse().find((v) => v.verdict.decision !== "approved") ?? facts.verdicts.at(-1);
  const rulesFired = facts.verdicts.flatMap((v) => (v.verdict.policy ? [{ policy_id: v.verdict.policy.id, name: v.verdict.policy.name, version: v.verdict.policy.version, clause: v.verdict.policy.clause, certain: true, tool: v.tool }] : []));
  const decision = turnDecision(facts.verdicts);
  return {
    version: TRACE_VERSION,
    summary: facts.summary,
    capability: { total_available: facts.capability.total, healthy_count: facts.capability.healthy, active_integrations: facts.capability.active },
    reasoning: { capability_matches: facts.capability.matches, evidence: facts.evidence, gaps: facts.gaps.map((g) => g.reason) },
    memory: { healthy: facts.memory.healthy, knowledge_queried: facts.memory.queried, items_used: facts.memory.used },
    governance: {
      active: facts.policiesActive,
      decision,
      evaluated: facts.verdicts.length > 0,
      confidence: 1,
      ...(decision !== "approved" && decided?.verdict.policy ? { policy_id: decided.verdict.policy.id } : {}),
      rules_fired: rulesFired,
      reason: decided ? decided.verdict.reason : "No action to govern.",
    },
    humility: { gaps_detected: facts.gaps.length, blocking: facts.gaps.filter((g) => g.blocking).length, gaps: facts.gaps },
    process: {
      started_at: facts.startedAt.toISOString(),
      duration_ms: facts.durationMs,
      components: { memory: facts.memory.consulted, governance: facts.verdicts.length > 0, tools: facts.capability.total > 0 },
    },
    next_action: facts.nextAction,
    stages: facts.stages,
    field_stability: FIELD_STABILITY,
  };
}
