import { asc, count, eq } from "drizzle-orm";
import type { Db } from "../../db/index.ts";
import { workspaces } from "../../db/schema.ts";

export type WorkspaceRow = typeof workspaces.$inferSelect;

export async function insertWorkspace(db: Db, row: { id: string; name: string; createdAt: Date }): Promise<WorkspaceRow> {
  const [created] = await db.insert(workspaces).values(row).returning();
  return created!;
}

export async function findWorkspace(db: Db, workspaceId: string): Promise<WorkspaceRow | undefined> {
  const [row] = await db.select().from(workspaces).where(eq(workspaces.id, workspaceId)).limit(1);
  return row;
}

/** Operator view: every workspace. The one store read that is not scoped to a workspace, by its nature. */
export async function listAllWorkspaces(db: Db, limit: number, offset: number): Promise<WorkspaceRow[]> {
  return db.select().from(workspaces).orderBy(asc(workspaces.createdAt), asc(workspaces.id)).limit(limit).offset(offset);
}

export async function countAllWorkspaces(db: Db): Promise<number> {
  const [row] = await db.select({ n: count() }).from(workspaces);
  return row?.n ?? 0;
}
