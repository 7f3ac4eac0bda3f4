// The intent service: conversation state in, the engine's decision out, recorded. It gives the engine its
// ports (tools, catalog, memory, governance) for the caller's workspace only, creates the execution an
// approved or approval-pending action needs, and writes the intelligence record in the request, so
// GET /intelligence/{id} reads it at once.
import { governedAction } from "../../engine/governance/action.ts";
import type { Clock } from "../../clock.ts";
import type { Db } from "../../db/index.ts";
import type { Outbox } from "../../events/outbox.ts";
import type { Governance } from "../../engine/governance/chokepoint.ts";
import { runEngine, type EngineResult, type Message } from "../../engine/intent/engine.ts";
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
import { conversationOfEscalation, getConversation, insertIntent, saveConversation } from "./store.ts";
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
  const { db, ids, clock, tools, connections, memory, policies, governance } = deps;
  let unsubscribe: (() => void) | undefined;
  /**
   * A reviewer answered `clarify_requester`: the conversation that asked for the action gets the reviewer's
   * question as the assistant's turn, so the requester's next message in it is read as the answer.
   */
  async function askRequester(workspaceId: string, escalationId: string, note: string | null, tool: string | null): Promise<void> {
    const link = await conversationOfEscalation(db, workspaceId, escalationId);
    if (!link) return;
    const state = (await getConversation(db, workspaceId, link.conversationId)) ?? {};
    const messages = Array.isArray(state.messages) ? (state.messages as Message[]) : [];
    // Worded without the tool's name, so the answer is not read as a value for one of its parameters.
    const question = `Before this ${tool ? "action" : "request"} can go ahead, the reviewer needs more from you: ${note?.trim() || "please clarify the request."}`;
    await saveConversation(db, workspaceId, link.conversationId, { ...state, messages: [...messages, { role: "assistant", content: maskSecrets(question) }].slice(-MAX_TURNS), pending: true, reviewer_question: question, escalation_id: escalationId }, clock.now());
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
      const saved = request.conversation_id ? await getConversation(db, workspaceId, conversationId) : undefined;
      if (saved && Array.isArray(saved.messages) && !messages.some((m) => m.role === "assistant")) {
        messages = [...(saved.messages as Message[]), ...messages];
      }

      const result = await runEngine(
        { messages, domain, constraints: request.context?.constraints as Record<string, unknown> | undefined, mode: request.mode ?? "auto", dryRun },
        {
          tools: () => tools.list(workspaceId),
          catalog: async () => ({ integrations: CATALOG, ...(await connections.summary(workspaceId)) }),
          toolHealth: (tool) => tool.health(),
          validate: (tool, args) => tools.validate(tool, args),
          // The question's words first (a long conversation is cut at the search's limit), then those of
          // the two turns before it, most recent first: what a follow-up is about.
          searchMemory: (query, earlier = []) => memory.related(workspaceId, [...questionWords(query), ...earlier.slice(-2).reverse().flatMap(questionWords)], 10),
          preferences: () => memory.preferences(workspaceId),
          review: (action, reviewOptions) =>
            governance.review(governedAction(action.tool, action.arguments, { caller: actor, domain }), reviewOptions),
          policiesActive: async () => (await policies.ruleSet(workspaceId)).size,
          planner: deps.planner,
          plannerFallback: deps.plannerFallback,
        },
        actor,
        () => clock.now(),
      );
      for (const stage of result.stages) options.onStage?.(stage);
      deps.observe?.stages?.(options.traceId, result.stages, result.durationMs);

      const intentId = ids.make("int");
      let execution: { id: string; status: string } | undefined;
      const outcome = result.outcome;
      const executions = deps.executions();
      const complete = (outcome.type === "execution" || outcome.type === "blocked") && missingArguments(outcome.tool, outcome.arguments).length === 0;
      if (!dryRun && executions && complete && (outcome.type === "execution" || (outcome.type === "blocked" && outcome.conditional && outcome.verdict.escalationId))) {
        const steps = [{ tool: outcome.tool.name, arguments: outcome.arguments }];
        if (outcome.type === "execution") {
          execution = await executions.create(actor, { intentId, domain, steps, status: "ready" });
          if (request.mode === "execution") execution = await executions.start(actor, execution.id);
        } else {
          execution = await executions.create(actor, { intentId, domain, steps, status: "awaiting_approval", escalationId: outcome.verdict.escalationId });
        }
      }

      const wire = intentToWire(result, { intentId, traceId: options.traceId, conversationId, domain, execution, dryRun });
      deps.observe?.decision?.(String(wire.body.type));
      const at = clock.now();
      // A conversation is kept when it can be resumed: the caller named it, or the answer waits on the
      // caller (a question, a block to argue with, a connection to make). A finished one costs no write.
      const resumable = request.conversation_id !== undefined || outcome.type === "clarify" || outcome.type === "blocked" || outcome.type === "connect_required";
      const known = await knownSecrets;
      if (!dryRun && resumable) {
        const assistantTurn = String((wire.body.message as { content?: string }).content ?? "");
        const history: Message[] = [...messages, { role: "assistant" as const, content: assistantTurn }].slice(-MAX_TURNS);
        await saveConversation(db, workspaceId, conversationId, { messages: history.map((m): Message => ({ role: m.role, content: maskSecrets(m.content, known) })), last_intent_id: intentId, pending: outcome.type === "clarify" }, at);
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
