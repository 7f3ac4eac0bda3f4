// The execution event bus: what a stream (GET /executions/{id}/stream) and a waiter hear. Events are
// emitted in this process and published through NOTIFY svc_executions, so a stream served by one process
// hears an execution run by another. Payloads stay small (no tool results: NOTIFY carries under 8000
// bytes); a terminal event is rebuilt from the row by whoever sends it, so it carries the full outcome.
import { EventEmitter } from "node:events";
import type { Database } from "../../db/index.ts";
import { progressOf } from "./schemas.ts";
import { stepsOf, type ExecutionRow, type StoredStep } from "./store.ts";

const CHANNEL = "svc_executions";
const MAX_PAYLOAD = 7_000;

export const TERMINAL_EVENTS = ["mission_complete", "mission_blocked", "mission_partial"] as const;
export type TerminalEventName = (typeof TERMINAL_EVENTS)[number];
export type ExecutionEventName = "step_started" | "step_completed" | "step_failed" | "execution_steps_complete" | TerminalEventName;

export interface ExecutionEvent {
  type: ExecutionEventName;
  execution_id: string;
  [field: string]: unknown;
}

export const isTerminalEvent = (event: ExecutionEvent): boolean => (TERMINAL_EVENTS as readonly string[]).includes(event.type);

/** A stream sends each of these once: the same step event heard live and rebuilt from the row is one. */
export const eventKey = (event: ExecutionEvent): string => (typeof event.step === "number" ? `${event.type}:${event.step}` : event.type);

export function terminalEventName(row: ExecutionRow): TerminalEventName {
  if (row.status === "completed") return "mission_complete";
  if (row.status === "failed" && stepsOf(row).some((s) => s.status === "succeeded")) return "mission_partial";
  return "mission_blocked";
}

/** The terminal event of a finished execution, with its outcome. */
export function terminalEvent(row: ExecutionRow): ExecutionEvent {
  return {
    type: terminalEventName(row),
    execution_id: row.id,
    status: row.status,
    progress: progressOf(stepsOf(row)),
    result: row.result ?? null,
    error: row.error,
    diagnosis: row.diagnosis ?? null,
    escalation_id: row.escalationId,
    finished_at: row.finishedAt?.toISOString() ?? null,
  };
}

export function stepEvent(type: "step_started" | "step_completed" | "step_failed", executionId: string, index: number, step: StoredStep, steps: readonly StoredStep[]): ExecutionEvent {
  return {
    type,
    execution_id: executionId,
    step: index,
    tool: step.tool,
    status: step.status,
    attempts: step.attempts,
    error: step.error === null ? null : step.error.slice(0, 500),
    started_at: step.started_at,
    finished_at: step.finished_at,
    progress: progressOf(steps),
  };
}

export function stepsCompleteEvent(executionId: string, steps: readonly StoredStep[]): ExecutionEvent {
  return { type: "execution_steps_complete", execution_id: executionId, steps: steps.length, progress: progressOf(steps) };
}

/** What a stream opened late has missed, rebuilt from the row (the terminal event last, when finished). */
export function eventsFromRow(row: ExecutionRow): ExecutionEvent[] {
  const steps = stepsOf(row);
  const events: ExecutionEvent[] = [];
  steps.forEach((step, index) => {
    // A step refused before its call (policy, arguments, missing tool) fails without having started.
    if (step.started_at !== null) events.push(stepEvent("step_started", row.id, index, step, steps));
    if (step.status === "succeeded") events.push(stepEvent("step_completed", row.id, index, step, steps));
    if (step.status === "failed") events.push(stepEvent("step_failed", row.id, index, step, steps));
  });
  if (row.status === "completed") events.push(stepsCompleteEvent(row.id, steps));
  if (row.status === "completed" || row.status === "failed" || row.status === "cancelled") events.push(terminalEvent(row));
  return events;
}

export type ExecutionListener = (event: ExecutionEvent) => void;

export interface ExecutionBus {
  /** Emits here and publishes to the other processes (best effort: streams also poll the row). */
  publish(workspaceId: string, event: ExecutionEvent): void;
  subscribe(workspaceId: string, executionId: string, listener: ExecutionListener): () => void;
  start(): Promise<void>;
  stop(): Promise<void>;
}

export function createExecutionBus(deps: { database: Database; origin: string; log: { warn(object: object, message: string): void } }): ExecutionBus {
  const { database, origin, log } = deps;
  const events = new EventEmitter();
  events.setMaxListeners(0);
  let unlisten: (() => Promise<void>) | undefined;
  const key = (workspaceId: string, executionId: string) => `${workspaceId}:${executionId}`;

  function emit(workspaceId: string, event: ExecutionEvent): void {
    for (const listener of events.listeners(key(workspaceId, event.execution_id)) as ExecutionListener[]) {
      try {
        listener(event);
      } catch (error) {
        log.warn({ err: error }, "execution event listener failed");
      }
    }
  }

  return {
    publish: (workspaceId, event) => {
      emit(workspaceId, event);
      let payload = JSON.stringify({ workspace_id: workspaceId, origin, event });
      if (payload.length > MAX_PAYLOAD) {
        const { type, execution_id, step, status } = event;
        payload = JSON.stringify({ workspace_id: workspaceId, origin, event: { type, execution_id, step, status } });
      }
      void database.notify(CHANNEL, payload).catch((error) => log.warn({ err: error }, "execution event notify failed"));
    },

    subscribe: (workspaceId, executionId, listener) => {
      const name = key(workspaceId, executionId);
      events.on(name, listener);
      return () => void events.off(name, listener);
    },

    start: async () => {
      unlisten = await database.listen(CHANNEL, (payload) => {
        if (!payload) return;
        let message: { workspace_id?: unknown; origin?: unknown; event?: ExecutionEvent };
        try {
          message = JSON.parse(payload) as typeof message;
        } catch {
          return;
        }
        if (message.origin === origin || typeof message.workspace_id !== "string" || typeof message.event?.execution_id !== "string") return;
        emit(message.workspace_id, message.event);
      });
    },

    stop: async () => {
      await unlisten?.();
      events.removeAllListeners();
    },
  };
}
