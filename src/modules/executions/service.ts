// Executions: a planned list of tool calls that runs once confirmed (or once a person approves it through
// its escalation), step by step, under governance evaluated again before every call. The intent engine
// creates them; callers confirm, cancel, read and stream them. Every change is a conditional update with
// its audit entry in the same transaction, so processes sharing the database never run one twice.
import { canonicalJson } from "../../canonical-json.ts";
import type { Clock } from "../../clock.ts";
import type { Database } from "../../db/index.ts";
import type { Governance } from "../../engine/governance/chokepoint.ts";
import { AppError } from "../../errors/app-error.ts";
import type { Actor, AuditLog } from "../../events/audit.ts";
import type { Outbox } from "../../events/outbox.ts";
import type { Ids } from "../../ids.ts";
import type { Vault } from "../credentials/vault.ts";
import { redactAction, type EscalationService } from "../escalations/service.ts";
import type { EscalationRow } from "../escalations/store.ts";
import type { PolicyService } from "../policies/service.ts";
import type { ToolService } from "../tools/service.ts";
import { createExecutionBus, isTerminalEvent, terminalEvent, type ExecutionBus, type ExecutionListener } from "./events.ts";
import { createRunner, sealedArgumentsId, skipPending, stepArguments, type PrecedentRecorder, type RetryPolicy } from "./runner.ts";
import { executionsAwaiting, getExecution, insertExecution, isTerminal, stepsOf, transitionExecution, type ExecutionRow, type StoredStep } from "./store.ts";

export type { ExecutionRow } from "./store.ts";

export interface ExecutionStepPlan {
  tool: string;
  arguments: Record<string, unknown>;
}

export interface NewExecutionInput {
  intentId?: string;
  domain?: string;
  steps: ExecutionStepPlan[];
  /** `ready` waits for a confirm; `awaiting_approval` waits for `escalationId` to be resolved. */
  status: "ready" | "awaiting_approval";
  escalationId?: string;
}

export interface ExecutionService {
  /** A new execution: "ready" (waits for confirm), or "awaiting_approval" tied to an escalation. */
  create(actor: Actor, input: NewExecutionInput): Promise<ExecutionRow>;
  /** Starts a ready execution (confirm, or mode=execution); runs in the background; returns at once with status running. */
  start(actor: Actor, id: string): Promise<ExecutionRow>;
  get(workspaceId: string, id: string): Promise<ExecutionRow>;
  /** Cancels a ready, waiting or running execution (a running one stops before its next step). */
  cancel(actor: Actor, id: string): Promise<ExecutionRow>;
  /** Resolves when the execution reaches a terminal status (or the timeout passes) with its row then. */
  waitFor(workspaceId: string, id: string, timeoutMs: number): Promise<ExecutionRow>;
  /** Events of one execution, from this process and the others (the stream route). */
  subscribe(workspaceId: string, id: string, listener: ExecutionListener): () => void;
  startService(): Promise<void>;
  stopService(): Promise<void>;
}

const MAX_STEPS = 50;
const TOOL_NAME = /^[a-zA-Z0-9_-]{1,64}$/;
const SEVERITIES = ["low", "medium", "high", "critical"];
const CANCELLED_BY: Record<string, string> = {
  abstain: "rejected by the approver",
  clarify_requester: "needs clarification from the requester",
  handoff: "handed off to a human",
};

/** Who resolved an escalation, as the actor of what the resolution sets off. */
function resolverOf(row: EscalationRow): Actor {
  const by = row.resolvedBy;
  if (by === "operator") return { workspaceId: row.workspaceId, type: "operator" };
  if (!by || by === "system") return { workspaceId: row.workspaceId, type: "system" };
  return { workspaceId: row.workspaceId, type: "key", id: by };
}

/** The bus, telling `onFinished` of each terminal event this process publishes (others' are theirs to count). */
function observed(bus: ExecutionBus, onFinished: ((status: string) => void) | undefined): ExecutionBus {
  if (!onFinished) return bus;
  return {
    ...bus,
    publish: (workspaceId, event) => {
      if (isTerminalEvent(event) && typeof event.status === "string") onFinished(event.status);
      bus.publish(workspaceId, event);
    },
  };
}

