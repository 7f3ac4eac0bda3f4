import { and, desc, eq, gte, lte, or, sql } from "drizzle-orm";
import type { Db } from "../../db/index.ts";
import { executions, intents } from "../../db/schema.ts";

export type IntentRow = typeof intents.$inferSelect;
export type NewIntentRow = Omit<typeof intents.$inferInsert, "workspaceId">;

export async function insertIntent(db: Db, workspaceId: string, row: NewIntentRow): Promise<void> {
  await db.insert(intents).values({ ...row, workspaceId });
}

/**
 * Several records of one workspace in one statement (the record writer's batches). The rows travel as one
 * JSON parameter read by jsonb_to_recordset: the statement is the same text whatever the batch size, and
 * building it costs one JSON.stringify; drizzle's multi-row VALUES cost about 0.1 ms of the event loop per
 * record to build (each value mapped and escaped), more than the rest of a chat completion's bookkeeping.
 */
export async function insertIntents(db: Db, workspaceId: string, rows: NewIntentRow[]): Promise<void> {
  if (rows.length === 0) return;
  const payload = JSON.stringify(
    rows.map((r) => ({
      id: r.id,
      trace_id: r.traceId,
      conversation_id: r.conversationId ?? null,
      type: r.type,
      status: r.status,
      domain: r.domain ?? null,
      decision: r.decision,
      confidence: r.confidence,
      gaps: r.gaps,
      duration_ms: r.durationMs,
      request: r.request,
      response: r.response,
      execution_id: r.executionId ?? null,
      created_at: r.createdAt ? r.createdAt.toISOString() : null,
    })),
  );
  await db.execute(sql`
    insert into intents (id, workspace_id, trace_id, conversation_id, type, status, domain, decision, confidence, gaps, duration_ms, request, response, execution_id, created_at)
    select r.id, ${workspaceId}, r.trace_id, r.conversation_id, r.type, r.status, r.domain, r.decision, r.confidence, r.gaps, r.duration_ms, r.request, r.response, r.execution_id, coalesce(r.created_at, now())
    from jsonb_to_recordset(${payload}::jsonb) as r(id text, trace_id text, conversation_id text, type text, status text, domain text, decision text, confidence real, gaps integer, duration_ms integer, request jsonb, response jsonb, execution_id text, created_at timestamptz)`);
}

/** By intent id or by trace id. */
export async function findIntent(db: Db, workspaceId: string, idOrTrace: string): Promise<IntentRow | undefined> {
  const [row] = await db
    .select()
    .from(intents)
    .where(and(eq(intents.workspaceId, workspaceId), or(eq(intents.id, idOrTrace), eq(intents.traceId, idOrTrace))))
    .orderBy(desc(intents.createdAt))
    .limit(1);
  return row;
}

export interface IntentFilter {
  domain?: string;
  decision?: string;
  type?: string;
  from?: Date;
  to?: Date;
  limit: number;
  offset: number;
}

export async function listIntents(db: Db, workspaceId: string, filter: IntentFilter): Promise<{ rows: IntentRow[]; total: number }> {
  const where = and(
    eq(intents.workspaceId, workspaceId),
    filter.domain ? eq(intents.domain, filter.domain) : undefined,
    filter.decision ? eq(intents.decision, filter.decision) : undefined,
    filter.type ? eq(intents.type, filter.type) : undefined,
    filter.from ? gte(intents.createdAt, filter.from) : undefined,
    filter.to ? lte(intents.createdAt, filter.to) : undefined,
  );
  const rows = await db.select().from(intents).where(where).orderBy(desc(intents.createdAt), desc(intents.id)).limit(filter.limit).offset(filter.offset);
  const [count] = await db.select({ n: sql<number>`count(*)::int` }).from(intents).where(where);
  return { rows, total: Number(count?.n ?? 0) };
}

export async function intentStats(db: Db, workspaceId: string, now: Date) {
  const day = 86_400_000;
  const [row] = await db
    .select({
      d1: sql<number>`count(*) filter (where ${intents.createdAt} > ${new Date(now.getTime() - day)})::int`,
      d7: sql<number>`count(*) filter (where ${intents.createdAt} > ${new Date(now.getTime() - 7 * day)})::int`,
      d30: sql<number>`count(*) filter (where ${intents.createdAt} > ${new Date(now.getTime() - 30 * day)})::int`,
      withGaps: sql<number>`count(*) filter (where ${intents.gaps} > 0 and ${intents.createdAt} > ${new Date(now.getTime() - 30 * day)})::int`,
    })
    .from(intents)
    .where(eq(intents.workspaceId, workspaceId));
  const byDecision = await db
    .select({ decision: intents.decision, n: sql<number>`count(*)::int` })
    .from(intents)
    .where(and(eq(intents.workspaceId, workspaceId), gte(intents.createdAt, new Date(now.getTime() - 30 * day))))
    .groupBy(intents.decision);
  const byDomain = await db
    .select({ domain: intents.domain, confidence: sql<number>`avg(${intents.confidence})::float8` })
    .from(intents)
    .where(and(eq(intents.workspaceId, workspaceId), gte(intents.createdAt, new Date(now.getTime() - 30 * day))))
    .groupBy(intents.domain);
  return { row, byDecision, byDomain };
}

/** The execution an intent planned, as it stands now (status, error, diagnosis). */
export async function executionOfIntent(db: Db, workspaceId: string, executionId: string) {
  const [row] = await db
    .select({ id: executions.id, status: executions.status, error: executions.error, diagnosis: executions.diagnosis, finishedAt: executions.finishedAt })
    .from(executions)
    .where(and(eq(executions.workspaceId, workspaceId), eq(executions.id, executionId)));
  return row;
}
