import { shortText } from "../../safe-json.ts";
import type { Clock } from "../../clock.ts";
import type { Database, Db } from "../../db/index.ts";
import type { CompiledRule, Effect, ParseFailure } from "../../engine/governance/compiled.ts";
import { RuleSet, type RuleRef } from "../../engine/governance/evaluate.ts";
import { restate } from "../../engine/governance/explain.ts";
import { bindRule, coverageCalls, type Binding } from "../../engine/governance/bind.ts";
import { otherwiseNeedsApproval, parseRule, restatesBlock, splitClauses } from "../../engine/governance/parse.ts";
import { AppError } from "../../errors/app-error.ts";
import type { Actor, AuditLog } from "../../events/audit.ts";
import type { Outbox } from "../../events/outbox.ts";
import type { Ids } from "../../ids.ts";
import {
  activeVersions,
  addVersion,
  getPolicy,
  insertPolicy,
  listPolicies,
  markConfirmed,
  setPolicyStatus,
  softDeletePolicy,
  versionsOf,
  type NewPolicyVersion,
  type PolicyRow,
  type PolicyVersionRow,
} from "./store.ts";

export const SEVERITIES = ["low", "medium", "high", "critical"] as const;
export type Severity = (typeof SEVERITIES)[number];
const MAX_CLAUSES = 50;
const POLICY_CHANNEL = "svc_policies";

/** What a client sends to create or update a policy; checked here so errors carry the contract's codes. */
export interface PolicyInput {
  name?: unknown;
  rule?: unknown;
  rules?: unknown;
  domain?: unknown;
  priority?: unknown;
  severity?: unknown;
  auto_draft?: unknown;
}

export interface PolicyView {
  row: PolicyRow;
  /** Newest first. */
  versions: PolicyVersionRow[];
  /**
   * Which of the workspace's tools each clause of the newest version covers, by name (computed when read,
   * so a rule is bound again whenever tools change); absent when the tools could not be listed.
   */
  covers?: string[][];
  /** How many tools the workspace has (a rule covering none of several is suspicious; of none, expected). */
  toolCount?: number;
  /** Per clause, each condition bound to the arguments of each tool the clause covers. */
  bindings?: Binding[][];
}

/** What the policies service needs to know of the workspace's tools, for bindings. */
export type ToolCatalog = (workspaceId: string) => Promise<{ name: string; description?: string; parameters?: Record<string, unknown> }[]>;

export interface ConfirmResult {
  view: PolicyView;
  version: number;
  previousVersion: number | null;
  alreadyActive: boolean;
  confirmedAt: Date;
}

export interface PolicyService {
  create(actor: Actor, input: PolicyInput): Promise<PolicyView>;
  update(actor: Actor, id: string, input: PolicyInput): Promise<PolicyView>;
  confirm(actor: Actor, id: string, version: unknown): Promise<ConfirmResult>;
  setEnabled(actor: Actor, id: string, enabled: boolean): Promise<PolicyView>;
  delete(actor: Actor, id: string): Promise<void>;
  get(workspaceId: string, id: string): Promise<PolicyView>;
  list(workspaceId: string, page: { limit: number; offset: number }): Promise<{ views: PolicyView[]; total: number }>;
  /** The compiled rules in force in a workspace, cached in memory and invalidated on every change. */
  ruleSet(workspaceId: string): Promise<RuleSet>;
  /** One version of one policy alone, to try a candidate before confirming it. */
  candidate(workspaceId: string, id: string, version: number | undefined): Promise<RuleSet>;
  start(): Promise<void>;
  stop(): Promise<void>;
}

const EFFECT_PHRASES: Record<string, string> = {
  block: "Block",
  deny: "Block",
  forbid: "Block",
  require_approval: "Require approval for",
  require_human_approval: "Require approval for",
  escalate: "Require approval for",
  allow: "Allow",
  permit: "Allow",
};
const EFFECT_OF_FIELD: Record<string, Effect> = {
  block: "block",
  deny: "block",
  forbid: "block",
  require_approval: "require_approval",
  require_human_approval: "require_approval",
  escalate: "require_approval",
  allow: "allow",
  permit: "allow",
};

// The parse failure's facts (unplaced words, suggestion) go inside `error`, beside a field-level detail.
function creationFailed(message: string, extra: Record<string, unknown>, field = "rule"): AppError {
  return new AppError("policy_creation_failed", { message, details: [{ field, message }], extra });
}

