// The intent service: conversation state in, the engine's decision out, recorded. It gives the engine its
// ports (tools, catalog, memory, governance) for the caller's workspace only, creates the execution an
// approved or approval-pending action needs, and writes the intelligence record in the request, so
// GET /intelligence/{id} reads it at once.
import { governedAction } from "../../engine/governance/action.ts";
import type { Clock } from "../../clock.ts";
import type { Db } from "../../db/index.ts";
import type { Outbox } from "../../events/outbox.ts";
import type { Governance } from "../../engine/governance/chokepoint.ts";
import { runEngine, type EngineInput, type EnginePorts, type EngineResult, type Message } from "../../engine/intent/engine.ts";
import { decideParts, type PartAction, type SplitDecision } from "../../engine/intent/split.ts";
import type { Tool } from "../../tools/tool.ts";
import { missingArguments } from "../../engine/intent/plan.ts";
import { questionWords } from "../../engine/intent/answer.ts";
import type { Stage } from "../../engine/intent/trace.ts";
import type { Planner } from "../../engine/planner/planner.ts";
import type { Actor } from "../../events/audit.ts";
import type { Ids } from "../../ids.ts";
import { CATALOG } from "../connections/catalog.ts";
import type { ConnectionService } from "../connections/service.ts";
import { redactAction } from "../escalations/service.ts";
import type { MemoryService } from "../memory/service.ts";
import { maskSecrets, maskStrings, type SecretValues } from "../memory/secrets.ts";
import type { PolicyService } from "../policies/service.ts";
import type { ToolService } from "../tools/service.ts";
import { intentToWire, type Gate } from "./schemas.ts";
import { insertIntent } from "./store.ts";
import { pendingAfter, type ConversationService } from "../conversations/service.ts";
import type { EscalationService } from "../escalations/service.ts";

/** What the intent engine needs of executions (the executions module provides it). */
export interface ExecutionPort {
  create(actor: Actor, input: { intentId?: string; domain?: string; steps: { tool: string; arguments: Record<string, unknown> }[]; status: "ready" | "awaiting_approval"; escalationId?: string }): Promise<{ id: string; status: string }>;
  start(actor: Actor, id: string): Promise<{ id: string; status: string }>;
}

export interface IntentRequest {
  messages: { role: "user" | "assistant" | "system"; content: string }[];
  context?: { domain?: string; constraints?: unknown };
  mode?: "auto" | "chat" | "execution";
  conversation_id?: string;
  dry_run?: boolean;
  user_id?: string;
}

export interface IntentAnswer {
  body: Record<string, unknown>;
  gate: Gate;
  result: EngineResult;
}

export interface IntentService {
  /** Listens for escalation decisions that turn a waiting action back into a question. */
  start(): void;
  stop(): void;
  /** `record: false` (replays) writes no intelligence record. */
  handle(actor: Actor, request: IntentRequest, options: { traceId: string; path: string; onStage?: (stage: Stage) => void; record?: boolean }): Promise<IntentAnswer>;
}

// Turns kept per conversation: enough to resume a clarification, bounded so state stays small.
const MAX_TURNS = 20;

