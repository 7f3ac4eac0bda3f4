import { Offset } from "../../http/wire.ts";
import { Type, type Static } from "typebox";
import type { CompiledRule } from "../../engine/governance/compiled.ts";
import { restate } from "../../engine/governance/explain.ts";
import { OPTIONAL_BODY } from "../../http/body.ts";
import { Pagination } from "../workspaces/schemas.ts";
import { clausesOf, type PolicyView } from "./service.ts";

/** Loose on purpose: the service answers with the contract's codes (policy_missing_name, policy_creation_failed). */
export const PolicyBody = Type.Object({
  name: Type.Optional(Type.Unknown()),
  rule: Type.Optional(Type.Unknown({ description: 'A sentence, e.g. "Block refunds over $500"; several may be separated by ";"' })),
  rules: Type.Optional(Type.Unknown({ description: "A list of sentences, or of {condition, effect} objects" })),
  domain: Type.Optional(Type.Unknown()),
  priority: Type.Optional(Type.Unknown()),
  severity: Type.Optional(Type.Unknown()),
  auto_draft: Type.Optional(Type.Unknown()),
  description: Type.Optional(Type.Unknown()),
});

export const ConfirmBody = Type.Object(
  { version: Type.Optional(Type.Unknown({ description: "The version to make active; the latest when absent" })) },
  { [OPTIONAL_BODY]: true },
);

export const PolicyParams = Type.Object({ id: Type.String({ minLength: 1, maxLength: 100 }) });
export const PolicyListQuery = Type.Object({
  limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 500 })),
  offset: Type.Optional(Offset),
});

const Clause = Type.Object({
  id: Type.String(),
  name: Type.String(),
  domain: Type.Union([Type.String(), Type.Null()]),
  priority: Type.Integer(),
  requires_human: Type.Boolean(),
  effect: Type.String(),
  rule: Type.String(),
  rationale: Type.String(),
  covers: Type.Optional(Type.Array(Type.String())),
});

const VersionSummary = Type.Object({
  version: Type.Integer(),
  status: Type.String({ description: "active, pending_confirmation or superseded" }),
  rules: Type.Array(Type.String()),
  restatement: Type.String(),
  created_at: Type.String({ format: "date-time" }),
  confirmed_at: Type.Union([Type.String({ format: "date-time" }), Type.Null()]),
});

export const Policy = Type.Object({
  id: Type.String(),
  name: Type.String(),
  version: Type.Integer({ description: "The newest version" }),
  active_version: Type.Union([Type.Integer(), Type.Null()]),
  pending_version: Type.Union([Type.Integer(), Type.Null()]),
  status: Type.String({ description: "pending_confirmation, active or disabled" }),
  confirmation_required: Type.Boolean(),
  approve_url: Type.String(),
  domain: Type.Union([Type.String(), Type.Null()]),
  priority: Type.Integer(),
  severity: Type.String(),
  requires_human: Type.Boolean(),
  rules: Type.Array(Type.String()),
  compiled: Type.Array(Type.Unknown()),
  restatement: Type.String(),
  warnings: Type.Array(Type.String({ description: "What the author should check: words not understood, a rule that covers no tool" })),
  covers: Type.Optional(Type.Array(Type.String(), { description: "The workspace's tools the newest version's rules cover (bound when read: tools added later are covered)" })),
  policies: Type.Array(Clause),
  versions: Type.Array(VersionSummary),
  created_at: Type.String({ format: "date-time" }),
  updated_at: Type.String({ format: "date-time" }),
});
export type Policy = Static<typeof Policy>;

export const PolicyList = Type.Object({
  policies: Type.Array(Policy),
  count: Type.Integer(),
  total: Type.Integer(),
  pagination: Pagination,
});

export const ConfirmResponse = Type.Object({
  ...Policy.properties,
  previous_version: Type.Union([Type.Integer(), Type.Null()]),
  already_active: Type.Boolean(),
  confirmed_at: Type.String({ format: "date-time" }),
});

