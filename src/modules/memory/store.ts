import { and, desc, eq, getTableColumns, inArray, sql, type SQL } from "drizzle-orm";
import type { Db } from "../../db/index.ts";
import { memoryItems, memoryItemVersions, memoryTerms } from "../../db/schema.ts";

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

/** The newest items of one type (preferences for the intent engine), at most `limit`. */
export async function itemsOfType(db: Db, workspaceId: string, type: string, limit: number): Promise<MemoryRow[]> {
  return db
    .select()
    .from(memoryItems)
    .where(and(eq(memoryItems.workspaceId, workspaceId), eq(memoryItems.type, type)))
    .orderBy(desc(memoryItems.updatedAt))
    .limit(limit);
}

/** How many items the workspace holds. */
export async function countMemory(db: Db, workspaceId: string): Promise<number> {
  const [counted] = await db
    .select({ n: sql<number>`count(*)::int` })
    .from(memoryItems)
    .where(eq(memoryItems.workspaceId, workspaceId));
  return Number(counted?.n ?? 0);
}

/**
 * The workspace's items (at most `limit`), for the in-process recall index. The tsvector column is left
 * out (empty): nothing reads it from a hit, and it would double what the index holds.
 */
export async function itemsForRecall(db: Db, workspaceId: string, limit: number): Promise<MemoryRow[]> {
  const { search: _search, ...columns } = getTableColumns(memoryItems);
  const rows = await db.select(columns).from(memoryItems).where(eq(memoryItems.workspaceId, workspaceId)).limit(limit);
  return rows.map((row) => ({ ...row, search: "" }));
}

/** One item for the recall index (as itemsForRecall reads them), or undefined when it is gone. */
export async function itemForRecall(db: Db, workspaceId: string, id: string): Promise<MemoryRow | undefined> {
  const { search: _search, ...columns } = getTableColumns(memoryItems);
  const [row] = await db.select(columns).from(memoryItems).where(and(eq(memoryItems.workspaceId, workspaceId), eq(memoryItems.id, id))).limit(1);
  return row ? { ...row, search: "" } : undefined;
}

/** The channel on which every process hears that a workspace's memory changed (see announceChange). */
export const MEMORY_CHANNEL = "svc_memory";

export interface MemoryChange {
  workspaceId: string;
  /** The process that made the change (it has applied it already). */
  origin: string;
  /** The item written or deleted; absent when the change is not about one item. */
  itemId?: string;
}

/**
 * Tells every process on this database that the workspace's memory changed, as part of the write's
 * transaction: Postgres delivers a NOTIFY at commit and drops it on rollback, so a committed write is never
 * left unannounced (a process dying between commit and a separate notify) and a failed one never announced.
 */
export async function announceChange(db: Db, workspaceId: string, origin: string, itemId: string): Promise<void> {
  await db.execute(sql`select pg_notify(${MEMORY_CHANNEL}, ${JSON.stringify({ workspace_id: workspaceId, origin, item_id: itemId })})`);
}

/** The change a MEMORY_CHANNEL payload announces, or undefined when it is not one. */
export function parseChange(payload: string): MemoryChange | undefined {
  try {
    const parsed = JSON.parse(payload) as { workspace_id?: unknown; origin?: unknown; item_id?: unknown };
    if (typeof parsed.workspace_id !== "string" || typeof parsed.origin !== "string") return undefined;
    return { workspaceId: parsed.workspace_id, origin: parsed.origin, ...(typeof parsed.item_id === "string" ? { itemId: parsed.item_id } : {}) };
  } catch {
    return undefined;
  }
}

