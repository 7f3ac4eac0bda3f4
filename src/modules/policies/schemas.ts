import { Offset } from "../../http/wire.ts";
import { Type, type Static } from "typebox";
import type { CompiledRule } from "../../engine/governance/compiled.ts";
import { restate } from "../../engine/governance/explain.ts";
import { bindingText, type Binding } from "../../engine/governance/bind.ts";
import { restatesBlock } from "../../engine/governance/parse.ts";
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

const BindingWire = Type.Object({
  text: Type.String({ description: "The binding in words: the battery is less than 15% → move_robot.battery (0–1); 15% = 0.15" }),
  condition: Type.String(),
  tool: Type.String(),
  parameters: Type.Array(Type.String(), { description: "The arguments the condition reads; several when it could mean any of them (then read the stricter way)" }),
  note: Type.Optional(Type.String({ description: "The rule's value in the argument's terms, its bounds, or what is read when no argument is" })),
  applies: Type.Boolean({ description: "False when the tool cannot carry what the condition names: it does not apply to that tool" }),
  ambiguous: Type.Boolean(),
  exception: Type.Boolean({ description: "The condition is an exception (unless …)" }),
});

const Clause = Type.Object({
  id: Type.String(),
  name: Type.String(),
  domain: Type.Union([Type.String(), Type.Null()]),
  priority: Type.Integer(),
  requires_human: Type.Boolean(),
  effect: Type.String(),
  rule: Type.String(),
  rationale: Type.String({ description: "The restatement of this rule, and its bindings to the workspace's tools when it has any" }),
  covers: Type.Optional(Type.Array(Type.String())),
  bindings: Type.Optional(Type.Array(BindingWire)),
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
  bindings: Type.Optional(Type.Array(Type.String(), { description: "Every rule's conditions bound to the covered tools' arguments, in words" })),
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
  return clauses.flatMap((c, i) => [
    ...(c.ignored && c.ignored.length > 0 ? [`Rule ${i + 1}: these words were not understood and are not part of the rule: "${c.ignored.join(" ")}". Rephrase them as a condition if they matter.`] : []),
    ...(c.notes ?? []).map((note) =>
      restatesBlock(note)
        ? `Rule ${i + 1}: "${note.slice(0, 200)}" says again that what the rule leaves out is blocked, which it is already; it is kept as a note and changes nothing.`
        : `Rule ${i + 1}: "${note.slice(0, 200)}" states no effect (block, require approval, allow), so it is kept as a note and changes nothing. If it is a rule of its own, say what should happen.`,
    ),
  ]);
}

/** A rule that covers none of the workspace's tools is accepted, and said so loudly. */
function coverageWarnings(view: PolicyView): string[] {
  if (!view.covers || !view.toolCount) return [];
  return view.covers.flatMap((covers, i) => (covers.length === 0 ? [`Rule ${i + 1} covers none of this workspace's ${view.toolCount} tools: it will not fire until a tool it names is connected (or check its wording).`] : []));
}

/**
 * A condition that could read several arguments of one tool has several readings: they are named to the
 * author before confirming. Evaluation reads all of them the stricter way (any of them for a condition
 * that restricts, all of them for an exception), so the choice is the author's, never a silent guess.
 */
function bindingWarnings(view: PolicyView): string[] {
  return (view.bindings ?? []).flatMap((clause, i) =>
    clause
      .filter((b) => b.applies && b.ambiguous)
      .map((b) => `Rule ${i + 1}: ${b.exception ? "the exception " : ""}"${b.condition}" could read ${b.parameters.map((p) => `${b.tool}.${p}`).join(" or ")}; it reads ${b.exception ? "all of them (it exempts only when every one does)" : "any of them (it fires when one does)"}. Name the argument to choose one.`),
  );
}

const bindingToWire = (b: Binding) => ({ text: bindingText(b), ...b });

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
    warnings: [...warningsOf(clauses), ...coverageWarnings(view), ...bindingWarnings(view)],
    ...(view.covers ? { covers: [...new Set(view.covers.flat())] } : {}),
    ...(view.bindings ? { bindings: view.bindings.flatMap((clause, i) => clause.map((b) => `Rule ${i + 1}: ${bindingText(b)}`)) } : {}),
    policies: clauses.map((c: CompiledRule, i) => ({
      id: `${row.id}:${i + 1}`,
      name: clauses.length === 1 ? row.name : `${row.name} #${i + 1}`,
      domain: c.actions.domain,
      priority: latest.priority,
      requires_human: c.effect === "require_approval",
      effect: c.effect,
      rule: c.source,
      rationale: view.bindings?.[i]?.length ? `${restate(c)} Bound: ${view.bindings[i]!.map(bindingText).join("; ")}.` : restate(c),
      ...(view.covers ? { covers: view.covers[i] ?? [] } : {}),
      ...(view.bindings ? { bindings: (view.bindings[i] ?? []).map(bindingToWire) } : {}),
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
