import { and, asc, eq, sql } from "drizzle-orm";
import type { Db } from "../../db/index.ts";
import { connections, credentials } from "../../db/schema.ts";

export type ConnectionRow = typeof connections.$inferSelect;

/** Inserts a catalog connection unless the workspace has it already; returns the row either way. */
export async function installCatalogConnection(
  db: Db,
  workspaceId: string,
  row: { id: string; integrationId: string; name: string; provider: string; createdAt: Date },
): Promise<{ row: ConnectionRow; created: boolean }> {
  const inserted = await db
    .insert(connections)
    .values({ ...row, workspaceId, kind: "catalog" })
    .onConflictDoNothing()
    .returning();
  if (inserted[0]) return { row: inserted[0], created: true };
  const [existing] = await db
    .select()
    .from(connections)
    .where(and(eq(connections.workspaceId, workspaceId), eq(connections.kind, "catalog"), eq(connections.integrationId, row.integrationId)));
  return { row: existing!, created: false };
}

/** Inserts an imported connection (an OpenAPI service or an MCP server, with its tools in `config`). */
export async function insertConnection(
  db: Db,
  workspaceId: string,
  row: { id: string; kind: "openapi" | "mcp"; name: string; provider: string; config: Record<string, unknown>; createdAt: Date },
): Promise<ConnectionRow> {
  const [inserted] = await db
    .insert(connections)
    .values({ ...row, workspaceId })
    .returning();
  return inserted!;
}

export async function listConnections(db: Db, workspaceId: string): Promise<ConnectionRow[]> {
  return db.select().from(connections).where(eq(connections.workspaceId, workspaceId)).orderBy(asc(connections.createdAt), asc(connections.id));
}

export async function deleteConnection(db: Db, workspaceId: string, id: string): Promise<ConnectionRow | undefined> {
  const [row] = await db
    .delete(connections)
    .where(and(eq(connections.workspaceId, workspaceId), eq(connections.id, id)))
    .returning();
  return row;
}

/**
 * Per workspace: connections and how many are authorised (imported ones always are; a catalog one when its
 * provider has a credential). Startup and
 * periodic housekeeping for the in-memory health summary, across all workspaces by nature.
 */
export async function connectionCounts(db: Db): Promise<{ workspaceId: string; total: number; authorised: number }[]> {
  const rows = await db
    .select({
      workspaceId: connections.workspaceId,
      total: sql<number>`count(*)::int`,
      authorised: sql<number>`count(*) filter (where ${connections.kind} <> 'catalog' or exists (
        select 1 from ${credentials} c where c.workspace_id = ${connections.workspaceId} and c.provider = ${connections.provider} and c.deleted_at is null))::int`,
    })
    .from(connections)
    .groupBy(connections.workspaceId);
  return rows.map((r) => ({ workspaceId: r.workspaceId, total: Number(r.total), authorised: Number(r.authorised) }));
}

