// Healing precedents: SQL only, every query filtered by the workspace first.
import { and, desc, eq, gte, isNull, sql } from "drizzle-orm";
import type { Db } from "../../db/index.ts";
import { executions, healingPrecedents } from "../../db/schema.ts";

export type PrecedentRow = typeof healingPrecedents.$inferSelect;
export type NewPrecedent = Omit<typeof healingPrecedents.$inferInsert, "workspaceId">;

/** Inserts a precedent unless one of the same source exists; the row now standing for the source. */
export async function insertPrecedent(db: Db, workspaceId: string, row: NewPrecedent): Promise<{ row: PrecedentRow; created: boolean }> {
  const [created] = await db
    .insert(healingPrecedents)
    .values({ ...row, workspaceId })
    .onConflictDoNothing({ target: [healingPrecedents.workspaceId, healingPrecedents.sourceKey] })
    .returning();
  if (created) return { row: created, created: true };
  const [existing] = await db
    .select()
    .from(healingPrecedents)
    .where(and(eq(healingPrecedents.workspaceId, workspaceId), eq(healingPrecedents.sourceKey, row.sourceKey)));
  return { row: existing!, created: false };
}

/** Open failures of a tool since `since` (recorded from executions, not yet recovered) become recovered. */
export async function markRecovered(db: Db, workspaceId: string, tool: string, since: Date, by: { executionId: string; at: Date }): Promise<number> {
  const rows = await db
    .update(healingPrecedents)
    .set({
      success: true,
      recoveredBy: by.executionId,
      recoveredAt: by.at,
      whatWorked: sql`'after ' || ${healingPrecedents.recoveryStrategy} || ' (' || ${healingPrecedents.errorType} || '), execution ' || ${by.executionId} || ' of ' || ${tool} || ' completed'`,
      durationMs: sql`greatest(0, (extract(epoch from (${by.at}::timestamptz - ${healingPrecedents.createdAt})) * 1000)::int)`,
    })
    .where(
      and(
        eq(healingPrecedents.workspaceId, workspaceId),
        eq(healingPrecedents.toolName, tool),
        eq(healingPrecedents.source, "execution"),
        eq(healingPrecedents.success, false),
        isNull(healingPrecedents.recoveredBy),
        gte(healingPrecedents.createdAt, since),
      ),
    )
    .returning({ id: healingPrecedents.id });
  return rows.length;
}

export interface PrecedentFilter {
  tool?: string;
  category?: string;
  success?: boolean;
  limit: number;
  offset: number;
}

export async function listPrecedents(db: Db, workspaceId: string, filter: PrecedentFilter): Promise<{ rows: PrecedentRow[]; total: number }> {
  const where = and(
    eq(healingPrecedents.workspaceId, workspaceId),
    filter.tool ? eq(healingPrecedents.toolName, filter.tool) : undefined,
    filter.category ? eq(healingPrecedents.errorCategory, filter.category) : undefined,
    filter.success !== undefined ? eq(healingPrecedents.success, filter.success) : undefined,
  );
  const rows = await db.select().from(healingPrecedents).where(where).orderBy(desc(healingPrecedents.createdAt), desc(healingPrecedents.id)).limit(filter.limit).offset(filter.offset);
  const [count] = await db.select({ n: sql<number>`count(*)::int` }).from(healingPrecedents).where(where);
  return { rows, total: Number(count?.n ?? 0) };
}

export interface PrecedentMatch {
  matched: number;
  successful: number;
  /** The strategy that worked most often (ties: the alphabetically first), when any worked. */
  strategy?: string;
  whatWorked?: string;
  exampleIds: string[];
}

/**
 * Precedents of the same category (and tool, when named): how many, how many recovered, what worked. The
 * same tool's precedents are preferred; without any, those of the category for any tool.
 */
