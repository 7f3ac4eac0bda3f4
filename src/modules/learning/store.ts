// Learning: read-only aggregates over a workspace's intelligence records (intents, chat turns included),
// executions and audit entries. SQL only; every query filters by the workspace first and by a window
// (`since`), and each is bounded by a row limit, so the cost does not grow with the workspace's history.
import { sql } from "drizzle-orm";
import type { Db } from "../../db/index.ts";

/** The newest records of a window read for questions and executions read for patterns, at most. */
export const MAX_SCANNED = 5_000;
export const MAX_EXECUTIONS_SCANNED = 10_000;
/** Example trace ids kept per finding. */
export const EXAMPLES = 5;

const rowsOf = <T>(result: unknown): T[] => (result as { rows: T[] }).rows;

export interface UnansweredRow {
  trace_id: string;
  created_at: Date | string;
  domain: string | null;
  question: string | null;
}

/** Records (newest first) whose trace reports a `no_knowledge` gap: memory could not answer the question. */
export async function unansweredQuestions(db: Db, workspaceId: string, since: Date): Promise<UnansweredRow[]> {
  return rowsOf<UnansweredRow>(
    await db.execute(sql`
      select i.trace_id, i.created_at, i.domain,
        (select m->>'content' from jsonb_array_elements(i.request->'messages') with ordinality as e(m, n)
          where m->>'role' = 'user' order by e.n desc limit 1) as question
      from intents i
      where i.workspace_id = ${workspaceId} and i.created_at >= ${since} and i.gaps > 0
        and i.response->'intelligence'->'humility'->'gaps' @> '[{"kind":"no_knowledge"}]'::jsonb
      order by i.created_at desc, i.id desc
      limit ${MAX_SCANNED}`),
  );
}

export interface CountedRow {
  key: string;
  name: string | null;
  n: number;
  first_seen: Date | string;
  last_seen: Date | string;
  traces: string[] | null;
  domain: string | null;
}

/**
 * Catalog integrations the records asked for while the workspace lacked them (the engine's blocking
 * `missing_capability` gap names the integration), still not installed, asked for at least `min` times.
 */
export async function missingIntegrations(db: Db, workspaceId: string, since: Date, min: number): Promise<CountedRow[]> {
  return rowsOf<CountedRow>(
    await db.execute(sql`
      select g.value->>'capability' as key, max(i.response->'integration'->>'name') as name, count(distinct i.trace_id)::int as n,
        min(i.created_at) as first_seen, max(i.created_at) as last_seen,
        (array_agg(i.trace_id order by i.created_at desc, i.id desc))[1:${EXAMPLES}] as traces, max(i.domain) as domain
      from (select * from intents where workspace_id = ${workspaceId} and created_at >= ${since} and gaps > 0 order by created_at desc limit ${MAX_SCANNED}) i
        cross join lateral jsonb_array_elements(coalesce(i.response->'intelligence'->'humility'->'gaps', '[]'::jsonb)) as g(value)
      where g.value->>'kind' = 'missing_capability' and g.value->>'capability' is not null
        and not exists (select 1 from connections c where c.workspace_id = ${workspaceId} and c.integration_id = g.value->>'capability')
      group by g.value->>'capability'
      having count(distinct i.trace_id) >= ${min}
      order by n desc, key`),
  );
}

/**
 * Policies that blocked at least `min` requests: intent and chat records decided `blocked`, and direct tool
 * invocations the audit log shows blocked, counted once per trace. Only policies that still exist.
 */
export async function blockingPolicies(db: Db, workspaceId: string, since: Date, min: number): Promise<CountedRow[]> {
  return rowsOf<CountedRow>(
    await db.execute(sql`
      select b.policy_id as key, max(p.name) as name, count(distinct b.trace_id)::int as n, min(b.at) as first_seen, max(b.at) as last_seen,
        (array_agg(distinct b.trace_id))[1:${EXAMPLES}] as traces, max(b.domain) as domain
      from (
        select coalesce(i.response->>'policy_id', i.response->'intelligence'->'governance'->>'policy_id') as policy_id, i.trace_id, i.created_at as at, i.domain
        from intents i where i.workspace_id = ${workspaceId} and i.created_at >= ${since} and i.decision = 'blocked'
        union all
        select a.details->>'policy_id', coalesce(a.trace_id, a.id), a.created_at, a.details->>'domain'
        from audit_entries a
        where a.workspace_id = ${workspaceId} and a.created_at >= ${since} and a.action = 'tool.invoke' and a.details->>'decision' = 'blocked'
      ) b
      join policies p on p.workspace_id = ${workspaceId} and p.id = b.policy_id and p.deleted_at is null
      group by b.policy_id
      having count(distinct b.trace_id) >= ${min}
      order by n desc, key`),
  );
}

