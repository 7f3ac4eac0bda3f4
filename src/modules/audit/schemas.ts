// Wire shapes of the audit read API (/api/v1/svc/audit). An entry carries every field its hash covers, so an
// export can be verified without the service (docs/audit.md gives the recipe).
import { Type, type Static } from "typebox";
import { canonicalJson } from "../../canonical-json.ts";
import type { AuditEntry as AuditRow } from "../../events/audit.ts";

export const MAX_LIMIT = 500;
export const MAX_OFFSET = 100_000;
const ACTOR_TYPES = ["key", "operator", "system"] as const;

const Text = (maxLength: number) => Type.Optional(Type.String({ minLength: 1, maxLength }));

/** The filters every listing route (entries, stats, export) accepts. */
const FilterFields = {
  actor: Type.Optional(Type.String({ minLength: 1, maxLength: 200, description: "An API key id, or `operator` / `system`" })),
  actor_type: Type.Optional(Type.Union(ACTOR_TYPES.map((t) => Type.Literal(t)))),
  action: Type.Optional(Type.String({ minLength: 1, maxLength: 100, pattern: "^[A-Za-z0-9_.:-]+\\*?$", description: "Exact, or a prefix ending in `*` (`policy.*`)" })),
  resource_type: Text(100),
  resource_id: Text(200),
  trace_id: Text(200),
  from: Type.Optional(Type.String({ format: "date-time", description: "Inclusive" })),
  to: Type.Optional(Type.String({ format: "date-time", description: "Exclusive" })),
};

export const AuditQuery = Type.Object({
  ...FilterFields,
  limit: Type.Optional(Type.Integer({ minimum: 1, maximum: MAX_LIMIT })),
  offset: Type.Optional(Type.Integer({ minimum: 0, maximum: MAX_OFFSET })),
  cursor: Type.Optional(Type.String({ minLength: 1, maxLength: 40, pattern: "^[0-9]+$", description: "`pagination.next_cursor` of the previous page" })),
  order: Type.Optional(Type.Union([Type.Literal("desc"), Type.Literal("asc")])),
});
export type AuditQuery = Static<typeof AuditQuery>;

export const StatsQuery = Type.Object({ ...FilterFields });
export const ExportQuery = Type.Object({ ...FilterFields });
export type AuditFilterQuery = Static<typeof StatsQuery>;

export const TimelineQuery = Type.Object({ execution_id: Text(200), trace_id: Text(200) });

export const AuditEntry = Type.Object({
  id: Type.String(),
  workspace_id: Type.String(),
  seq: Type.Integer({ description: "Position in the workspace's chain, from 1" }),
  action: Type.String(),
  type: Type.String({ description: "The action again, for clients that read `type`" }),
  actor: Type.String({ description: "`key:<key id>`, `operator` or `system`" }),
  actor_type: Type.String(),
  actor_id: Type.Union([Type.String(), Type.Null()]),
  resource_type: Type.String(),
  resource_id: Type.Union([Type.String(), Type.Null()]),
  resource: Type.Object({ type: Type.String(), id: Type.Union([Type.String(), Type.Null()]) }),
  trace_id: Type.Union([Type.String(), Type.Null()]),
  detail: Type.Record(Type.String(), Type.Unknown(), { description: "Non-secret facts about the change" }),
  details: Type.String({ description: "`detail` as canonical JSON text (clients that decode a string)" }),
  timestamp: Type.String({ format: "date-time" }),
  created_at: Type.String({ format: "date-time" }),
  prev_hash: Type.String(),
  hash: Type.String(),
});
export type AuditEntryWire = Static<typeof AuditEntry>;

export const AuditList = Type.Object({
  entries: Type.Array(AuditEntry),
  count: Type.Integer(),
  total: Type.Integer({ description: "Entries matching the filters" }),
  pagination: Type.Object({
    limit: Type.Integer(),
    offset: Type.Integer(),
    has_more: Type.Boolean(),
    next_cursor: Type.Union([Type.String(), Type.Null()]),
  }),
});

const Counts = Type.Record(Type.String(), Type.Integer());

export const AuditStats = Type.Object({
  total: Type.Integer(),
  first_at: Type.Union([Type.String(), Type.Null()]),
  last_at: Type.Union([Type.String(), Type.Null()]),
  by_action: Counts,
  by_resource_type: Counts,
  by_actor: Counts,
  by_actor_type: Counts,
  per_day: Type.Array(Type.Object({ date: Type.String({ description: "UTC day, YYYY-MM-DD" }), count: Type.Integer() })),
});

export const VerifyResult = Type.Object({
  valid: Type.Boolean(),
  entries_checked: Type.Integer(),
  first_bad: Type.Optional(
    Type.Object({
      id: Type.Union([Type.String(), Type.Null()], { description: "null when the entry is missing from the end of the chain" }),
      seq: Type.Integer(),
      reason: Type.String({ description: "seq_gap, prev_hash_mismatch, hash_mismatch, end_mismatch (the entry where the log recorded its chain's end has another hash: the chain was rebuilt) or tail_missing (entries up to the recorded end are gone)" }),
    }),
  ),
  head: Type.Union([Type.Object({ seq: Type.Integer(), hash: Type.String() }), Type.Null()], { description: "The last entry checked: keep it to detect a truncated tail later" }),
});
export type VerifyResult = Static<typeof VerifyResult>;

export const TimelineEvent = Type.Object({
  at: Type.String({ format: "date-time" }),
  source: Type.String({ description: "audit, intelligence, execution or escalation" }),
  type: Type.String(),
  summary: Type.String(),
  ref: Type.Object({ type: Type.String(), id: Type.String() }),
  data: Type.Record(Type.String(), Type.Unknown()),
});
export type TimelineEvent = Static<typeof TimelineEvent>;

export const Timeline = Type.Object({
  trace_id: Type.Union([Type.String(), Type.Null()]),
  execution_id: Type.Union([Type.String(), Type.Null()]),
  intent_id: Type.Union([Type.String(), Type.Null()]),
  events: Type.Array(TimelineEvent),
  count: Type.Integer(),
});

export const actorLabel = (row: Pick<AuditRow, "actorType" | "actorId">): string => (row.actorType === "key" ? `key:${row.actorId ?? "unknown"}` : row.actorType);

export function toWire(row: AuditRow): AuditEntryWire {
  const at = row.createdAt.toISOString();
  return {
    id: row.id,
    workspace_id: row.workspaceId,
    seq: row.seq,
    action: row.action,
    type: row.action,
    actor: actorLabel(row),
    actor_type: row.actorType,
    actor_id: row.actorId,
    resource_type: row.resourceType,
    resource_id: row.resourceId,
    resource: { type: row.resourceType, id: row.resourceId },
    trace_id: row.traceId,
    detail: row.details,
    details: canonicalJson(row.details),
    timestamp: at,
    created_at: at,
    prev_hash: row.prevHash,
    hash: row.hash,
  };
}
