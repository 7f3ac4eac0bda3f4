import { Type, type Static } from "typebox";
import { stepsOf, type ExecutionRow, type StoredStep } from "./store.ts";

const nullableString = (options: Parameters<typeof Type.String>[0] = {}) => Type.Union([Type.String(options), Type.Null()]);
const AnyObject = (description?: string) => Type.Object({}, { additionalProperties: true, ...(description ? { description } : {}) });

export const ExecutionStep = Type.Object({
  index: Type.Integer(),
  tool: Type.String(),
  arguments: AnyObject("The step's arguments (secret-looking values withheld)"),
  status: Type.String({ description: "pending, running, succeeded, failed or skipped" }),
  attempts: Type.Integer({ description: "Calls made (retries included)" }),
  result: Type.Unknown({ description: "What the tool answered (an HTTP status and body, MCP content), or null" }),
  error: nullableString(),
  escalation_id: nullableString({ description: "The escalation this step waits on or was approved through" }),
  started_at: nullableString({ format: "date-time" }),
  finished_at: nullableString({ format: "date-time" }),
});
export type ExecutionStep = Static<typeof ExecutionStep>;

export const Execution = Type.Object({
  id: Type.String(),
  status: Type.String({ description: "awaiting_approval, ready, running, completed, failed or cancelled" }),
  progress: Type.Number({ minimum: 0, maximum: 1, description: "Steps succeeded / steps (0 to 1)" }),
  steps: Type.Array(ExecutionStep),
  result: Type.Unknown({ description: "At the end: {output: the last step's result, steps: every step's result}; null before" }),
  error: nullableString(),
  diagnosis: Type.Union([AnyObject("Why it failed (HealingDiagnosis terms)"), Type.Null()]),
  escalation_id: nullableString(),
  intent_id: nullableString(),
  domain: nullableString(),
  created_at: Type.String({ format: "date-time" }),
  started_at: nullableString({ format: "date-time" }),
  finished_at: nullableString({ format: "date-time" }),
  updated_at: Type.String({ format: "date-time" }),
});
export type Execution = Static<typeof Execution>;

export const ExecutionParams = Type.Object({ id: Type.String({ minLength: 1, maxLength: 100 }) });

/** Steps that succeeded, over all steps: 1 exactly when every step succeeded. */
export function progressOf(steps: readonly Pick<StoredStep, "status">[]): number {
  if (steps.length === 0) return 0;
  return Math.round((steps.filter((s) => s.status === "succeeded").length / steps.length) * 10_000) / 10_000;
}

export function stepToWire(step: StoredStep, index: number): ExecutionStep {
  return {
    index,
    tool: step.tool,
    arguments: step.arguments,
    status: step.status,
    attempts: step.attempts,
    result: step.result ?? null,
    error: step.error,
    escalation_id: step.escalation_id ?? null,
    started_at: step.started_at,
    finished_at: step.finished_at,
  };
}

export function executionToWire(row: ExecutionRow): Execution {
  const steps = stepsOf(row);
  return {
    id: row.id,
    status: row.status,
    progress: progressOf(steps),
    steps: steps.map(stepToWire),
    result: row.result ?? null,
    error: row.error,
    diagnosis: row.diagnosis ?? null,
    escalation_id: row.escalationId,
    intent_id: row.intentId,
    domain: row.domain,
    created_at: row.createdAt.toISOString(),
    started_at: row.startedAt?.toISOString() ?? null,
    finished_at: row.finishedAt?.toISOString() ?? null,
    updated_at: row.updatedAt.toISOString(),
  };
}