export function createIntentService(deps: {
  db: Db;
  ids: Ids;
  clock: Clock;
  conversations: ConversationService;
  tools: ToolService;
  connections: ConnectionService;
  memory: MemoryService;
  policies: PolicyService;
  governance: Governance;
  executions: () => ExecutionPort | undefined;
  /** The model provider, when one is configured (SVC_MODEL_BASE_URL). */
  planner?: Planner;
  plannerFallback?: boolean;
  escalations?: EscalationService;
  /** The workspace's stored secret values, masked wherever a request is recorded. */
  knownSecrets?: (workspaceId: string) => Promise<SecretValues>;
  /** Observers (metrics, tracing): each decision's wire type, and the engine's stages of a request. */
  observe?: { decision?(type: string): void; stages?(traceId: string, stages: readonly Stage[], durationMs: number): void };
  outbox?: Outbox;
}): IntentService {
  const { db, ids, clock, conversations, tools, connections, memory, policies, governance } = deps;
  let unsubscribe: (() => void) | undefined;
  /**
   * A reviewer answered `clarify_requester`: the conversation that asked for the action gets the reviewer's
   * question as the assistant's turn, so the requester's next message in it is read as the answer.
   */
  async function askRequester(workspaceId: string, escalationId: string, note: string | null, tool: string | null): Promise<void> {
    const link = await conversations.ofEscalation(workspaceId, escalationId);
    if (!link) return;
    const state = (await conversations.get(workspaceId, link.conversationId))?.state ?? {};
    const messages = Array.isArray(state.messages) ? (state.messages as Message[]) : [];
    // Worded without the tool's name, so the answer is not read as a value for one of its parameters.
    const question = `Before this ${tool ? "action" : "request"} can go ahead, the reviewer needs more from you: ${note?.trim() || "please clarify the request."}`;
    await conversations.save(workspaceId, { id: link.conversationId, state: { ...state, messages: [...messages, { role: "assistant", content: maskSecrets(question) }].slice(-MAX_TURNS), pending: true, reviewer_question: question, escalation_id: escalationId } }, clock.now());
  }

  /**
   * Several requests as the one decision an intent response is, in the engine's order: a blocked part
   * blocks the message and nothing runs; else a part needing approval escalates, and the execution waits on
   * it with every part as a step; else one execution has them all. The parts were tried as readings: the
   * actions are reviewed again as verdicts given (audited, and escalating), as the engine reviews one.
   */
  async function oneDecision(split: SplitDecision, ctx: { actor: Actor; domain: string | undefined; dryRun: boolean }): Promise<{ result: EngineResult; steps: PartAction[] }> {
    const blockedInTrial = split.actions.find((a) => a.verdict.decision === "blocked");
    const reviewed: PartAction[] = [];
    for (const a of blockedInTrial ? [blockedInTrial] : split.actions) {
      const certainOnly = missingArguments(a.tool, a.arguments).length > 0;
      const { decision_detail: _detail, ...verdict } = await governance.review(governedAction(a.tool, a.arguments, { caller: ctx.actor, domain: ctx.domain }), { certainOnly, escalate: !ctx.dryRun });
      reviewed.push({ ...a, verdict, ask: verdict.decision === "conditional" });
    }
    const lead = reviewed.find((a) => a.verdict.decision === "blocked") ?? reviewed.find((a) => a.ask) ?? reviewed[0]!;
    const v = lead.verdict;
    const r = lead.result;
    const outcome: EngineResult["outcome"] = v.decision === "approved" ? { type: "execution", tool: lead.tool, arguments: lead.arguments } : { type: "blocked", tool: lead.tool, arguments: lead.arguments, verdict: v, conditional: v.decision === "conditional" };
    const evidence = [...r.evidence, `one message, ${split.actions.length} requests: ${split.parts.map((p) => `"${p.slice(0, 80)}"`).join(", ")}`, ...split.actions.map((a) => `${a.tool.name}: ${(reviewed.find((b) => b.tool === a.tool && b.arguments === a.arguments) ?? a).verdict.decision}`)];
    const result: EngineResult = {
      ...r,
      outcome,
      evidence,
      governance: { ...r.governance, decision: v.decision, verdict: v },
      // The part was tried as a dry run: the escalation opened since is the one its stage names.
      stages: r.stages.map((stage) => (stage.name === "escalation" && v.escalationId ? { ...stage, detail: `escalation ${v.escalationId} opened` } : stage)),
      startedAt: split.results[0]!.startedAt,
      durationMs: split.results.reduce((n, x) => n + x.durationMs, 0),
    };
    return { result, steps: v.decision === "blocked" ? [] : reviewed };
  }

  return {
    start: () => {
      unsubscribe = deps.escalations?.onResolved((row, origin) => {
        if (!origin.local || row.decision !== "clarify_requester") return;
        void askRequester(row.workspaceId, row.id, row.note, row.toolName).catch(() => {});
      });
    },
    stop: () => unsubscribe?.(),

    handle: async (actor, request, options) => {
      const workspaceId = actor.workspaceId;
      // Fetched beside the engine's work (a cache hit but every KNOWN_SECRETS_TTL_MS); awaited only to record.
      const knownSecrets = deps.knownSecrets?.(workspaceId);
      knownSecrets?.catch(() => {});
      const conversationId = request.conversation_id ?? ids.make("conv");
      const dryRun = request.dry_run === true;
      const domain = request.context?.domain;

      // A conversation resumed by id: its earlier turns come first, unless the request repeats them.
      let messages: Message[] = request.messages.map((m) => ({ role: m.role, content: m.content }));
      const saved = request.conversation_id ? await conversations.get(workspaceId, conversationId) : undefined;
      if (saved && Array.isArray(saved.state.messages) && !messages.some((m) => m.role === "assistant")) {
        messages = [...(saved.state.messages as Message[]), ...messages];
      }

      const input: EngineInput = { messages, domain, constraints: request.context?.constraints as Record<string, unknown> | undefined, mode: request.mode ?? "auto", dryRun, pending: saved?.pending };
      let listed: Promise<Tool[]> | undefined;
      const ports: EnginePorts = {
        tools: () => (listed ??= tools.list(workspaceId)),
        catalog: async () => ({ integrations: CATALOG, ...(await connections.summary(workspaceId)) }),
        toolHealth: (tool) => tool.health(),
        validate: (tool, args) => tools.validate(tool, args),
        // The question's words first (a long conversation is cut at the search's limit), then those of the two
        // turns before it, most recent first: what a follow-up is about.
        searchMemory: (query, earlier = []) => memory.related(workspaceId, [...questionWords(query), ...earlier.slice(-2).reverse().flatMap(questionWords)], 10),
        preferences: () => memory.preferences(workspaceId),
        review: (action, reviewOptions) => governance.review(governedAction(action.tool, action.arguments, { caller: actor, domain }), reviewOptions),
        policiesActive: async () => (await policies.ruleSet(workspaceId)).size,
        planner: deps.planner,
        plannerFallback: deps.plannerFallback,
      };
      const now = () => clock.now();
      // Several requests in one message, as chat splits them (the model provider, when there is one, reads
      // the message whole). The parts are tried as dry runs: no escalation opens for a split not kept.
      const split = deps.planner ? undefined : await decideParts(messages, (m) => runEngine({ ...input, messages: m, dryRun: true, pending: undefined }, ports, actor, now));
      const { result, steps } = split ? await oneDecision(split, { actor, domain, dryRun }) : { result: await runEngine(input, ports, actor, now), steps: undefined };
      for (const stage of result.stages) options.onStage?.(stage);
      deps.observe?.stages?.(options.traceId, result.stages, result.durationMs);

      const intentId = ids.make("int");
      let execution: { id: string; status: string } | undefined;
      const outcome = result.outcome;
      const executions = deps.executions();
      const planned = steps ?? ((outcome.type === "execution" || outcome.type === "blocked") ? [{ tool: outcome.tool, arguments: outcome.arguments }] : []);
      const complete = planned.length > 0 && planned.every((step) => missingArguments(step.tool, step.arguments).length === 0);
      if (!dryRun && executions && complete && (outcome.type === "execution" || (outcome.type === "blocked" && outcome.conditional && outcome.verdict.escalationId))) {
        const steps = planned.map((step) => ({ tool: step.tool.name, arguments: step.arguments }));
        if (outcome.type === "execution") {
          execution = await executions.create(actor, { intentId, domain, steps, status: "ready" });
          if (request.mode === "execution") execution = await executions.start(actor, execution.id);
        } else {
          execution = await executions.create(actor, { intentId, domain, steps, status: "awaiting_approval", escalationId: outcome.verdict.escalationId });
        }
      }

      const wire = intentToWire(result, { intentId, traceId: options.traceId, conversationId, domain, execution, dryRun });
      if (split && steps) showSteps(wire.body, split, steps);
      deps.observe?.decision?.(String(wire.body.type));
      const at = clock.now();
      // A conversation is kept when it can be resumed: the caller named it, or the answer waits on the
      // caller (a question, a block to argue with, a connection to make). A finished one costs no write.
      const resumable = request.conversation_id !== undefined || outcome.type === "clarify" || outcome.type === "blocked" || outcome.type === "connect_required";
      const known = await knownSecrets;
      if (!dryRun && resumable) {
        const assistantTurn = String((wire.body.message as { content?: string }).content ?? "");
        const history: Message[] = [...messages, { role: "assistant" as const, content: assistantTurn }].slice(-MAX_TURNS);
        const state = { messages: history.map((m): Message => ({ role: m.role, content: maskSecrets(m.content, known) })), last_intent_id: intentId, pending: outcome.type === "clarify" };
        await conversations.save(workspaceId, { id: conversationId, state, ...pendingAfter(outcome, saved?.pending) }, at);
      }
      const governanceDecision = result.governance.decision ?? "none";
      const record = (tx: Db) => insertIntent(tx, workspaceId, {
        id: intentId,
        traceId: options.traceId,
        conversationId,
        type: String(wire.body.type),
        status: String(wire.body.status),
        domain: domain ?? null,
        decision: governanceDecision,
        confidence: result.governance.confidence,
        gaps: result.gaps.length,
        durationMs: result.durationMs,
        request: {
          path: options.path,
          messages: request.messages.map((m) => ({ role: m.role, content: maskSecrets(m.content, known) })),
          context: maskStrings(redactAction(request.context ?? {}), known) as Record<string, unknown>,
          mode: request.mode ?? "auto",
          dry_run: dryRun,
          conversation_id: conversationId,
          ...(request.user_id ? { user_id: request.user_id } : {}),
        },
        // What was answered, as kept: an argument taken from the message carries the same value.
        response: (known && known.size > 0 ? maskStrings(wire.body, known) : wire.body) as typeof wire.body,
        executionId: execution?.id ?? null,
        createdAt: at,
      });
      // The record and its event in one transaction; a dry run decides nothing, so it announces nothing.
      if (options.record !== false) {
        await db.transaction(async (tx) => {
          await record(tx);
          if (dryRun) return;
          const blocked = wire.body.status === "blocked_by_policy";
          await deps.outbox?.emit(tx, workspaceId, blocked ? "intent.blocked" : "intent.decided", {
            intent_id: intentId,
            trace_id: options.traceId,
            type: wire.body.type,
            status: wire.body.status,
            domain: domain ?? null,
            decision: governanceDecision,
            execution_id: execution?.id ?? null,
            conversation_id: conversationId,
          });
        });
      }
      return { body: wire.body, gate: wire.gate, result };
    },
  };
}

/** An execution of several requests shows every step, and the summary says so. */
function showSteps(body: Record<string, unknown>, split: SplitDecision, steps: PartAction[]): void {
  if (steps.length < 2) return;
  const execution = body.execution as { steps?: unknown[] } | undefined;
  if (execution && Array.isArray(execution.steps)) execution.steps = steps.map((s) => ({ tool: s.tool.name, arguments: redactAction(s.arguments) }));
  const intelligence = body.intelligence as { summary?: string };
  const names = steps.map((s) => s.tool.name).join(", ");
  intelligence.summary = body.type === "execution" ? `${split.actions.length} requests in one message: planned ${names}; governance approved each.` : `${split.actions.length} requests in one message (${names}): ${intelligence.summary}`;
}
