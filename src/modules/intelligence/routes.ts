// /api/v1/svc/intelligence: the record of every intent request (its full answer and trace), listed and
// counted, and replayed against today's tools, memory and policies. Literal paths (stats) before {id}.
import { Offset } from "../../http/wire.ts";
import { Type } from "typebox";
import { canonicalJson } from "../../canonical-json.ts";
import { AppError } from "../../errors/app-error.ts";
import { actorOf, workspaceIdOf, type App } from "../../http/types.ts";
import type { IntentRequest, IntentService } from "../intent/service.ts";
import type { RecordWriter } from "../intent/records.ts";
import type { ChatRequest, ChatService, PendingConfirmation } from "../chat/service.ts";
import { executionOfIntent, findIntent, intentStats, listIntents, type IntentRow } from "../intent/store.ts";
import type { Db } from "../../db/index.ts";
import type { Clock } from "../../clock.ts";
import { Pagination } from "../workspaces/schemas.ts";
import { OPTIONAL_BODY } from "../../http/body.ts";
import type { PromotionService } from "./promotion.ts";
import type { AuditService } from "../audit/service.ts";
import { handoffPacket } from "./handoff.ts";

const tags = ["intelligence"];

const TraceEntry = Type.Object(
  {
    id: Type.String(),
    trace_id: Type.String(),
    type: Type.String(),
    status: Type.String(),
    decision: Type.String(),
    domain: Type.Union([Type.String(), Type.Null()]),
    request_path: Type.String(),
    request_method: Type.String(),
    conversation_id: Type.Union([Type.String(), Type.Null()]),
    execution_id: Type.Union([Type.String(), Type.Null()]),
    execution: Type.Optional(Type.Union([Type.Object({}, { additionalProperties: true }), Type.Null()])),
    meta: Type.Unknown({ description: "The intelligence trace (IntelligenceMeta)" }),
    response: Type.Optional(Type.Unknown({ description: "The whole answer as it was sent (GET by id)" })),
    created_at: Type.String({ format: "date-time" }),
  },
  { additionalProperties: true },
);

function entry(row: IntentRow, withResponse: boolean) {
  const response = row.response as Record<string, unknown>;
  return {
    id: row.id,
    trace_id: row.traceId,
    type: row.type,
    status: row.status,
    decision: row.decision,
    domain: row.domain,
    request_path: String((row.request as { path?: string }).path ?? "/api/v1/svc/intent"),
    request_method: "POST",
    conversation_id: row.conversationId,
    execution_id: row.executionId,
    meta: response.intelligence ?? null,
    ...(withResponse ? { response } : {}),
    created_at: row.createdAt.toISOString(),
  };
}

const gateOf = (response: Record<string, unknown>) => {
  const status = response.status;
  if (status === "needs_input") return "needs_input";
  if (status === "blocked_by_policy") return response.reason_code === "conditional_approval_required" ? "escalate" : "blocked";
  if (status === "blocked_by_missing_connection") return "blocked";
  return "ok";
};

function actionOf(response: Record<string, unknown>): string {
  const action = response.action as { tool?: string; arguments?: unknown } | undefined;
  // Stored records come back from jsonb with their keys reordered: compare in canonical form.
  return action?.tool ? `${action.tool} ${canonicalJson(action.arguments ?? {})}` : "no action";
}