function clauseFailed(clause: string, index: number, error: ParseFailure): AppError {
  return creationFailed(`Rule ${index + 1} ("${clause.slice(0, 200)}") ${error.message}`, {
    rule: clause.slice(0, 500),
    rule_index: index,
    unplaced: error.unplaced,
    position: error.position,
    suggestion: error.suggestion,
    ...(error.candidates ? { candidates: error.candidates } : {}),
  });
}

/** One clause from a sentence, or from a rule object {condition, effect|action}. */
function compileClause(item: unknown, index: number): CompiledRule {
  if (typeof item === "string") {
    const parsed = parseRule(item);
    if (!parsed.ok) throw clauseFailed(item, index, parsed.error);
    return parsed.rule;
  }
  if (item && typeof item === "object" && !Array.isArray(item)) {
    const record = item as Record<string, unknown>;
    const text = record.condition ?? record.rule ?? record.text;
    const effectField = record.effect ?? record.action;
    if (typeof text !== "string" || text.trim() === "") {
      throw creationFailed(`Rule ${index + 1} has no text: send a sentence, or an object with \`condition\`.`, { rule_index: index });
    }
    if (effectField !== undefined && (typeof effectField !== "string" || !EFFECT_PHRASES[effectField])) {
      throw creationFailed(`Rule ${index + 1} has an unknown effect.`, { rule_index: index, allowed_effects: Object.keys(EFFECT_PHRASES) });
    }
    const own = parseRule(text);
    if (own.ok) {
      if (typeof effectField === "string" && EFFECT_OF_FIELD[effectField] !== own.rule.effect) {
        throw creationFailed(`Rule ${index + 1} says "${own.rule.effect}" in words but its effect field says "${effectField}".`, { rule_index: index });
      }
      return own.rule;
    }
    if (typeof effectField !== "string") throw clauseFailed(text, index, own.error);
    // "refunds over $500" with effect require_approval → "Require approval for refunds over $500".
    const sentence = `${EFFECT_PHRASES[effectField]} ${text.trim()}`;
    const combined = parseRule(sentence);
    if (!combined.ok) throw clauseFailed(sentence, index, combined.error);
    return combined.rule;
  }
  throw creationFailed(`Rule ${index + 1} is neither a sentence nor a rule object.`, { rule_index: index });
}

/**
 * The clauses of a policy. A sentence that states no effect at all, after a clause that blocks or asks for
 * approval ("…; larger extracts go through the data team"), is the author's explanation: it is kept as a
 * note of the clause before it (and said back as a warning) instead of refusing the policy, which would
 * leave the workspace without the rule. Anything else that does not parse still refuses it.
 */
function withNotes(items: unknown[]): CompiledRule[] {
  const clauses: CompiledRule[] = [];
  items.forEach((item, index) => {
    const previous = clauses.at(-1);
    if (typeof item === "string" && previous && previous.effect !== "allow") {
      // "Urgent and emergency repairs are exempt.": an exemption from the clause before, read as its "except".
      const exempted = exemptionOf(item);
      if (exempted) {
        const folded = parseRule(`${[previous.source, ...(previous.exemptions ?? []).map(exemptionOf)].join(", except ").replace(/[.!]+(?=,|$)/g, "")}, except ${exempted}`);
        if (folded.ok) {
          clauses[clauses.length - 1] = { ...folded.rule, source: previous.source, exemptions: [...(previous.exemptions ?? []), item.trim()], ...(previous.notes ? { notes: previous.notes } : {}) };
          return;
        }
      }
      // "X may only go to Y; any other addressee needs a sign-off": outside what the clause before allows, an
      // approval instead of its block.
      if (previous.effect === "block" && /\bonly\b/i.test(previous.source) && previous.unless && otherwiseNeedsApproval(item)) {
        clauses[clauses.length - 1] = { ...previous, effect: "require_approval", notes: [...(previous.notes ?? []), item.trim()] };
        return;
      }
      // "…; anything else is blocked": the clause before blocks it already.
      if (previous.effect === "block" && restatesBlock(item)) {
        clauses[clauses.length - 1] = { ...previous, notes: [...(previous.notes ?? []), item.trim()] };
        return;
      }
      const parsed = parseRule(item);
      if (!parsed.ok && isCommentary(parsed.error)) {
        clauses[clauses.length - 1] = { ...previous, notes: [...(previous.notes ?? []), item.trim()] };
        return;
      }
    }
    clauses.push(compileClause(item, index));
  });
  return clauses;
}

