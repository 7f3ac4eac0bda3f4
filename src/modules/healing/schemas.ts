// Wire shapes of /api/v1/svc/healing (wire reference §4.14).
import { Offset } from "../../http/wire.ts";
import { Type, type Static } from "typebox";
import { OPTIONAL_BODY } from "../../http/body.ts";
import { Pagination } from "../workspaces/schemas.ts";
import type { PrecedentRow } from "./store.ts";

/** Loose on purpose: a missing `error_message` answers the contract's 500 diagnosis_failed, not a 400. */
export const DiagnoseBody = Type.Object(
  {
    error_message: Type.Optional(Type.Unknown()),
    error: Type.Optional(Type.Unknown({ description: "Older clients' name for error_message" })),
    error_category: Type.Optional(Type.Unknown()),
    tool_name: Type.Optional(Type.Unknown()),
    trace_id: Type.Optional(Type.Unknown()),
  },
  { additionalProperties: true, [OPTIONAL_BODY]: true },
);

const PrecedentEvidence = Type.Object({
  matched: Type.Integer({ description: "Precedents of this category (and tool, when same_tool)" }),
  successful: Type.Integer(),
  same_tool: Type.Boolean(),
  strategy: Type.Optional(Type.String({ description: "The recovery strategy that worked most often" })),
  what_worked: Type.Optional(Type.String()),
  example_ids: Type.Array(Type.String()),
});

export const HealingDiagnosis = Type.Object({
  error_category: Type.String(),
  semantic_reason: Type.String(),
  root_cause: Type.String(),
  recovery_strategy: Type.String(),
  diagnosed_strategy: Type.String({ description: "The strategy the failure itself suggests, before precedents" }),
  can_retry: Type.Boolean(),
  needs_sub_execution: Type.Boolean(),
  needs_human: Type.Boolean(),
  should_skip: Type.Boolean(),
  needs_re_decide: Type.Boolean(),
  needs_try_alternative: Type.Boolean(),
  retry_delay_ms: Type.Integer(),
  confidence: Type.Number(),
  tool_name: Type.Union([Type.String(), Type.Null()]),
  status_code: Type.Optional(Type.Integer()),
  trace_id: Type.Union([Type.String(), Type.Null()]),
  precedents: PrecedentEvidence,
});
export type HealingDiagnosis = Static<typeof HealingDiagnosis>;

export const HealingPrecedent = Type.Object({
  id: Type.String(),
  error_type: Type.String(),
  success: Type.Boolean(),
  attempts: Type.Integer(),
  confidence: Type.Number(),
  tool_name: Type.Union([Type.String(), Type.Null()]),
  error_category: Type.String(),
  semantic_reason: Type.String(),
  root_cause: Type.String(),
  recovery_strategy: Type.String(),
  what_worked: Type.Union([Type.String(), Type.Null()]),
  what_failed: Type.String(),
  duration_ms: Type.Union([Type.Integer(), Type.Null()]),
  source: Type.String({ description: "execution (recorded by the runner) or promoted" }),
  execution_id: Type.Union([Type.String(), Type.Null()]),
  trace_id: Type.Union([Type.String(), Type.Null()]),
  recovered_by: Type.Union([Type.String(), Type.Null()]),
  domain: Type.Union([Type.String(), Type.Null()]),
  tags: Type.Array(Type.String()),
  created_at: Type.String({ format: "date-time" }),
  recovered_at: Type.Union([Type.String({ format: "date-time" }), Type.Null()]),
});
export type HealingPrecedent = Static<typeof HealingPrecedent>;

export const PrecedentQuery = Type.Object({
  tool_name: Type.Optional(Type.String({ maxLength: 64 })),
  error_category: Type.Optional(Type.String({ maxLength: 40 })),
  success: Type.Optional(Type.Boolean()),
  limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 200 })),
  offset: Type.Optional(Offset),
});

export const PrecedentList = Type.Object({ precedents: Type.Array(HealingPrecedent), count: Type.Integer(), total: Type.Integer(), pagination: Pagination });

const CategoryStats = Type.Object({ diagnosed: Type.Integer(), precedents: Type.Integer(), recovered: Type.Integer() });

export const HealingStats = Type.Object({
  total_precedents: Type.Integer(),
  successful_recoveries: Type.Integer(),
  failed_recoveries: Type.Integer(),
  success_rate: Type.Number(),
  avg_duration_ms: Type.Integer(),
  common_strategies: Type.Array(Type.Object({ strategy: Type.String(), count: Type.Integer() })),
  top_tools: Type.Array(
    Type.Object({ tool_name: Type.String(), total: Type.Integer(), successful: Type.Integer(), failed: Type.Integer(), success_rate: Type.Number(), top_strategy: Type.Optional(Type.String()) }),
  ),
  by_category: Type.Record(Type.String(), CategoryStats),
  diagnoses_window_days: Type.Integer(),
  time_range: Type.Object({ first_precedent: Type.Optional(Type.String()), last_precedent: Type.Optional(Type.String()) }),
});
export type HealingStats = Static<typeof HealingStats>;

export function toWire(row: PrecedentRow): HealingPrecedent {
  return {
    id: row.id,
    error_type: row.errorType,
    success: row.success,
    attempts: row.attempts,
    confidence: row.confidence,
    tool_name: row.toolName,
    error_category: row.errorCategory,
    semantic_reason: row.errorType,
    root_cause: row.rootCause,
    recovery_strategy: row.recoveryStrategy,
    what_worked: row.whatWorked,
    what_failed: row.whatFailed,
    duration_ms: row.durationMs,
    source: row.source,
    execution_id: row.executionId,
    trace_id: row.traceId,
    recovered_by: row.recoveredBy,
    domain: row.domain,
    tags: [row.errorCategory, ...(row.toolName ? [row.toolName] : [])],
    created_at: row.createdAt.toISOString(),
    recovered_at: row.recoveredAt?.toISOString() ?? null,
  };
}