export function registerIntelligenceRoutes(app: App, deps: { db: Db; clock: Clock; intents: IntentService; records: RecordWriter; chat: ChatService; audit: AuditService }): void {
  const { db, clock, intents } = deps;

  app.get(
    "/api/v1/svc/intelligence",
    {
      config: { errors: ["invalid_request"] },
      schema: {
        tags,
        summary: "List intelligence records, newest first",
        querystring: Type.Object({
          domain: Type.Optional(Type.String({ maxLength: 100 })),
          decision: Type.Optional(Type.String({ maxLength: 40 })),
          type: Type.Optional(Type.String({ maxLength: 40 })),
          from: Type.Optional(Type.String({ format: "date-time" })),
          to: Type.Optional(Type.String({ format: "date-time" })),
          limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 200 })),
          offset: Type.Optional(Offset),
        }),
        response: { 200: Type.Object({ traces: Type.Array(TraceEntry), count: Type.Integer(), total: Type.Integer(), pagination: Pagination }) },
      },
    },
    async (request) => {
      const q = request.query;
      const limit = q.limit ?? 10;
      const offset = q.offset ?? 0;
      await deps.records.flush();
      const { rows, total } = await listIntents(db, workspaceIdOf(request.principal), {
        domain: q.domain,
        decision: q.decision,
        type: q.type,
        from: q.from ? new Date(q.from) : undefined,
        to: q.to ? new Date(q.to) : undefined,
        limit,
        offset,
      });
      return { traces: rows.map((r) => entry(r, false)), count: rows.length, total, pagination: { limit, offset, has_more: offset + rows.length < total } };
    },
  );

  app.get(
    "/api/v1/svc/intelligence/stats",
    {
      schema: {
        tags,
        summary: "Counts of intelligence records",
        response: {
          200: Type.Object({
            traces_24h: Type.Integer(),
            traces_7d: Type.Integer(),
            traces_30d: Type.Integer(),
            avg_confidence_by_domain: Type.Record(Type.String(), Type.Number()),
            gap_detection_rate: Type.Number(),
            governance_decisions: Type.Record(Type.String(), Type.Integer()),
          }),
        },
      },
    },
    async (request) => {
      await deps.records.flush();
      const { row, byDecision, byDomain } = await intentStats(db, workspaceIdOf(request.principal), clock.now());
      const d30 = Number(row?.d30 ?? 0);
      return {
        traces_24h: Number(row?.d1 ?? 0),
        traces_7d: Number(row?.d7 ?? 0),
        traces_30d: d30,
        avg_confidence_by_domain: Object.fromEntries(byDomain.map((d) => [d.domain ?? "general", Math.round(Number(d.confidence) * 1000) / 1000])),
        gap_detection_rate: d30 === 0 ? 0 : Math.round((Number(row?.withGaps ?? 0) / d30) * 1000) / 1000,
        governance_decisions: Object.fromEntries(byDecision.map((d) => [d.decision, Number(d.n)])),
      };
    },
  );

  app.get(
    "/api/v1/svc/intelligence/:id",
    {
      config: { errors: ["intelligence_not_found"] },
      schema: { tags, summary: "One intelligence record, by intent id or trace id", params: Type.Object({ id: Type.String({ minLength: 1, maxLength: 100 }) }), response: { 200: TraceEntry } },
    },
    async (request) => {
      const workspaceId = workspaceIdOf(request.principal);
      await deps.records.flush();
      const row = await findIntent(db, workspaceId, request.params.id);
      if (!row) throw new AppError("intelligence_not_found", { message: `No intelligence record ${request.params.id.slice(0, 100)} in this workspace.` });
      // What became of the planned action: the record shows a failed execution with its diagnosis.
      const execution = row.executionId ? await executionOfIntent(db, workspaceId, row.executionId) : undefined;
      return {
        ...entry(row, true),
        execution: execution ? { id: execution.id, status: execution.status, error: execution.error, diagnosis: execution.diagnosis ?? null, finished_at: execution.finishedAt?.toISOString() ?? null } : null,
      };
    },
  );

  app.get(
    "/api/v1/svc/intelligence/:id/handoff",
    {
      config: { errors: ["intelligence_not_found", "audit_timeline_failed"] },
      schema: {
        tags,
        summary: "What a human taking over the request needs: what was known, what was not, what happened, what to do",
        params: Type.Object({ id: Type.String({ minLength: 1, maxLength: 100 }) }),
        response: { 200: Type.Object({ trace_id: Type.String(), intent_id: Type.String(), suggested_actions: Type.Array(Type.Object({}, { additionalProperties: true })), next_action: Type.Object({}, { additionalProperties: true }) }, { additionalProperties: true }) },
      },
    },
    async (request) => {
      const workspaceId = workspaceIdOf(request.principal);
      await deps.records.flush();
      const row = await findIntent(db, workspaceId, request.params.id);
      if (!row) throw new AppError("intelligence_not_found", { message: `No intelligence record ${request.params.id.slice(0, 100)} in this workspace.` });
      return handoffPacket(row, await deps.audit.trail(workspaceId, { traceId: row.traceId }));
    },
  );

  app.post(
    "/api/v1/svc/intelligence/:id/replay",
    {
      config: { errors: ["intelligence_not_found"], idempotent: false },
      schema: {
        tags,
        summary: "Decide the recorded request again against today's tools, memory and policies (a dry run)",
        params: Type.Object({ id: Type.String({ minLength: 1, maxLength: 100 }) }),
        body: Type.Object({ mode: Type.Optional(Type.Union([Type.Literal("current"), Type.Literal("historical")])) }, { [OPTIONAL_BODY]: true }),
        response: { 200: Type.Object({}, { additionalProperties: true }) },
      },
    },
    async (request) => {
      const actor = actorOf(request);
      await deps.records.flush();
      const row = await findIntent(db, actor.workspaceId, request.params.id);
      if (!row) throw new AppError("intelligence_not_found", { message: `No intelligence record ${request.params.id.slice(0, 100)} in this workspace.` });
      if (row.type === "chat") return replayChat(actor, row, request.id, request.body?.mode ?? "current");
      const stored = row.request as { messages: IntentRequest["messages"]; context?: IntentRequest["context"]; mode?: IntentRequest["mode"] };
      const original = row.response as Record<string, unknown>;
      // A dry run: nothing is escalated, executed or remembered; the conversation as it was recorded.
      const again = await intents.handle(actor, { messages: stored.messages, context: stored.context, mode: stored.mode, dry_run: true }, { traceId: request.id, path: "replay", record: false });
      const current = again.body;
      const originalTrace = original.intelligence as { governance?: { confidence?: number } } | undefined;
      const currentTrace = current.intelligence as { governance?: { confidence?: number }; capability?: unknown; memory?: unknown; humility?: unknown };
      const changes: string[] = [];
      if (original.type !== current.type || original.status !== current.status) changes.push(`decision ${original.type}/${original.status} → ${current.type}/${current.status}`);
      if (actionOf(original) !== actionOf(current)) changes.push(`action ${actionOf(original)} → ${actionOf(current)}`);
      if ((original.policy_id ?? null) !== (current.policy_id ?? null)) changes.push(`policy ${original.policy_id ?? "none"} → ${current.policy_id ?? "none"}`);
      const originalGate = gateOf(original);
      const currentGate = gateOf(current);
      return {
        trace_id: row.traceId,
        intent_id: row.id,
        mode: request.body?.mode ?? "current",
        domain: row.domain,
        original_gate: originalGate,
        original_confidence: originalTrace?.governance?.confidence ?? 1,
        current_gate: currentGate,
        current_confidence: currentTrace?.governance?.confidence ?? 1,
        gate_changed: originalGate !== currentGate,
        changed: changes.length > 0,
        change_summary: changes.length > 0 ? changes.join("; ") : "Same decision as recorded.",
        why: changes.length > 0 ? String((currentTrace as { summary?: string }).summary ?? "") : undefined,
        original: { type: original.type, status: original.status, action: original.action ?? null, policy_id: original.policy_id ?? null },
        current: { type: current.type, status: current.status, action: current.action ?? null, policy_id: current.policy_id ?? null, reason: current.reason ?? null },
        current_capability: currentTrace.capability,
        current_memory: currentTrace.memory,
        current_gaps: currentTrace.humility,
        replay_note: "Replayed as a dry run: nothing was escalated, executed or recorded.",
      };
    },
  );

  /**
   * A chat turn decided again as a dry run: the recorded messages, client function definitions and tool
   * choice, against today's tools, memory and policies (and today's model, when one is configured). Compared
   * on what a caller acts on: the gate, the tool calls handed back, the confirmation asked.
   */
  async function replayChat(actor: ReturnType<typeof actorOf>, row: IntentRow, traceId: string, mode: string) {
    const recorded = row.request as { messages?: { role: string; content: string }[]; memory?: boolean; chat?: Partial<ChatRequest> & { open_confirmation?: PendingConfirmation } };
    const original = row.response as { gate?: string; tool_calls?: string[]; pending_actions?: string[]; intelligence?: { governance?: { confidence?: number; policy_id?: string } } };
    // Records from before the full request was kept: their text turns.
    const messages = (recorded.chat?.messages ?? recorded.messages ?? []) as ChatRequest["messages"];
    const { open_confirmation: openConfirmation, ...chat } = recorded.chat ?? {};
    const again = await deps.chat.complete(actor, { ...chat, messages, memory: recorded.memory !== false }, { traceId, dryRun: true, ...(openConfirmation ? { openConfirmation } : {}) });
    const trace = again.intelligence as { summary?: string; capability?: unknown; memory?: unknown; humility?: unknown; governance?: { confidence?: number; policy_id?: string } };
    const before = { gate: original.gate ?? "ok", tool_calls: original.tool_calls ?? [], pending_actions: original.pending_actions ?? [], policy_id: original.intelligence?.governance?.policy_id ?? null };
    const now = { gate: again.gate, tool_calls: again.toolCalls.map((c) => c.function.name), pending_actions: again.pendingActions.map((p) => p.tool), policy_id: trace.governance?.policy_id ?? null };
    const changes: string[] = [];
    if (before.gate !== now.gate) changes.push(`gate ${before.gate} → ${now.gate}`);
    if (before.tool_calls.join(",") !== now.tool_calls.join(",")) changes.push(`tool calls [${before.tool_calls.join(", ")}] → [${now.tool_calls.join(", ")}]`);
    if (before.pending_actions.join(",") !== now.pending_actions.join(",")) changes.push(`confirmation asked for [${before.pending_actions.join(", ")}] → [${now.pending_actions.join(", ")}]`);
    if (before.policy_id !== now.policy_id) changes.push(`policy ${before.policy_id ?? "none"} → ${now.policy_id ?? "none"}`);
    return {
      trace_id: row.traceId,
      intent_id: row.id,
      type: "chat",
      mode,
      domain: row.domain,
      original_gate: before.gate,
      original_confidence: original.intelligence?.governance?.confidence ?? 1,
      current_gate: now.gate,
      current_confidence: trace.governance?.confidence ?? 1,
      gate_changed: before.gate !== now.gate,
      changed: changes.length > 0,
      change_summary: changes.length > 0 ? changes.join("; ") : "Same decision as recorded.",
      why: changes.length > 0 ? String(trace.summary ?? "") : undefined,
      original: before,
      current: { ...now, content: again.content },
      current_capability: trace.capability,
      current_memory: trace.memory,
      current_gaps: trace.humility,
      replay_note: "Replayed as a dry run: no tool was run, nothing was recorded, the conversation was not changed.",
    };
  }
}

