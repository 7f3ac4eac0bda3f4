import { and, asc, eq, isNull } from "drizzle-orm";
import type { Db } from "../../db/index.ts";
import { credentials } from "../../db/schema.ts";

export type CredentialRow = typeof credentials.$inferSelect;

export async function insertCredential(db: Db, workspaceId: string, row: Omit<typeof credentials.$inferInsert, "workspaceId">): Promise<CredentialRow> {
  const [created] = await db
    .insert(credentials)
    .values({ ...row, workspaceId })
    .returning();
  return created!;
}

export async function listCredentials(db: Db, workspaceId: string): Promise<CredentialRow[]> {
  return db
    .select()
    .from(credentials)
    .where(and(eq(credentials.workspaceId, workspaceId), isNull(credentials.deletedAt)))
    .orderBy(asc(credentials.createdAt), asc(credentials.id));
}

export async function findCredential(db: Db, workspaceId: string, id: string): Promise<CredentialRow | undefined> {
  const [row] = await db
    .select()
    .from(credentials)
    .where(and(eq(credentials.workspaceId, workspaceId), eq(credentials.id, id), isNull(credentials.deletedAt)));
  return row;
}

/** Records the host an unbound credential is first used with; undefined when it was bound already (or gone). */
export async function bindCredentialHost(db: Db, workspaceId: string, id: string, host: string): Promise<CredentialRow | undefined> {
  const [row] = await db
    .update(credentials)
    .set({ boundHost: host })
    .where(and(eq(credentials.workspaceId, workspaceId), eq(credentials.id, id), isNull(credentials.deletedAt), isNull(credentials.boundHost)))
    .returning();
  return row;
}

/** Soft delete that also destroys the sealed secret: nothing of it stays readable. */
export async function deleteCredential(db: Db, workspaceId: string, id: string, at: Date): Promise<boolean> {
  const deleted = await db
    .update(credentials)
    .set({ deletedAt: at, secret: "" })
    .where(and(eq(credentials.workspaceId, workspaceId), eq(credentials.id, id), isNull(credentials.deletedAt)))
    .returning({ id: credentials.id });
  return deleted.length === 1;
}

/** Providers with at least one live credential (no secret column is read). */
export async function liveProviders(db: Db, workspaceId: string): Promise<string[]> {
  const rows = await db
    .selectDistinct({ provider: credentials.provider })
    .from(credentials)
    .where(and(eq(credentials.workspaceId, workspaceId), isNull(credentials.deletedAt)));
  return rows.map((row) => row.provider);
}
