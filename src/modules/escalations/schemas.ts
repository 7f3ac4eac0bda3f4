import { Offset } from "../../http/wire.ts";
import { Type, type Static } from "typebox";
import { OPTIONAL_BODY } from "../../http/body.ts";
import { Pagination } from "../workspaces/schemas.ts";
import { ESCALATION_STATUSES } from "./service.ts";
import type { EscalationRow } from "./store.ts";

const nullable = <T extends ReturnType<typeof Type.String> | ReturnType<typeof Type.Integer>>(t: T) => Type.Union([t, Type.Null()]);

export const Escalation = Type.Object({
  id: Type.String(),
  status: Type.String({ description: "pending, resolved or rejected" }),
  category: Type.String(),
  severity: Type.String(),
  tool_name: nullable(Type.String()),
  intent: nullable(Type.String()),
  execution_id: nullable(Type.String()),
  action: Type.Object({}, { additionalProperties: true, description: "The governed action (secret-looking argument values withheld)" }),
  policy_id: nullable(Type.String()),
  policy_version: nullable(Type.Integer()),
  clause: nullable(Type.String()),
  reason: Type.String(),
  human_prompt: Type.String(),
  suggestions: Type.Array(Type.String()),
  created_at: Type.String({ format: "date-time" }),
  resolved_at: nullable(Type.String({ format: "date-time" })),
  resolved_by: nullable(Type.String()),
  resolution: nullable(Type.String()),
  decision: nullable(Type.String()),
  note: nullable(Type.String()),
});
export type Escalation = Static<typeof Escalation>;

export const EscalationList = Type.Object({
  escalations: Type.Array(Escalation),
  count: Type.Integer(),
  total: Type.Integer(),
  pagination: Pagination,
});

export const EscalationParams = Type.Object({ id: Type.String({ minLength: 1, maxLength: 100 }) });
export const EscalationListQuery = Type.Object({
  status: Type.Optional(Type.Union(ESCALATION_STATUSES.map((s) => Type.Literal(s)))),
  limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 500 })),
  offset: Type.Optional(Offset),
});
export const EscalationGetQuery = Type.Object({
  wait: Type.Optional(Type.Integer({ minimum: 0, maximum: 30, description: "Seconds to wait for a decision while the escalation is pending (long poll)" })),
});

/** Loose: a missing or unknown decision answers escalation_missing_decision, as the contract says. */
export const ResolveBody = Type.Object(
  {
    decision: Type.Optional(Type.Unknown()),
    resolution: Type.Optional(Type.Unknown({ description: "Older name of `decision`" })),
    note: Type.Optional(Type.Unknown()),
  },
  { [OPTIONAL_BODY]: true },
);

export function escalationToWire(row: EscalationRow): Escalation {
  return {
    id: row.id,
    status: row.status,
    category: row.category,
    severity: row.severity,
    tool_name: row.toolName,
    intent: row.intent,
    execution_id: row.executionId,
    action: row.action,
    policy_id: row.policyId,
    policy_version: row.policyVersion,
    clause: row.clause,
    reason: row.reason,
    human_prompt: row.humanPrompt,
    suggestions: row.status === "pending" ? ["auto", "abstain", "handoff"] : [],
    created_at: row.createdAt.toISOString(),
    resolved_at: row.resolvedAt?.toISOString() ?? null,
    resolved_by: row.resolvedBy,
    resolution: row.decision,
    decision: row.decision,
    note: row.note,
  };
}