export interface ToolPatternRow {
  tool: string;
  arguments: Record<string, unknown>;
  n: number;
  succeeded: number;
  failed: number;
  first_seen: Date | string;
  last_seen: Date | string;
  traces: string[] | null;
  domain: string | null;
}

/** The same tool with the same (redacted) arguments planned in at least `min` executions. */
export async function toolArgumentPatterns(db: Db, workspaceId: string, since: Date, min: number): Promise<ToolPatternRow[]> {
  return rowsOf<ToolPatternRow>(
    await db.execute(sql`
      select s.value->>'tool' as tool, s.value->'arguments' as arguments, count(*)::int as n,
        count(*) filter (where s.value->>'status' = 'succeeded')::int as succeeded,
        count(*) filter (where s.value->>'status' = 'failed')::int as failed,
        min(e.created_at) as first_seen, max(e.created_at) as last_seen,
        (array_agg(i.trace_id order by e.created_at desc, e.id desc) filter (where i.trace_id is not null))[1:${EXAMPLES}] as traces,
        max(e.domain) as domain
      from (select * from executions where workspace_id = ${workspaceId} and created_at >= ${since} order by created_at desc limit ${MAX_EXECUTIONS_SCANNED}) e
        cross join lateral jsonb_array_elements(e.steps) as s(value)
        left join intents i on i.workspace_id = ${workspaceId} and i.id = e.intent_id
      group by s.value->>'tool', s.value->'arguments'
      having count(*) >= ${min}
      order by n desc, tool, (s.value->'arguments')::text
      limit 200`),
  );
}

export interface ToolUsageRow {
  tool: string;
  argument_names: string[] | null;
  n: number;
  succeeded: number;
  failed: number;
  first_seen: Date | string;
  last_seen: Date | string;
  traces: string[] | null;
}

/** Every call of a tool the audit log holds (executions, direct invocations, chat), by tool and argument names. */
export async function toolUsagePatterns(db: Db, workspaceId: string, since: Date, min: number): Promise<ToolUsageRow[]> {
  return rowsOf<ToolUsageRow>(
    await db.execute(sql`
      select a.resource_id as tool, a.details->'argument_names' as argument_names, count(*)::int as n,
        count(*) filter (where a.details->>'status' = 'succeeded')::int as succeeded,
        count(*) filter (where a.details->>'status' = 'failed')::int as failed,
        min(a.created_at) as first_seen, max(a.created_at) as last_seen,
        (array_agg(distinct a.trace_id) filter (where a.trace_id is not null))[1:${EXAMPLES}] as traces
      from audit_entries a
      where a.workspace_id = ${workspaceId} and a.created_at >= ${since} and a.action = 'tool.invoke' and a.details->>'status' is not null
      group by a.resource_id, a.details->'argument_names'
      having count(*) >= ${min}
      order by n desc, tool
      limit 200`),
  );
}

export interface EpisodeRow {
  id: string;
  status: string;
  domain: string | null;
  steps: { tool: string; status: string; attempts: number; arguments: Record<string, unknown> }[];
  error: string | null;
  error_category: string | null;
  created_at: Date | string;
  started_at: Date | string | null;
  finished_at: Date | string | null;
  trace_id: string | null;
}

/** Finished executions (completed, failed, cancelled), newest first, with the trace of the record that planned them. */
export async function finishedExecutions(db: Db, workspaceId: string, since: Date, limit: number, offset: number): Promise<EpisodeRow[]> {
  return rowsOf<EpisodeRow>(
    await db.execute(sql`
      select e.id, e.status, e.domain, e.steps, e.error, e.diagnosis->>'error_category' as error_category, e.created_at, e.started_at, e.finished_at,
        i.trace_id
      from executions e
        left join intents i on i.workspace_id = ${workspaceId} and i.id = e.intent_id
      where e.workspace_id = ${workspaceId} and e.created_at >= ${since} and e.status in ('completed', 'failed', 'cancelled')
      order by coalesce(e.finished_at, e.updated_at) desc, e.id desc
      limit ${limit} offset ${offset}`),
  );
}

export async function countFinishedExecutions(db: Db, workspaceId: string, since: Date): Promise<number> {
  const [row] = rowsOf<{ n: number }>(
    await db.execute(sql`
      select count(*)::int as n from executions
      where workspace_id = ${workspaceId} and created_at >= ${since} and status in ('completed', 'failed', 'cancelled')`),
  );
  return Number(row?.n ?? 0);
}
