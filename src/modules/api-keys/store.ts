import { and, asc, eq, ne, sql } from "drizzle-orm";
import type { Db } from "../../db/index.ts";
import { apiKeys, workspaces } from "../../db/schema.ts";

export type ApiKeyRow = typeof apiKeys.$inferSelect;
export type NewApiKey = typeof apiKeys.$inferInsert;

export async function insertKey(db: Db, workspaceId: string, row: Omit<NewApiKey, "workspaceId">): Promise<ApiKeyRow> {
  const [created] = await db
    .insert(apiKeys)
    .values({ ...row, workspaceId })
    .returning();
  return created!;
}

export async function listKeys(db: Db, workspaceId: string, includeRevoked: boolean): Promise<ApiKeyRow[]> {
  const scope = includeRevoked
    ? eq(apiKeys.workspaceId, workspaceId)
    : and(eq(apiKeys.workspaceId, workspaceId), ne(apiKeys.status, "revoked"));
  return db.select().from(apiKeys).where(scope).orderBy(asc(apiKeys.createdAt), asc(apiKeys.id));
}

/** The key row locked for update, inside a transaction. */
export async function lockKey(tx: Db, workspaceId: string, keyId: string): Promise<ApiKeyRow | undefined> {
  const [row] = await tx
    .select()
    .from(apiKeys)
    .where(and(eq(apiKeys.workspaceId, workspaceId), eq(apiKeys.id, keyId)))
    .for("update");
  return row;
}

export async function setKeyStatus(
  tx: Db,
  workspaceId: string,
  keyId: string,
  change: Pick<Partial<ApiKeyRow>, "status" | "rotatedAt" | "revokedAt">,
): Promise<void> {
  await tx
    .update(apiKeys)
    .set(change)
    .where(and(eq(apiKeys.workspaceId, workspaceId), eq(apiKeys.id, keyId)));
}

export interface KeyLookup {
  id: string;
  workspaceId: string;
  workspaceName: string;
  keyHash: string;
  status: ApiKeyRow["status"];
}

/**
 * Authentication's entry point: the key's digest is what identifies the workspace, so this is the one key
 * read that cannot be scoped by a workspace id given in advance.
 */
export async function lookupByDigest(db: Db, digest: string): Promise<KeyLookup | undefined> {
  const [row] = await db
    .select({
      id: apiKeys.id,
      workspaceId: apiKeys.workspaceId,
      workspaceName: workspaces.name,
      keyHash: apiKeys.keyHash,
      status: apiKeys.status,
    })
    .from(apiKeys)
    .innerJoin(workspaces, eq(workspaces.id, apiKeys.workspaceId))
    .where(eq(apiKeys.keyHash, digest))
    .limit(1);
  return row;
}

export async function touchLastUsed(db: Db, entries: { workspaceId: string; keyId: string; at: Date }[]): Promise<void> {
  for (const entry of entries) {
    await db
      .update(apiKeys)
      .set({ lastUsedAt: entry.at })
      .where(
        and(
          eq(apiKeys.workspaceId, entry.workspaceId),
          eq(apiKeys.id, entry.keyId),
          sql`(${apiKeys.lastUsedAt} is null or ${apiKeys.lastUsedAt} < ${entry.at})`,
        ),
      );
  }
}