export async function countByType(db: Db, workspaceId: string): Promise<Record<string, number>> {
  const rows = await db
    .select({ type: memoryItems.type, n: sql<number>`count(*)::int` })
    .from(memoryItems)
    .where(eq(memoryItems.workspaceId, workspaceId))
    .groupBy(memoryItems.type);
  return Object.fromEntries(rows.map((r) => [r.type, Number(r.n)]));
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

// Relevance (ts_rank) is computed for at most this many matches: the most authoritative and most recent
// ones. Ranking is the expensive part of a search, and a query matching more items than this is too broad
// for its order among the rest to mean much; it keeps a search's cost bounded on any workspace size.
export const RANK_CANDIDATES = 200;

/**
 * Full-text search ranked by ts_rank. `all` demands every word (websearch semantics: quotes, -exclusion,
 * or); otherwise the same query is relaxed to any of its words, for natural-language questions.
 */
export async function searchFullText(db: Db, workspaceId: string, query: string, filter: SearchFilter, all: boolean): Promise<SearchHit[]> {
  const parsed = sql`websearch_to_tsquery('english', ${query})`;
  const tsquery = all ? parsed : sql`(replace(${parsed}::text, ' & ', ' | '))::tsquery`;
  const where = filters(workspaceId, filter).reduce((acc, clause) => sql`${acc} and ${clause}`, sql`true`);
  // Narrow first (ids and vectors only), then fetch the few rows that are returned.
  const ranked = (await db.execute(sql`
    with q as (select ${tsquery} as q),
    candidates as (
      select ${memoryItems.id} as id, ${memoryItems.search} as search, ${memoryItems.authority} as authority, ${memoryItems.createdAt} as created_at
      from ${memoryItems}, q
      where ${where} and ${memoryItems.search} @@ q.q
      order by ${memoryItems.authority} desc, ${memoryItems.createdAt} desc
      limit ${RANK_CANDIDATES}
    )
    select id, ts_rank(search, q.q) as score from candidates, q
    order by score desc, authority desc, created_at desc
    limit ${filter.limit}`)) as unknown as { rows: { id: string; score: number }[] };
  return withRows(db, workspaceId, ranked.rows);
}

async function withRows(db: Db, workspaceId: string, ranked: { id: string; score: number }[]): Promise<SearchHit[]> {
  if (ranked.length === 0) return [];
  const rows = await db
    .select()
    .from(memoryItems)
    .where(and(eq(memoryItems.workspaceId, workspaceId), sql`${memoryItems.id} in (${sql.join(ranked.map((r) => sql`${r.id}`), sql`, `)})`));
  const byId = new Map(rows.map((row) => [row.id, row]));
  return ranked.flatMap((r) => {
    const row = byId.get(r.id);
    return row ? [{ ...row, score: Number(r.score) }] : [];
  });
}

/** Words of a text as they are kept in the lexicon: lower case, letters and digits, 3 to 40 characters. */
export function termsOf(text: string): string[] {
  return [...new Set(text.toLowerCase().match(/[\p{L}\p{N}]{3,40}/gu) ?? [])];
}

/** Adds the words of these texts to the workspace's lexicon (used to correct typos in queries). */
export async function addTerms(db: Db, workspaceId: string, texts: string[]): Promise<void> {
  const terms = [...new Set(texts.flatMap(termsOf))];
  for (let i = 0; i < terms.length; i += 1000) {
    await db
      .insert(memoryTerms)
      .values(terms.slice(i, i + 1000).map((term) => ({ workspaceId, term })))
      .onConflictDoNothing();
  }
}

/**
 * The closest word of the workspace's lexicon for each query word it does not contain (trigram
 * similarity, served by the trigram index on the small lexicon table); words it contains stay as they are.
 */
export async function correctTerms(db: Db, workspaceId: string, words: string[]): Promise<Map<string, string>> {
  const corrections = new Map<string, string>();
  if (words.length === 0) return corrections;
  const known = await db
    .select({ term: memoryTerms.term })
    .from(memoryTerms)
    .where(and(eq(memoryTerms.workspaceId, workspaceId), inArray(memoryTerms.term, words)));
  const knownSet = new Set(known.map((k) => k.term));
  const unknown = [...new Set(words.filter((w) => !knownSet.has(w)))];
  if (unknown.length === 0) return corrections;
  // Every unknown word's closest known term in one round trip (each a trigram index lookup).
  const rows = (await db.execute(sql`
    select w.word as word, best.term as term
    from unnest(array[${sql.join(
      unknown.map((w) => sql`${w}`),
      sql`, `,
    )}]::text[]) as w(word)
    cross join lateral (
      select ${memoryTerms.term} as term from ${memoryTerms}
      where ${memoryTerms.workspaceId} = ${workspaceId} and ${memoryTerms.term} % w.word
      order by similarity(${memoryTerms.term}, w.word) desc, ${memoryTerms.term}
      limit 1
    ) best`)) as unknown as { rows: { word: string; term: string }[] };
  for (const row of rows.rows) corrections.set(row.word, row.term);
  return corrections;
}