export const EvaluateBody = Type.Object({
  action: Type.String({ minLength: 1, maxLength: 2000, description: "A tool name (refund_payment) or the action in words" }),
  domain: Type.Optional(Type.String({ maxLength: 100 })),
  context: Type.Optional(Type.Object({}, { additionalProperties: true, description: "Arguments and attributes; `now` (ISO time) stands in for the clock" })),
  policy_id: Type.Optional(Type.String({ maxLength: 100, description: "Evaluate one policy alone (a candidate version) instead of the active ones" })),
  version: Type.Optional(Type.Integer({ minimum: 1 })),
  record: Type.Optional(Type.Boolean({ description: "Count an approved evaluation toward rate rules (default true; never for a candidate policy_id)" })),
});

const PolicyRef = Type.Object({ id: Type.String(), name: Type.String(), version: Type.Integer(), clause: Type.String(), rule_index: Type.Integer(), effect: Type.String() });

export const EvaluateResponse = Type.Object({
  action: Type.String(),
  domain: Type.Union([Type.String(), Type.Null()]),
  decision: Type.String({ description: "approved, blocked or conditional" }),
  result: Type.Object({ type: Type.String(), confidence: Type.Number(), reason: Type.String() }),
  policy: Type.Union([PolicyRef, Type.Null()]),
  matched: Type.Array(Type.Object({ ...PolicyRef.properties, certain: Type.Boolean() })),
  unknowns: Type.Array(Type.String()),
  evaluated_rules: Type.Integer(),
  evaluated_at: Type.String({ format: "date-time" }),
});

/** Words a clause did not understand, said back so that nothing the author wrote is silently dropped. */
export function warningsOf(clauses: CompiledRule[]): string[] {
  return clauses.flatMap((c, i) => (c.ignored && c.ignored.length > 0 ? [`Rule ${i + 1}: these words were not understood and are not part of the rule: "${c.ignored.join(" ")}". Rephrase them as a condition if they matter.`] : []));
}

/** A rule that covers none of the workspace's tools is accepted, and said so loudly. */
function coverageWarnings(view: PolicyView): string[] {
  if (!view.covers || !view.toolCount) return [];
  return view.covers.flatMap((covers, i) => (covers.length === 0 ? [`Rule ${i + 1} covers none of this workspace's ${view.toolCount} tools: it will not fire until a tool it names is connected (or check its wording).`] : []));
}

export function policyToWire(view: PolicyView): Policy {
  const { row, versions } = view;
  const latest = versions[0]!;
  const clauses = clausesOf(latest);
  const requiresHuman = clauses.some((c) => c.effect === "require_approval");
  const pending = row.latestVersion !== row.activeVersion ? row.latestVersion : null;
  return {
    id: row.id,
    name: row.name,
    version: row.latestVersion,
    active_version: row.activeVersion,
    pending_version: pending,
    status: row.status,
    confirmation_required: pending !== null,
    approve_url: `/api/v1/svc/policies/${row.id}/confirm`,
    domain: latest.domain,
    priority: latest.priority,
    severity: latest.severity,
    requires_human: requiresHuman,
    rules: latest.rules,
    compiled: clauses,
    restatement: clauses.map(restate).join(" "),
    warnings: [...warningsOf(clauses), ...coverageWarnings(view)],
    ...(view.covers ? { covers: [...new Set(view.covers.flat())] } : {}),
    policies: clauses.map((c: CompiledRule, i) => ({
      id: `${row.id}:${i + 1}`,
      name: clauses.length === 1 ? row.name : `${row.name} #${i + 1}`,
      domain: c.actions.domain,
      priority: latest.priority,
      requires_human: c.effect === "require_approval",
      effect: c.effect,
      rule: c.source,
      rationale: restate(c),
      ...(view.covers ? { covers: view.covers[i] ?? [] } : {}),
    })),
    versions: versions.map((v) => ({
      version: v.version,
      status: v.version === row.activeVersion ? "active" : v.version > (row.activeVersion ?? 0) ? "pending_confirmation" : "superseded",
      rules: v.rules,
      restatement: clausesOf(v).map(restate).join(" "),
      created_at: v.createdAt.toISOString(),
      confirmed_at: v.confirmedAt?.toISOString() ?? null,
    })),
    created_at: row.createdAt.toISOString(),
    updated_at: row.updatedAt.toISOString(),
  };
}
