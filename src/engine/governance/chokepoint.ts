// The one governance chokepoint. Every path that could run a tool hands the structured action here and
// obeys the verdict. Fail closed: any error while deciding (a policy load, an evaluation, an escalation
// write) yields `blocked`. Only the structured action is read: conversation text never reaches a rule, so
// "ignore previous policies" in a message is just text.
import type { FastifyBaseLogger } from "fastify";
import type { Clock } from "../../clock.ts";
import type { Db } from "../../db/index.ts";
import type { Actor } from "../../events/audit.ts";
import type { GovernedAction, GovernanceVerdict } from "./action.ts";
import { prepareAction, type Decision, type RuleSet } from "./evaluate.ts";
import { describeCondition, restate } from "./explain.ts";
import { pruneGovernedActions, recentGovernedActions, recordGovernedAction } from "./history.ts";

/** What governance needs from the rest of the service, wired by buildApp (the engine imports no module). */
export interface GovernancePorts {
  /** The compiled rules in force in a workspace. */
  ruleSet(workspaceId: string): Promise<RuleSet>;
  /** Opens a human approval for a conditional action; answers its id. */
  escalate(caller: Actor, request: { toolName: string; action: { tool: string; arguments: Record<string, unknown>; domain: string | null }; policy?: { id: string; name: string; version: number; clause: string }; reason: string; humanPrompt: string }): Promise<{ id: string }>;
  /** Writes a governance decision to the audit log (its own transaction). */
  audit?(caller: Actor, entry: { action: string; resourceType: string; resourceId: string; details: Record<string, unknown> }): Promise<void>;
}

// Rate rules look at most this many earlier actions; more than that in a window is already over any limit
// a person would write.
const HISTORY_LIMIT = 10_000;
// The history kept: the longest window a rule can name ("per week"), and a day more.
const HISTORY_RETENTION_MS = 8 * 86_400_000;
const PRUNE_EVERY = 100;

export interface Governance {
  /** The gate before a tool runs: approvals are recorded (rate rules), conditional opens an escalation. */
  govern(action: GovernedAction): Promise<GovernanceVerdict>;
  /**
   * The gate when an action is planned but not run yet (the intent engine): the same decision and
   * escalation, nothing recorded as done. `certainOnly` ignores rules that fire only because a value is
   * still missing (the caller will ask for it, and the action is governed again with it).
   */
  review(action: GovernedAction, options?: { certainOnly?: boolean; escalate?: boolean }): Promise<GovernanceVerdict & { decision_detail?: Decision }>;
  /**
   * Records an action that runs without a fresh approval from the rules: one a human approved (an
   * escalation resolved), or a client tool call approved in chat. Rate rules count it like any other.
   */
  record(action: GovernedAction): Promise<void>;
  /** Decides without side effects (no escalation, no history): the evaluate endpoint and replays. */
  dryRun(set: RuleSet, action: Omit<GovernedAction, "caller"> & { workspaceId: string }, options?: { record?: boolean }): Promise<Decision>;
}

/** Plain words for a decision: what fired, and what was missing when the rule fired on a missing value. */
export function explainDecision(decision: Decision): string {
  const fired = decision.fired;
  if (!fired) return decision.matched.length === 0 ? "No active policy applies to this action." : "Allowed by policy.";
  const rule = fired.ref.rule;
  const verb = decision.decision === "blocked" ? "Blocked" : decision.decision === "conditional" ? "Needs human approval" : "Allowed";
  let text = `${verb} by policy "${fired.ref.policyName}" (version ${fired.ref.version}, rule ${fired.ref.index + 1}: "${rule.source}").`;
  if (rule.when) text += ` Condition: ${describeCondition(rule.when)}.`;
  if (!fired.certain && decision.unknowns.length > 0) text += ` The action does not say ${decision.unknowns.join(", ")}, so the rule applies (fail closed).`;
  return text;
}