export function createExecutionService(deps: {
  database: Database;
  ids: Ids;
  clock: Clock;
  audit: AuditLog;
  outbox?: Outbox;
  tools: ToolService;
  governance: Governance;
  policies: PolicyService;
  escalations: EscalationService;
  vault: Vault;
  retry: RetryPolicy;
  /**
   * How long a process that heard a resolution from another waits before applying it itself (the
   * resolving process applies it at once; this covers it dying in between). 5 s by default.
   */
  takeoverMs?: number;
  /** Healing's precedents, written when an execution ends. */
  precedents?: PrecedentRecorder;
  log: { warn(object: object, message: string): void; error(object: object, message: string): void };
  /** Told the final status of each execution this process ends (metrics). */
  onFinished?: (status: string) => void;
}): ExecutionService {
  const { database, ids, clock, audit, tools, escalations, vault, log } = deps;
  const db = database.db;
  const bus = observed(createExecutionBus({ database, origin: ids.uuid(), log }), deps.onFinished);
  let unsubscribeResolved: (() => void) | undefined;
  const takeoverMs = deps.takeoverMs ?? 5_000;
  const takeovers = new Set<NodeJS.Timeout>();

  const notFound = (id: string) => new AppError("execution_not_found", { message: `No execution ${id.slice(0, 100)} in this workspace.` });

  const runner = createRunner({
    db,
    clock,
    audit,
    outbox: deps.outbox,
    tools,
    governance: deps.governance,
    policies: deps.policies,
    escalations,
    vault,
    bus,
    retry: deps.retry,
    log,
    ...(deps.precedents ? { precedents: deps.precedents } : {}),
    recheckEscalation: async (workspaceId, escalationId) => {
      const row = await escalations.get(workspaceId, escalationId).catch(() => undefined);
      if (row && row.status !== "pending") await settle(row);
    },
  });

  function checkInput(input: NewExecutionInput): void {
    const problems: { field: string; message: string }[] = [];
    if (!Array.isArray(input.steps) || input.steps.length === 0 || input.steps.length > MAX_STEPS) problems.push({ field: "steps", message: `1 to ${MAX_STEPS} steps` });
    (Array.isArray(input.steps) ? input.steps : []).forEach((step, i) => {
      if (typeof step?.tool !== "string" || !TOOL_NAME.test(step.tool)) problems.push({ field: `steps[${i}].tool`, message: "must be a tool name" });
      if (typeof step?.arguments !== "object" || step.arguments === null || Array.isArray(step.arguments)) problems.push({ field: `steps[${i}].arguments`, message: "must be an object" });
    });
    if (input.status !== "ready" && input.status !== "awaiting_approval") problems.push({ field: "status", message: "ready or awaiting_approval" });
    if (input.status === "awaiting_approval" && !input.escalationId) problems.push({ field: "escalation_id", message: "is required while awaiting approval" });
    if (problems.length > 0) throw new AppError("invalid_request", { message: `Invalid execution: ${problems[0]!.field} ${problems[0]!.message}.`, details: problems });
  }

  /**
   * The steps a resolution with `auto` approves: the one that paused on this escalation, or (an execution
   * created waiting) those whose governed action is exactly the escalated one. Anything else meets
   * governance as usual and may pause again: an approval never stretches to another action.
   */
  async function approvedSteps(row: ExecutionRow, escalation: EscalationRow): Promise<StoredStep[]> {
    const steps = stepsOf(row).map((s) => ({ ...s }));
    const waiting = steps.filter((s) => s.status === "pending" && s.escalation_id === escalation.id);
    if (waiting.length > 0) {
      for (const step of waiting) step.approved = true;
      return steps;
    }
    const action = escalation.action as { tool?: unknown; arguments?: unknown };
    const toolName = escalation.toolName ?? action.tool;
    for (const [index, step] of steps.entries()) {
      if (step.status !== "pending" || step.tool !== toolName) continue;
      const tool = await tools.find(row.workspaceId, step.tool);
      if (!tool) continue;
      const args = await stepArguments(vault, row.workspaceId, row.id, index, step);
      // Compared the way the escalation stored it: the governed attributes, redacted inside the action.
      const governed = redactAction({ tool: step.tool, arguments: tool.attributes ? tool.attributes(args) : args }) as { arguments: unknown };
      if (canonicalJson(governed.arguments) === canonicalJson(action.arguments)) {
        step.approved = true;
        step.escalation_id = escalation.id;
      }
    }
    return steps;
  }

  /** Applies a decided escalation to the executions waiting on it (normally one). */
  async function settle(escalation: EscalationRow): Promise<void> {
    if (escalation.status === "pending" || !escalation.decision) return;
    for (const row of await executionsAwaiting(db, escalation.workspaceId, escalation.id)) {
      await apply(row, escalation);
    }
  }

  async function apply(row: ExecutionRow, escalation: EscalationRow): Promise<void> {
    const actor = resolverOf(escalation);
    const workspaceId = row.workspaceId;
    const decision = escalation.decision!;
    const now = clock.now();
    if (decision === "auto" || decision === "auto_complete") {
      let steps = stepsOf(row);
      try {
        steps = await approvedSteps(row, escalation);
      } catch (error) {
        // Nothing approved then: the step meets governance as usual and pauses again (fail closed).
        log.warn({ err: error, execution_id: row.id }, "the approved steps could not be matched");
      }
      // Only the process whose update wins runs it.
      const started = await db.transaction(async (tx) => {
        const moved = await transitionExecution(
          tx,
          workspaceId,
          row.id,
          ["awaiting_approval"],
          { status: "running", steps: steps as unknown as Record<string, unknown>[], startedAt: row.startedAt ?? now, updatedAt: now },
          escalation.id,
        );
        if (moved) {
          await audit.record(tx, actor, { action: "execution.start", resourceType: "execution", resourceId: row.id, details: { via: "escalation", escalation_id: escalation.id, decision } });
          await deps.outbox?.emit(tx, workspaceId, "execution.started", { execution_id: row.id, intent_id: row.intentId, via: "escalation", escalation_id: escalation.id });
        }
        return moved;
      });
      if (started) runner.launch(actor, started);
      return;
    }
    if (decision === "escalate") {
      // Claimed first (the escalation id cleared), so one process opens the next escalation.
      const claimed = await transitionExecution(db, workspaceId, row.id, ["awaiting_approval"], { escalationId: null, updatedAt: now }, escalation.id);
      if (!claimed) return;
      const severity = SEVERITIES[Math.min(SEVERITIES.indexOf(escalation.severity) + 1, SEVERITIES.length - 1)] ?? "high";
      let next: EscalationRow;
      try {
        next = await escalations.create(actor, {
          category: escalation.category === "execution" ? "execution" : "policy",
          severity,
          ...(escalation.toolName ? { toolName: escalation.toolName } : {}),
          action: escalation.action,
          ...(escalation.policyId && escalation.policyVersion !== null && escalation.clause !== null
            ? { policy: { id: escalation.policyId, version: escalation.policyVersion, clause: escalation.clause } }
            : {}),
          reason: escalation.reason,
          humanPrompt: `Escalated from ${escalation.id} (${severity}): ${escalation.humanPrompt}`.slice(0, 2_000),
          executionId: row.id,
          ...(escalation.intent ? { intent: escalation.intent } : {}),
        });
      } catch (error) {
        await transitionExecution(db, workspaceId, row.id, ["awaiting_approval"], { escalationId: escalation.id, updatedAt: clock.now() }).catch(() => undefined);
        throw error;
      }
      const steps = stepsOf(claimed).map((s) => (s.escalation_id === escalation.id ? { ...s, escalation_id: next.id } : s));
      await db.transaction(async (tx) => {
        const moved = await transitionExecution(tx, workspaceId, row.id, ["awaiting_approval"], { escalationId: next.id, steps: steps as unknown as Record<string, unknown>[], updatedAt: clock.now() });
        if (moved) await audit.record(tx, actor, { action: "execution.escalate", resourceType: "execution", resourceId: row.id, details: { from: escalation.id, to: next.id, severity } });
      });
      return;
    }
    const reason = CANCELLED_BY[decision] ?? `cancelled by the escalation's decision (${decision})`;
    const cancelled = await db.transaction(async (tx) => {
      const moved = await transitionExecution(
        tx,
        workspaceId,
        row.id,
        ["awaiting_approval"],
        { status: "cancelled", error: reason, steps: skipPending(stepsOf(row)) as unknown as Record<string, unknown>[], finishedAt: now, updatedAt: now },
        escalation.id,
      );
      if (moved) await audit.record(tx, actor, { action: "execution.cancel", resourceType: "execution", resourceId: row.id, details: { via: "escalation", escalation_id: escalation.id, decision } });
      return moved;
    });
    if (cancelled) bus.publish(workspaceId, terminalEvent(cancelled));
  }

  const service: ExecutionService = {
    create: async (actor, input) => {
      checkInput(input);
      const workspaceId = actor.workspaceId;
      let escalation: EscalationRow | undefined;
      if (input.escalationId !== undefined) escalation = await escalations.get(workspaceId, input.escalationId);
      const id = ids.make("exe");
      const steps: StoredStep[] = await Promise.all(
        input.steps.map(async (plan, index) => {
          const shown = redactAction(plan.arguments) as Record<string, unknown>;
          // The real arguments must survive for the call; sealed, and only when they differ from what is shown.
          const sealed = JSON.stringify(shown) !== JSON.stringify(plan.arguments) ? await vault.seal(workspaceId, sealedArgumentsId(id, index), Buffer.from(JSON.stringify(plan.arguments))) : undefined;
          return {
            tool: plan.tool,
            arguments: shown,
            ...(sealed ? { sealed_arguments: sealed } : {}),
            status: "pending",
            attempts: 0,
            result: null,
            error: null,
            started_at: null,
            finished_at: null,
            escalation_id: null,
          };
        }),
      );
      const now = clock.now();
      const row = await db.transaction(async (tx) => {
        const created = await insertExecution(tx, workspaceId, {
          id,
          intentId: input.intentId ?? null,
          status: input.status,
          domain: input.domain ?? null,
          steps: steps as unknown as Record<string, unknown>[],
          escalationId: input.escalationId ?? null,
          createdBy: actor.id ?? actor.type,
          createdAt: now,
          updatedAt: now,
        });
        await audit.record(tx, actor, {
          action: "execution.create",
          resourceType: "execution",
          resourceId: id,
          details: {
            status: input.status,
            tools: steps.map((s) => s.tool),
            ...(input.intentId ? { intent_id: input.intentId } : {}),
            ...(input.escalationId ? { escalation_id: input.escalationId } : {}),
          },
        });
        return created;
      });
      // Decided before this execution existed: nobody was waiting then.
      if (escalation && escalation.status !== "pending") {
        await settle(escalation);
        return service.get(workspaceId, id);
      }
      return row;
    },

    start: async (actor, id) => {
      const workspaceId = actor.workspaceId;
      const now = clock.now();
      const row = await db.transaction(async (tx) => {
        const moved = await transitionExecution(tx, workspaceId, id, ["ready"], { status: "running", startedAt: now, updatedAt: now });
        if (!moved) {
          const existing = await getExecution(tx, workspaceId, id);
          if (!existing) throw notFound(id);
          throw new AppError("execution_not_ready", {
            message:
              existing.status === "awaiting_approval"
                ? `Execution ${id} waits for approval (escalation ${existing.escalationId}); it starts when the escalation is resolved.`
                : `Execution ${id} is ${existing.status}; only a ready execution can be confirmed.`,
            extra: { status: existing.status, ...(existing.escalationId ? { escalation_id: existing.escalationId } : {}) },
          });
        }
        await audit.record(tx, actor, { action: "execution.start", resourceType: "execution", resourceId: id, details: { via: "confirm" } });
        await deps.outbox?.emit(tx, workspaceId, "execution.started", { execution_id: id, intent_id: moved.intentId, via: "confirm" });
        return moved;
      });
      runner.launch(actor, row);
      return row;
    },

    get: async (workspaceId, id) => {
      const row = await getExecution(db, workspaceId, id);
      if (!row) throw notFound(id);
      return row;
    },

    cancel: async (actor, id) => {
      const workspaceId = actor.workspaceId;
      // A running execution's steps belong to its runner (it marks what it skipped); the others' are ours.
      for (let attempt = 0; attempt < 5; attempt++) {
        const current = await service.get(workspaceId, id);
        if (isTerminal(current.status)) {
          throw new AppError("execution_finished", { message: `Execution ${id} already ended (${current.status}).`, extra: { status: current.status } });
        }
        const now = clock.now();
        const changes =
          current.status === "running"
            ? { status: "cancelled" as const, error: "cancelled by the caller", finishedAt: now, updatedAt: now }
            : { status: "cancelled" as const, error: "cancelled by the caller", steps: skipPending(stepsOf(current)) as unknown as Record<string, unknown>[], finishedAt: now, updatedAt: now };
        const row = await db.transaction(async (tx) => {
          const moved = await transitionExecution(tx, workspaceId, id, [current.status], changes);
          if (moved) await audit.record(tx, actor, { action: "execution.cancel", resourceType: "execution", resourceId: id, details: { from: current.status } });
          return moved;
        });
        if (!row) continue;
        runner.cancelled(workspaceId, id);
        bus.publish(workspaceId, terminalEvent(row));
        return row;
      }
      throw new AppError("execution_finished", { message: `Execution ${id} changed while it was being cancelled; read it again.` });
    },

    waitFor: async (workspaceId, id, timeoutMs) => {
      let wake: (() => void) | undefined;
      let woken = false;
      const unsubscribe = bus.subscribe(workspaceId, id, (event) => {
        if (isTerminalEvent(event)) {
          woken = true;
          wake?.();
        }
      });
      try {
        const deadline = clock.nowMs() + timeoutMs;
        // Subscribed before reading, so an end in between is not missed; the row is read again every
        // second in case a notification from another process is lost.
        for (;;) {
          const row = await service.get(workspaceId, id);
          const left = deadline - clock.nowMs();
          if (isTerminal(row.status) || left <= 0) return row;
          if (!woken) {
            let timer: NodeJS.Timeout | undefined;
            await new Promise<void>((resolve) => {
              wake = resolve;
              timer = setTimeout(resolve, Math.min(left, 1_000));
            });
            clearTimeout(timer);
          }
          woken = false;
        }
      } finally {
        unsubscribe();
      }
    },

    subscribe: (workspaceId, id, listener) => bus.subscribe(workspaceId, id, listener),

    startService: async () => {
      await bus.start();
      const apply = (row: EscalationRow) =>
        void settle(row).catch((error) => log.error({ err: error, escalation_id: row.id }, "an escalation's decision could not be applied to its execution"));
      // The process where the decision was made applies it (and so runs the execution); the others only
      // step in if it is still waiting a while later. The conditional update keeps it to one either way.
      unsubscribeResolved = escalations.onResolved((row, origin) => {
        if (origin?.local !== false) return apply(row);
        const timer = setTimeout(() => {
          takeovers.delete(timer);
          apply(row);
        }, takeoverMs);
        timer.unref();
        takeovers.add(timer);
      });
    },

    stopService: async () => {
      unsubscribeResolved?.();
      for (const timer of takeovers) clearTimeout(timer);
      takeovers.clear();
      await runner.stop();
      await bus.stop();
    },
  };
  return service;
}