const isCommentary = (error: ParseFailure) => error.message.startsWith("expected an effect");

/** What a sentence exempts from the rule before it: "X is exempt", "X are excluded", "This rule does not apply to X". */
function exemptionOf(sentence: string | undefined): string | undefined {
  if (!sentence) return undefined;
  const text = sentence.trim().replace(/[.!]+$/, "");
  const subject = /^(?:but\s+)?(.{3,120}?)\s+(?:is|are)\s+(?:always\s+)?(?:exempt(?:ed)?|excluded|not covered(?:\s+by\s+(?:this|the)\s+(?:rule|policy))?)(?:\s+from\s+(?:this|the)\s+(?:rule|policy))?$/i.exec(text);
  const object = /^(?:this|the)\s+(?:rule|policy|limit|ban)\s+does\s+not\s+apply\s+to\s+(.{3,120})$/i.exec(text);
  return (subject ?? object)?.[1];
}

interface Draft {
  version: NewPolicyVersion;
  clauses: CompiledRule[];
}

function draft(input: PolicyInput, base: PolicyVersionRow | undefined, name: string, actor: Actor, at: Date): Draft {
  let items: unknown[];
  if (typeof input.rule === "string") items = splitClauses(input.rule);
  else if (Array.isArray(input.rules)) items = input.rules.flatMap((r) => (typeof r === "string" ? splitClauses(r) : [r]));
  else if (input.rule !== undefined || input.rules !== undefined) throw creationFailed("`rule` must be a sentence and `rules` a list.", {});
  else if (base) items = base.rules;
  else if (input.auto_draft === true) items = splitClauses(name);
  else throw creationFailed("The policy has no rule: send `rule` (a sentence) or `rules` (a list).", { suggestion: 'e.g. {"name": "refund limit", "rule": "Block refunds over $500"}' });
  if (items.length === 0) throw creationFailed("The policy has no rule.", {});
  if (items.length > MAX_CLAUSES) throw creationFailed(`A policy holds at most ${MAX_CLAUSES} rules.`, { count: items.length });
  const clauses = withNotes(items);

  const domain = input.domain === undefined ? (base?.domain ?? null) : input.domain;
  if (domain !== null && (typeof domain !== "string" || domain.length > 100)) throw creationFailed("`domain` must be a string.", {});
  const priority = input.priority === undefined ? (base?.priority ?? 0) : input.priority;
  if (typeof priority !== "number" || !Number.isInteger(priority) || Math.abs(priority) > 1000) throw creationFailed("`priority` must be an integer from -1000 to 1000.", {});
  const strictest = clauses.some((c) => c.effect === "block") ? "high" : clauses.some((c) => c.effect === "require_approval") ? "medium" : "low";
  const severity = input.severity === undefined || input.severity === null ? (base?.severity ?? strictest) : input.severity;
  if (typeof severity !== "string" || !(SEVERITIES as readonly string[]).includes(severity)) throw creationFailed(`\`severity\` must be one of ${SEVERITIES.join(", ")}.`, {});

  // A policy's domain scopes every clause that does not name its own.
  const scoped = clauses.map((c) => (domain && !c.actions.domain ? { ...c, actions: { ...c.actions, domain: domain.toLowerCase() } } : c));
  return {
    clauses: scoped,
    version: {
      // Every sentence as written, exemptions and notes included (read again, they find their clause again).
      rules: scoped.flatMap((c) => [c.source, ...(c.exemptions ?? []), ...(c.notes ?? [])]),
      compiled: scoped,
      domain: domain as string | null,
      priority,
      severity: severity as Severity,
      createdAt: at,
      createdBy: actor.id ?? actor.type,
    },
  };
}

export function clausesOf(version: PolicyVersionRow): CompiledRule[] {
  return version.compiled as CompiledRule[];
}

export function restatementOf(version: PolicyVersionRow): string {
  return clausesOf(version).map(restate).join(" ");
}

function nameOf(input: PolicyInput): string {
  if (typeof input.name !== "string" || input.name.trim() === "") {
    throw new AppError("policy_missing_name", { hint: 'Send {"name": "refund limit", "rule": "Block refunds over $500"}.' });
  }
  if (input.name.length > 200) throw creationFailed("The policy name is longer than 200 characters.", {});
  return input.name.trim();
}

/**
 * A new policy's name and rules, checked and parsed as create does (setup's dry run uses it); throws like
 * create. The duplicate-name check needs the database and is left to the caller.
 */