// ---- Promote: a record kept as memory, a healing precedent or a procedure (src/modules/intelligence/promotion.ts).

const Promoted = Type.Object({
  id: Type.String({ description: "The id of what was made: a memory item (memory, procedure) or a healing precedent" }),
  kind: Type.String(),
  status: Type.Union([Type.Literal("promoted"), Type.Literal("already_promoted")]),
  target: Type.Object({ type: Type.String(), id: Type.String(), url: Type.String() }),
  tool_name: Type.Optional(Type.String()),
  tool_sequence: Type.Optional(Type.Array(Type.String())),
  source_trace_id: Type.String(),
  intent_id: Type.String(),
});

export function registerPromoteRoute(app: App, promotions: PromotionService): void {
  app.post(
    "/api/v1/svc/intelligence/:id/promote",
    {
      config: { errors: ["intelligence_not_found", "invalid_request", "memory_contains_secret", "memory_creation_failed"] },
      schema: {
        tags,
        summary: "Keep a record as memory, as a healing precedent, or as a procedure (once per record and kind)",
        params: Type.Object({ id: Type.String({ minLength: 1, maxLength: 100 }) }),
        body: Type.Object({
          kind: Type.Union([Type.Literal("memory"), Type.Literal("healing"), Type.Literal("procedure")]),
          name: Type.Optional(Type.String({ minLength: 1, maxLength: 200 })),
        }),
        response: { 200: Promoted, 201: Promoted },
      },
    },
    async (request, reply) => {
      const promoted = await promotions.promote(actorOf(request), request.params.id, { kind: request.body.kind, ...(request.body.name ? { name: request.body.name } : {}) });
      return reply.code(promoted.status === "promoted" ? 201 : 200).send(promoted);
    },
  );
}
