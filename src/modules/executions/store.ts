// Executions: SQL only, every query filtered by the workspace first. State changes are conditional updates
// (`WHERE status IN (...)`), so two processes racing on one execution (a confirm and a cancel, two nodes
// receiving the same escalation resolution) never both win.
import { and, eq, inArray } from "drizzle-orm";
import type { Db } from "../../db/index.ts";
import { executions } from "../../db/schema.ts";

export type ExecutionRow = typeof executions.$inferSelect;
export type ExecutionStatus = ExecutionRow["status"];
type NewExecution = Omit<typeof executions.$inferInsert, "workspaceId">;
type Changes = Partial<Omit<typeof executions.$inferInsert, "id" | "workspaceId" | "createdAt">>;

export const TERMINAL_STATUSES: readonly ExecutionStatus[] = ["completed", "failed", "cancelled"];
export const isTerminal = (status: ExecutionStatus): boolean => TERMINAL_STATUSES.includes(status);

export type StepStatus = "pending" | "running" | "succeeded" | "failed" | "skipped";

/** One step as stored in `executions.steps`. */
export interface StoredStep {
  tool: string;
  /** Secret-looking values withheld (what GET shows). */
  arguments: Record<string, unknown>;
  /** The real arguments sealed by the vault, only when redaction changed them; never shown. */
  sealed_arguments?: string;
  status: StepStatus;
  attempts: number;
  result: unknown;
  error: string | null;
  started_at: string | null;
  finished_at: string | null;
  /** The escalation this step waits on, or the one whose approval lets its conditional decision pass. */
  escalation_id: string | null;
  /** Set when a human approved this step's action through `escalation_id` (auto / auto_complete). */
  approved?: boolean;
}

export function stepsOf(row: ExecutionRow): StoredStep[] {
  return row.steps as unknown as StoredStep[];
}

export async function insertExecution(db: Db, workspaceId: string, row: NewExecution): Promise<ExecutionRow> {
  const [created] = await db
    .insert(executions)
    .values({ ...row, workspaceId })
    .returning();
  return created!;
}

export async function getExecution(db: Db, workspaceId: string, id: string): Promise<ExecutionRow | undefined> {
  const [row] = await db.select().from(executions).where(and(eq(executions.workspaceId, workspaceId), eq(executions.id, id)));
  return row;
}

/**
 * Moves an execution from one of `from` (and, when given, tied to `escalationId`) with `changes`; undefined
 * when it was not in such a state (someone else moved it first).
 */
export async function transitionExecution(
  db: Db,
  workspaceId: string,
  id: string,
  from: readonly ExecutionStatus[],
  changes: Changes,
  escalationId?: string,
): Promise<ExecutionRow | undefined> {
  const where = [eq(executions.workspaceId, workspaceId), eq(executions.id, id), inArray(executions.status, [...from])];
  if (escalationId !== undefined) where.push(eq(executions.escalationId, escalationId));
  const [row] = await db
    .update(executions)
    .set(changes)
    .where(and(...where))
    .returning();
  return row;
}

/** The runner's progress: only the runner of an execution writes its steps, so no status condition. */
export async function saveSteps(db: Db, workspaceId: string, id: string, steps: StoredStep[], updatedAt: Date): Promise<ExecutionRow | undefined> {
  const [row] = await db
    .update(executions)
    .set({ steps: steps as unknown as Record<string, unknown>[], updatedAt })
    .where(and(eq(executions.workspaceId, workspaceId), eq(executions.id, id)))
    .returning();
  return row;
}

/** Executions waiting on an escalation (normally one). */
export async function executionsAwaiting(db: Db, workspaceId: string, escalationId: string): Promise<ExecutionRow[]> {
  return db
    .select()
    .from(executions)
    .where(and(eq(executions.workspaceId, workspaceId), eq(executions.escalationId, escalationId), eq(executions.status, "awaiting_approval")));
}
