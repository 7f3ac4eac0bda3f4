import { and, desc, eq, isNull, sql } from "drizzle-orm";
import type { Db } from "../../db/index.ts";
import { escalations } from "../../db/schema.ts";

export type EscalationRow = typeof escalations.$inferSelect;
export type NewEscalation = Omit<typeof escalations.$inferInsert, "workspaceId" | "status">;

export async function insertEscalation(db: Db, workspaceId: string, row: NewEscalation): Promise<EscalationRow> {
  const [created] = await db.insert(escalations).values({ ...row, workspaceId, status: "pending" }).returning();
  return created!;
}

export async function getEscalation(db: Db, workspaceId: string, id: string): Promise<EscalationRow | undefined> {
  const [row] = await db.select().from(escalations).where(and(eq(escalations.workspaceId, workspaceId), eq(escalations.id, id)));
  return row;
}

export async function listEscalations(
  db: Db,
  workspaceId: string,
  filter: { status?: EscalationRow["status"]; limit: number; offset: number },
): Promise<{ rows: EscalationRow[]; total: number }> {
  const where = filter.status ? and(eq(escalations.workspaceId, workspaceId), eq(escalations.status, filter.status)) : eq(escalations.workspaceId, workspaceId);
  const rows = await db.select().from(escalations).where(where).orderBy(desc(escalations.createdAt), desc(escalations.id)).limit(filter.limit).offset(filter.offset);
  const [count] = await db.select({ n: sql<number>`count(*)::int` }).from(escalations).where(where);
  return { rows, total: Number(count?.n ?? 0) };
}

/** Resolves a pending escalation; undefined when it was not pending (someone decided first). */
export async function resolveEscalation(
  db: Db,
  workspaceId: string,
  id: string,
  resolution: { status: "resolved" | "rejected"; decision: string; note: string | null; resolvedAt: Date; resolvedBy: string },
): Promise<EscalationRow | undefined> {
  const [row] = await db
    .update(escalations)
    .set(resolution)
    .where(and(eq(escalations.workspaceId, workspaceId), eq(escalations.id, id), eq(escalations.status, "pending"), isNull(escalations.resolvedAt)))
    .returning();
  return row;
}