export function checkPolicy(input: PolicyInput, actor: Actor, at: Date): { name: string; clauses: CompiledRule[] } {
  const name = nameOf(input);
  return { name, clauses: draft(input, undefined, name, actor, at).clauses };
}

export function createPolicyService(deps: { database: Database; ids: Ids; clock: Clock; audit: AuditLog; outbox?: Outbox; tools?: ToolCatalog }): PolicyService {
  const { database, ids, clock, audit, outbox } = deps;

  /** The view with each clause's covered tools: the binding shown to the author. */
  async function withCoverage(workspaceId: string, view: PolicyView): Promise<PolicyView> {
    if (!deps.tools) return view;
    let tools;
    try {
      tools = await deps.tools(workspaceId);
    } catch {
      return view;
    }
    const latest = view.versions[0];
    if (!latest) return view;
    const bindings: Binding[][] = [];
    // Each tool's trial calls are made once per domain the clauses name, not once per clause.
    const now = clock.now();
    const callsByDomain = new Map<string, ReturnType<typeof coverageCalls>[]>();
    const callsFor = (domain: string | undefined) => {
      let calls = callsByDomain.get(domain ?? "");
      if (!calls) callsByDomain.set(domain ?? "", (calls = tools.map((t) => coverageCalls(t, { now, domain }))));
      return calls;
    };
    const covers = clausesOf(latest).map((rule, index) => {
      const set = new RuleSet([{ policyId: view.row.id, policyName: view.row.name, version: latest.version, priority: 0, index, rule }]);
      const calls = callsFor(rule.actions.domain ?? undefined);
      const covered = tools.filter((_, i) => calls[i]!.some((call) => set.covering(call).length > 0));
      bindings.push(covered.flatMap((t) => bindRule(rule, t)));
      return covered.map((t) => t.name);
    });
    return { ...view, covers, bindings, toolCount: tools.length };
  }
  const db = database.db;
  const cache = new Map<string, Promise<RuleSet>>();
  let unlisten: (() => Promise<void>) | undefined;
  let epoch = 0;

  async function changed(workspaceId: string): Promise<void> {
    epoch++;
    cache.delete(workspaceId);
    await database.notify(POLICY_CHANNEL, workspaceId);
  }

  async function load(tx: Db, workspaceId: string, id: string, forUpdate = false): Promise<PolicyView | undefined> {
    const row = await getPolicy(tx, workspaceId, id, forUpdate);
    if (!row) return undefined;
    return { row, versions: await versionsOf(tx, workspaceId, [id]) };
  }

  const notFound = (id: string) => new AppError("policy_not_found", { message: `No policy ${id.slice(0, 100)} in this workspace.` });

  const service: PolicyService = {
    create: async (actor, input) => {
      const name = nameOf(input);
      const at = clock.now();
      const { version } = draft(input, undefined, name, actor, at);
      const id = ids.make("pol");
      const view = await db.transaction(async (tx) => {
        const row = await insertPolicy(tx, actor.workspaceId, { id, name, createdAt: at }, version);
        if (!row) {
          throw creationFailed(`A policy named "${name.slice(0, 100)}" already exists in this workspace.`, { reason: "duplicate_name", name });
        }
        await audit.record(tx, actor, { action: "policy.create", resourceType: "policy", resourceId: id, details: { name, version: 1, rules: version.rules } });
        return (await load(tx, actor.workspaceId, id))!;
      });
      return withCoverage(actor.workspaceId, view);
    },

    update: async (actor, id, input) => {
      const at = clock.now();
      const view = await db.transaction(async (tx) => {
        const current = await load(tx, actor.workspaceId, id, true);
        if (!current) throw notFound(id);
        if (input.name !== undefined && input.name !== current.row.name) throw creationFailed("A policy's name cannot change; create a new policy instead.", { name: current.row.name });
        const { version } = draft(input, current.versions[0], current.row.name, actor, at);
        const next = current.row.latestVersion + 1;
        await addVersion(tx, actor.workspaceId, id, next, version, at);
        await audit.record(tx, actor, { action: "policy.update", resourceType: "policy", resourceId: id, details: { version: next, rules: version.rules } });
        return (await load(tx, actor.workspaceId, id))!;
      });
      return withCoverage(actor.workspaceId, view);
    },

    confirm: async (actor, id, versionInput) => {
      const at = clock.now();
      const result = await db.transaction(async (tx) => {
        const current = await load(tx, actor.workspaceId, id, true);
        if (!current) throw new AppError("policy_confirm_failed", { message: `No policy ${id.slice(0, 100)} in this workspace.`, extra: { policy_id: id.slice(0, 100) } });
        const version = versionInput === undefined || versionInput === null ? current.row.latestVersion : versionInput;
        if (typeof version !== "number" || !current.versions.some((v) => v.version === version)) {
          throw new AppError("policy_confirm_failed", {
            message: `Policy ${id} has no version ${shortText(version, 20)}; its versions are ${current.versions.map((v) => v.version).join(", ")}.`,
            extra: { policy_id: id, latest_version: current.row.latestVersion },
          });
        }
        const previous = current.row.activeVersion;
        const alreadyActive = previous === version && current.row.status === "active";
        if (!alreadyActive) {
          await markConfirmed(tx, actor.workspaceId, id, version, at, actor.id ?? actor.type);
          await audit.record(tx, actor, { action: "policy.confirm", resourceType: "policy", resourceId: id, details: { version, previous_version: previous } });
          await outbox?.emit(tx, actor.workspaceId, "policy.confirmed", { policy_id: id, name: current.row.name, version, previous_version: previous });
        }
        return { view: (await load(tx, actor.workspaceId, id))!, version, previousVersion: previous, alreadyActive, confirmedAt: at };
      });
      if (!result.alreadyActive) await changed(actor.workspaceId);
      return result;
    },

    setEnabled: async (actor, id, enabled) => {
      const at = clock.now();
      const view = await db.transaction(async (tx) => {
        const current = await load(tx, actor.workspaceId, id, true);
        if (!current) throw notFound(id);
        const status = !enabled ? "disabled" : current.row.activeVersion === null ? "pending_confirmation" : "active";
        if (status !== current.row.status) {
          await setPolicyStatus(tx, actor.workspaceId, id, status, at);
          await audit.record(tx, actor, { action: enabled ? "policy.enable" : "policy.disable", resourceType: "policy", resourceId: id, details: { status } });
        }
        return (await load(tx, actor.workspaceId, id))!;
      });
      await changed(actor.workspaceId);
      return view;
    },

    delete: async (actor, id) => {
      await db.transaction(async (tx) => {
        if (!(await softDeletePolicy(tx, actor.workspaceId, id, clock.now()))) throw notFound(id);
        await audit.record(tx, actor, { action: "policy.delete", resourceType: "policy", resourceId: id });
      });
      await changed(actor.workspaceId);
    },

    get: async (workspaceId, id) => {
      const view = await load(db, workspaceId, id);
      if (!view) throw notFound(id);
      return withCoverage(workspaceId, view);
    },

    list: async (workspaceId, page) => {
      const { rows, total } = await listPolicies(db, workspaceId, page);
      const versions = await versionsOf(db, workspaceId, rows.map((r) => r.id));
      return { views: rows.map((row) => ({ row, versions: versions.filter((v) => v.policyId === row.id) })), total };
    },

    ruleSet: (workspaceId) => {
      const hit = cache.get(workspaceId);
      if (hit) return hit;
      const started = epoch;
      const loading = activeVersions(db, workspaceId).then((rows) => {
        const refs: RuleRef[] = rows.flatMap(({ policy, version }) =>
          clausesOf(version).map((rule, index) => ({ policyId: policy.id, policyName: policy.name, version: version.version, priority: version.priority, index, rule })),
        );
        return new RuleSet(refs);
      });
      cache.set(workspaceId, loading);
      // A failed load is not remembered; neither is one that raced with a change.
      loading.then(
        () => {
          if (epoch !== started && cache.get(workspaceId) === loading) cache.delete(workspaceId);
        },
        () => {
          if (cache.get(workspaceId) === loading) cache.delete(workspaceId);
        },
      );
      return loading;
    },

    candidate: async (workspaceId, id, version) => {
      const view = await service.get(workspaceId, id);
      const chosen = version === undefined ? view.versions[0] : view.versions.find((v) => v.version === version);
      if (!chosen) throw new AppError("policy_not_found", { message: `Policy ${id} has no version ${version}.` });
      return new RuleSet(clausesOf(chosen).map((rule, index) => ({ policyId: id, policyName: view.row.name, version: chosen.version, priority: chosen.priority, index, rule })));
    },

    start: async () => {
      unlisten = await database.listen(POLICY_CHANNEL, (payload) => {
        epoch++;
        if (payload) cache.delete(payload);
        else cache.clear();
      });
    },

    stop: async () => {
      await unlisten?.();
    },
  };
  return service;
}
