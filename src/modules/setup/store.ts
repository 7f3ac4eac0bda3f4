// Setup sessions' SQL. The workspace id is the first argument of every function and every query filters by it.
import { and, desc, eq, sql } from "drizzle-orm";
import type { Db } from "../../db/index.ts";
import { setupSessions } from "../../db/schema.ts";

export type SessionRow = typeof setupSessions.$inferSelect;
export type SessionStatus = SessionRow["status"];

export async function insertSession(db: Db, workspaceId: string, row: Omit<typeof setupSessions.$inferInsert, "workspaceId">): Promise<SessionRow> {
  const [created] = await db.insert(setupSessions).values({ ...row, workspaceId }).returning();
  return created!;
}

export async function getSession(db: Db, workspaceId: string, id: string): Promise<SessionRow | undefined> {
  const [row] = await db.select().from(setupSessions).where(and(eq(setupSessions.workspaceId, workspaceId), eq(setupSessions.id, id)));
  return row;
}

/** The row, locked until the transaction ends (adds and applies to one session are serialised). */
export async function lockSession(tx: Db, workspaceId: string, id: string): Promise<SessionRow | undefined> {
  const [row] = await tx.select().from(setupSessions).where(and(eq(setupSessions.workspaceId, workspaceId), eq(setupSessions.id, id))).for("update");
  return row;
}

export async function listSessions(db: Db, workspaceId: string, filter: { status?: SessionStatus; limit: number; offset: number }): Promise<{ rows: SessionRow[]; total: number }> {
  const where = filter.status ? and(eq(setupSessions.workspaceId, workspaceId), eq(setupSessions.status, filter.status)) : eq(setupSessions.workspaceId, workspaceId);
  const rows = await db.select().from(setupSessions).where(where).orderBy(desc(setupSessions.createdAt), desc(setupSessions.id)).limit(filter.limit).offset(filter.offset);
  const [count] = await db.select({ n: sql<number>`count(*)::int` }).from(setupSessions).where(where);
  return { rows, total: Number(count?.n ?? 0) };
}

export async function updateSession(
  db: Db,
  workspaceId: string,
  id: string,
  changes: Partial<Pick<SessionRow, "status" | "items" | "appliedCount" | "failedCount" | "result" | "updatedAt" | "appliedAt">>,
): Promise<SessionRow | undefined> {
  const [row] = await db.update(setupSessions).set(changes).where(and(eq(setupSessions.workspaceId, workspaceId), eq(setupSessions.id, id))).returning();
  return row;
}
