import { and, desc, eq, sql, type SQL } from "drizzle-orm";
import type { Db } from "../../db/index.ts";
import { memoryItems, memoryItemVersions } from "../../db/schema.ts";

export type MemoryRow = typeof memoryItems.$inferSelect;
export type NewMemoryRow = Omit<typeof memoryItems.$inferInsert, "workspaceId" | "search">;

export async function insertMemory(db: Db, workspaceId: string, row: NewMemoryRow): Promise<MemoryRow> {
  const [created] = await db
    .insert(memoryItems)
    .values({ ...row, workspaceId })
    .returning();
  return created!;
}

export async function findMemory(db: Db, workspaceId: string, id: string, forUpdate = false): Promise<MemoryRow | undefined> {
  const query = db
    .select()
    .from(memoryItems)
    .where(and(eq(memoryItems.workspaceId, workspaceId), eq(memoryItems.id, id)));
  const [row] = forUpdate ? await query.for("update") : await query;
  return row;
}

/** Keeps the current version in the history table, then writes the new one. */
export async function replaceMemory(db: Db, workspaceId: string, previous: MemoryRow, next: Omit<NewMemoryRow, "id" | "createdAt">): Promise<MemoryRow> {
  await db.insert(memoryItemVersions).values({
    itemId: previous.id,
    workspaceId,
    version: previous.version,
    type: previous.type,
    domain: previous.domain,
    scope: previous.scope,
    authority: previous.authority,
    tags: previous.tags,
    content: previous.content,
    createdAt: previous.updatedAt,
  });
  const [row] = await db
    .update(memoryItems)
    .set(next)
    .where(and(eq(memoryItems.workspaceId, workspaceId), eq(memoryItems.id, previous.id)))
    .returning();
  return row!;
}

export async function deleteMemory(db: Db, workspaceId: string, id: string): Promise<boolean> {
  await db.delete(memoryItemVersions).where(and(eq(memoryItemVersions.workspaceId, workspaceId), eq(memoryItemVersions.itemId, id)));
  const deleted = await db
    .delete(memoryItems)
    .where(and(eq(memoryItems.workspaceId, workspaceId), eq(memoryItems.id, id)))
    .returning({ id: memoryItems.id });
  return deleted.length === 1;
}

export interface SearchFilter {
  domain?: string;
  tag?: string;
  limit: number;
}

export type SearchHit = MemoryRow & { score: number };

function filters(workspaceId: string, filter: SearchFilter): SQL[] {
  const where = [eq(memoryItems.workspaceId, workspaceId)];
  if (filter.domain) where.push(eq(memoryItems.domain, filter.domain));
  if (filter.tag) where.push(sql`${memoryItems.tags} @> array[${filter.tag}]::text[]`);
  return where;
}

/**
 * Full-text search ranked by ts_rank. `all` demands every word (websearch semantics: quotes, -exclusion,
 * or); otherwise the same query is relaxed to any of its words, for natural-language questions.
 */
export async function searchFullText(db: Db, workspaceId: string, query: string, filter: SearchFilter, all: boolean): Promise<SearchHit[]> {
  const parsed = sql`websearch_to_tsquery('english', ${query})`;
  const tsquery = all ? parsed : sql`(replace(${parsed}::text, ' & ', ' | '))::tsquery`;
  return (await db
    .select({ item: memoryItems, score: sql<number>`ts_rank(${memoryItems.search}, ${tsquery})`.as("score") })
    .from(memoryItems)
    .where(and(...filters(workspaceId, filter), sql`${memoryItems.search} @@ ${tsquery}`))
    .orderBy(sql`score desc`, desc(memoryItems.authority), desc(memoryItems.createdAt))
    .limit(filter.limit)
    .then((rows) => rows.map((r) => ({ ...r.item, score: Number(r.score) })))) as SearchHit[];
}

/** Near-misses (typos, partial words) by trigram word similarity, served by the trigram index. */
export async function searchTrigram(db: Db, workspaceId: string, query: string, filter: SearchFilter): Promise<SearchHit[]> {
  return db.transaction(async (tx) => {
    await tx.execute(sql`select set_config('pg_trgm.word_similarity_threshold', '0.3', true)`);
    const rows = await tx
      .select({ item: memoryItems, score: sql<number>`word_similarity(${query}, ${memoryItems.body})`.as("score") })
      .from(memoryItems)
      .where(and(...filters(workspaceId, filter), sql`${query} <% ${memoryItems.body}`))
      .orderBy(sql`score desc`, desc(memoryItems.authority))
      .limit(filter.limit);
    return rows.map((r) => ({ ...r.item, score: Number(r.score) }));
  });
}