export async function matchPrecedents(db: Db, workspaceId: string, category: string, tool: string | undefined): Promise<PrecedentMatch & { sameTool: boolean }> {
  // One statement: the counts, the most frequent strategy among recoveries (mode() picks the first in sort
  // order on a tie) and the newest recoveries.
  const of = async (byTool: boolean): Promise<PrecedentMatch> => {
    const p = healingPrecedents;
    const [row] = await db
      .select({
        matched: sql<number>`count(*)::int`,
        successful: sql<number>`count(*) filter (where ${p.success})::int`,
        strategy: sql<string | null>`mode() within group (order by ${p.recoveryStrategy}) filter (where ${p.success})`,
        examples: sql<string[] | null>`(array_agg(${p.id} order by ${p.createdAt} desc, ${p.id} desc) filter (where ${p.success}))[1:3]`,
        whatWorked: sql<(string | null)[] | null>`(array_agg(${p.whatWorked} order by ${p.createdAt} desc, ${p.id} desc) filter (where ${p.success}))[1:1]`,
      })
      .from(p)
      .where(and(eq(p.workspaceId, workspaceId), eq(p.errorCategory, category), byTool && tool ? eq(p.toolName, tool) : undefined));
    const whatWorked = row?.whatWorked?.[0];
    return {
      matched: Number(row?.matched ?? 0),
      successful: Number(row?.successful ?? 0),
      ...(row?.strategy ? { strategy: row.strategy } : {}),
      ...(whatWorked ? { whatWorked } : {}),
      exampleIds: row?.examples ?? [],
    };
  };
  if (tool) {
    const own = await of(true);
    if (own.matched > 0) return { ...own, sameTool: true };
  }
  return { ...(await of(false)), sameTool: false };
}

export async function precedentStats(db: Db, workspaceId: string, since: Date) {
  const p = healingPrecedents;
  const [totals] = await db
    .select({
      total: sql<number>`count(*)::int`,
      successful: sql<number>`count(*) filter (where ${p.success})::int`,
      avgDuration: sql<number | null>`round(avg(${p.durationMs}) filter (where ${p.success}))::int`,
      first: sql<string | null>`min(${p.createdAt})`,
      last: sql<string | null>`max(${p.createdAt})`,
    })
    .from(p)
    .where(eq(p.workspaceId, workspaceId));
  const strategies = await db
    .select({ strategy: p.recoveryStrategy, count: sql<number>`count(*)::int` })
    .from(p)
    .where(and(eq(p.workspaceId, workspaceId), eq(p.success, true)))
    .groupBy(p.recoveryStrategy)
    .orderBy(desc(sql`count(*)`), p.recoveryStrategy)
    .limit(10);
  const tools = await db
    .select({
      tool: p.toolName,
      total: sql<number>`count(*)::int`,
      successful: sql<number>`count(*) filter (where ${p.success})::int`,
      top: sql<string | null>`mode() within group (order by ${p.recoveryStrategy}) filter (where ${p.success})`,
    })
    .from(p)
    .where(eq(p.workspaceId, workspaceId))
    .groupBy(p.toolName)
    .orderBy(desc(sql`count(*)`), p.toolName)
    .limit(10);
  const categories = await db
    .select({ category: p.errorCategory, total: sql<number>`count(*)::int`, successful: sql<number>`count(*) filter (where ${p.success})::int` })
    .from(p)
    .where(eq(p.workspaceId, workspaceId))
    .groupBy(p.errorCategory);
  // What the runner diagnosed (every failed execution carries its diagnosis), over the window.
  const diagnosed = await db
    .select({ category: sql<string>`${executions.diagnosis}->>'error_category'`, n: sql<number>`count(*)::int` })
    .from(executions)
    .where(and(eq(executions.workspaceId, workspaceId), eq(executions.status, "failed"), gte(executions.createdAt, since), sql`${executions.diagnosis} is not null`))
    .groupBy(sql`${executions.diagnosis}->>'error_category'`);
  return { totals, strategies, tools, categories, diagnosed };
}

export async function precedentBySource(db: Db, workspaceId: string, sourceKey: string): Promise<PrecedentRow | undefined> {
  const [row] = await db
    .select()
    .from(healingPrecedents)
    .where(and(eq(healingPrecedents.workspaceId, workspaceId), eq(healingPrecedents.sourceKey, sourceKey)));
  return row;
}
