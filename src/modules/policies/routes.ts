// /api/v1/svc/policies: the natural-language policies of a workspace. Literal paths (evaluate) are matched
// before {id}. Creating or updating writes a version that governs nothing until it is confirmed.
import { explainDecision, type Governance } from "../../engine/governance/chokepoint.ts";
import { tokenize } from "../../engine/language/tokens.ts";
import { AppError } from "../../errors/app-error.ts";
import { actorOf, workspaceIdOf, type App } from "../../http/types.ts";
import { Deleted } from "../../http/wire.ts";
import {
  ConfirmBody,
  ConfirmResponse,
  EvaluateBody,
  EvaluateResponse,
  Policy,
  PolicyBody,
  PolicyList,
  PolicyListQuery,
  PolicyParams,
  policyToWire,
} from "./schemas.ts";
import type { PolicyService } from "./service.ts";

const tags = ["policies"];
const writeErrors = ["policy_missing_name", "policy_creation_failed"] as const;
// The wire's GovernanceDecisionType for each decision: approved runs on its own, conditional goes to a
// human, blocked is declined.
const RESULT_TYPE = { approved: "auto", conditional: "escalate", blocked: "abstain" } as const;

export function registerPolicyRoutes(app: App, deps: { policies: PolicyService; governance: Governance }): void {
  const { policies, governance } = deps;

  app.post(
    "/api/v1/svc/policies",
    {
      config: { errors: [...writeErrors] },
      schema: { tags, summary: "Create a policy from a sentence (pending until confirmed)", body: PolicyBody, response: { 201: Policy } },
    },
    async (request, reply) => reply.code(201).send(policyToWire(await policies.create(actorOf(request), request.body ?? {}))),
  );

  app.get(
    "/api/v1/svc/policies",
    { schema: { tags, summary: "List policies", querystring: PolicyListQuery, response: { 200: PolicyList } } },
    async (request) => {
      const limit = request.query.limit ?? 100;
      const offset = request.query.offset ?? 0;
      const { views, total } = await policies.list(workspaceIdOf(request.principal), { limit, offset });
      return { policies: views.map(policyToWire), count: views.length, total, pagination: { limit, offset, has_more: offset + views.length < total } };
    },
  );

  app.post(
    "/api/v1/svc/policies/evaluate",
    {
      config: { errors: ["policy_evaluation_failed", "policy_not_found"], idempotent: false },
      schema: { tags, summary: "Decide on an action without executing it", body: EvaluateBody, response: { 200: EvaluateResponse } },
    },
    async (request) => {
      const workspaceId = workspaceIdOf(request.principal);
      const { action, domain, policy_id: policyId, version } = request.body;
      const { now: nowText, ...context } = (request.body.context ?? {}) as Record<string, unknown>;
      let now = new Date();
      if (nowText !== undefined) {
        now = new Date(typeof nowText === "string" ? nowText : Number.NaN);
        if (Number.isNaN(now.getTime())) throw new AppError("invalid_request", { details: [{ field: "context.now", message: "an ISO 8601 time" }] });
      }
      // An action described in words carries its amount in the words ("refund $900").
      const money = tokenize(action).find((t) => t.kind === "money");
      const written = money?.kind === "money" ? { value: money.value, currency: money.currency } : undefined;
      const args = written && !Object.keys(context).some((k) => /amount|total|price|value|sum/i.test(k)) ? { ...context, amount: written.value, currency: written.currency } : context;
      let set, decision;
      try {
        set = policyId ? await policies.candidate(workspaceId, policyId, version) : await policies.ruleSet(workspaceId);
        decision = await governance.dryRun(set, { workspaceId, tool: action, arguments: args, domain, now }, { record: !policyId && request.body.record !== false });
      } catch (error) {
        if (error instanceof AppError) throw error;
        // A stored rule that cannot be compiled or evaluated: say so, and approve nothing.
        throw new AppError("policy_evaluation_failed", { message: "The policies could not be evaluated for this action; it is not approved.", cause: error });
      }
      const toRef = (o: NonNullable<typeof decision.fired>) => ({
        id: o.ref.policyId,
        name: o.ref.policyName,
        version: o.ref.version,
        clause: o.ref.rule.source,
        rule_index: o.ref.index,
        effect: o.ref.rule.effect,
      });
      // Deterministic rules decide with certainty; a free-text action that matched nothing may have been missed.
      const exactTool = /^[A-Za-z0-9_.-]+$/.test(action);
      const confidence = decision.fired ? (decision.fired.certain ? 1 : 0.9) : exactTool ? 1 : 0.8;
      return {
        action,
        domain: domain ?? null,
        decision: decision.decision,
        result: { type: RESULT_TYPE[decision.decision], confidence, reason: explainDecision(decision) },
        policy: decision.fired ? toRef(decision.fired) : null,
        matched: decision.matched.map((m) => ({ ...toRef(m), certain: m.certain })),
        unknowns: decision.unknowns,
        evaluated_rules: set.size,
        evaluated_at: now.toISOString(),
      };
    },
  );

  app.get(
    "/api/v1/svc/policies/:id",
    { config: { errors: ["policy_not_found"] }, schema: { tags, summary: "Get a policy with its versions", params: PolicyParams, response: { 200: Policy } } },
    async (request) => policyToWire(await policies.get(workspaceIdOf(request.principal), request.params.id)),
  );

  app.patch(
    "/api/v1/svc/policies/:id",
    {
      config: { errors: ["policy_not_found", ...writeErrors] },
      schema: { tags, summary: "Write a new version (the active one rules until it is confirmed)", params: PolicyParams, body: PolicyBody, response: { 200: Policy } },
    },
    async (request) => {
      const view = await policies.update(actorOf(request), request.params.id, request.body ?? {});
      return { ...policyToWire(view), status: "pending_confirmation" };
    },
  );

  app.post(
    "/api/v1/svc/policies/:id/confirm",
    {
      config: { errors: ["policy_confirm_failed"] },
      schema: { tags, summary: "Make a version active", params: PolicyParams, body: ConfirmBody, response: { 200: ConfirmResponse } },
    },
    async (request) => {
      const result = await policies.confirm(actorOf(request), request.params.id, request.body?.version);
      return {
        ...policyToWire(result.view),
        version: result.version,
        previous_version: result.previousVersion,
        already_active: result.alreadyActive,
        confirmed_at: result.confirmedAt.toISOString(),
      };
    },
  );

  for (const [verb, enabled] of [["disable", false], ["enable", true]] as const) {
    app.post(
      `/api/v1/svc/policies/:id/${verb}`,
      {
        config: { errors: ["policy_not_found"] },
        schema: { tags, summary: enabled ? "Enable a policy (its active version rules again)" : "Disable a policy (it stops ruling)", params: PolicyParams, response: { 200: Policy } },
      },
      async (request) => policyToWire(await policies.setEnabled(actorOf(request), request.params.id, enabled)),
    );
  }

  app.delete(
    "/api/v1/svc/policies/:id",
    { config: { errors: ["policy_not_found"] }, schema: { tags, summary: "Delete a policy", params: PolicyParams, response: { 200: Deleted } } },
    async (request) => {
      await policies.delete(actorOf(request), request.params.id);
      return { id: request.params.id, status: "deleted" as const };
    },
  );
}