export function createGovernance(deps: {
  db: Db;
  clock: Clock;
  ports: GovernancePorts;
  log: FastifyBaseLogger;
  /** Told each verdict of the gates (metrics): `run` before a tool runs, `plan` when the intent engine plans one. */
  onVerdict?: (decision: GovernanceVerdict["decision"], gate: "run" | "plan") => void;
}): Governance {
  const { db, clock, ports, log } = deps;
  let approvals = 0;

  async function decide(set: RuleSet, workspaceId: string, action: Omit<GovernedAction, "caller">): Promise<Decision> {
    const now = action.now ?? clock.now();
    const history = set.hasRates ? await recentGovernedActions(db, workspaceId, new Date(now.getTime() - set.maxWindowSeconds * 1000), HISTORY_LIMIT) : undefined;
    return set.decide(prepareAction({ tool: action.tool, description: action.description, domain: action.domain, args: action.arguments ?? {}, ...(action.parameters ? { params: action.parameters } : {}), ...(action.choices ? { choices: action.choices } : {}), now, history }));
  }

  /**
   * A verdict given (before a tool runs, or when the engine plans one) is an audit entry: decision, policy,
   * version and clause. If it cannot be written the action is blocked: what cannot be proven does not run.
   */
  async function audited<V extends GovernanceVerdict>(action: GovernedAction, verdict: V, gateName: "run" | "plan", detail: Decision | undefined): Promise<V | GovernanceVerdict> {
    if (!ports.audit) return verdict;
    try {
      await ports.audit(action.caller, {
        action: `governance.${verdict.decision}`,
        resourceType: "tool",
        resourceId: action.tool.slice(0, 200),
        details: {
          gate: gateName,
          decision: verdict.decision,
          ...(verdict.policy ? { policy_id: verdict.policy.id, policy_name: verdict.policy.name, policy_version: verdict.policy.version, clause: verdict.policy.clause } : {}),
          ...(detail?.fired ? { certain: detail.fired.certain } : {}),
          ...(verdict.escalationId ? { escalation_id: verdict.escalationId } : {}),
          ...(action.domain ? { domain: action.domain } : {}),
        },
      });
      return verdict;
    } catch (error) {
      log.error({ err: error, workspace_id: action.caller.workspaceId, tool: action.tool }, "the governance decision could not be audited; the action is blocked");
      return { decision: "blocked", reason: "The governance decision could not be written to the audit log, so the action is blocked (fail closed). Retry." };
    }
  }

  async function gate(action: GovernedAction, mode: { record: boolean; certainOnly: boolean; escalate: boolean }): Promise<GovernanceVerdict & { decision_detail?: Decision }> {
    const workspaceId = action.caller.workspaceId;
    try {
      const set = await ports.ruleSet(workspaceId);
      let decision = await decide(set, workspaceId, action);
      if (mode.certainOnly && decision.fired && !decision.fired.certain) {
        const certain = decision.matched.filter((m) => m.certain);
        const first = certain[0];
        const effect = first?.ref.rule.effect;
        decision = { ...decision, fired: first, matched: certain, decision: !first ? "approved" : effect === "block" ? "blocked" : effect === "require_approval" ? "conditional" : "approved" };
      }
      const reason = explainDecision(decision);
      const fired = decision.fired;
      const policy = fired && { id: fired.ref.policyId, name: fired.ref.policyName, version: fired.ref.version, clause: fired.ref.rule.source };
      if (decision.decision === "approved") {
        // History is kept only while a rate rule is active: a write per action is not paid for nothing.
        if (mode.record && set.hasRates) await recordGovernedAction(db, workspaceId, action.tool, action.now ?? clock.now(), action.arguments);
        if (mode.record && ++approvals % PRUNE_EVERY === 0) await pruneGovernedActions(db, workspaceId, new Date(clock.now().getTime() - Math.max(HISTORY_RETENTION_MS, (set.maxWindowSeconds + 86_400) * 1000)));
        return { decision: "approved", reason, ...(policy ? { policy } : {}), decision_detail: decision };
      }
      if (decision.decision === "blocked" || !mode.escalate) return { decision: decision.decision, reason, policy, decision_detail: decision };
      const escalation = await ports.escalate(action.caller, {
        toolName: action.tool,
        action: { tool: action.tool, arguments: action.arguments, domain: action.domain ?? null },
        policy,
        reason,
        humanPrompt: `Approve "${action.tool}"? ${fired ? restate(fired.ref.rule) : ""}`.trim(),
      });
      return { decision: "conditional", reason, policy, escalationId: escalation.id, decision_detail: decision };
    } catch (error) {
      log.error({ err: error, workspace_id: workspaceId, tool: action.tool }, "governance failed; the action is blocked");
      return { decision: "blocked", reason: "Governance could not decide on this action, so it is blocked (fail closed). Retry, or check the policies." };
    }
  }

  return {
    record: async (action) => {
      const workspaceId = action.caller.workspaceId;
      const set = await ports.ruleSet(workspaceId);
      if (set.hasRates) await recordGovernedAction(db, workspaceId, action.tool, action.now ?? clock.now(), action.arguments);
    },
    dryRun: async (set, action, options = {}) => {
      const decision = await decide(set, action.workspaceId, action);
      // An evaluation counts toward rate rules when asked to (the evaluate endpoint, by default): a client
      // that asks before each call is governed by "at most 5 exports a day" as one that calls.
      if (options.record && decision.decision === "approved" && set.hasRates) await recordGovernedAction(db, action.workspaceId, action.tool, action.now ?? clock.now(), action.arguments);
      return decision;
    },
    govern: async (action) => {
      const { decision_detail: detail, ...verdict } = await gate(action, { record: true, certainOnly: false, escalate: true });
      deps.onVerdict?.(verdict.decision, "run");
      return audited(action, verdict, "run", detail);
    },
    review: async (action, options = {}) => {
      const verdict = await gate(action, { record: false, certainOnly: options.certainOnly ?? false, escalate: options.escalate ?? true });
      // A review that opens no escalation is a reading (assessment, chat's trial decisions), not a verdict given.
      if (options.escalate === false) return verdict;
      deps.onVerdict?.(verdict.decision, "plan");
      return audited(action, verdict, "plan", verdict.decision_detail);
    },
  };
}
