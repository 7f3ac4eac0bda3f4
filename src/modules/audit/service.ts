// The audit read API's rules: filters, pagination, statistics, chain verification, export, and the trail
// of one request or execution (its record, execution, escalations and audit entries joined by id).
import type { Db } from "../../db/index.ts";
import { AppError } from "../../errors/app-error.ts";
import type { ErrorCode } from "../../errors/catalog.ts";
import { chainHash, GENESIS, type AuditEntry } from "../../events/audit.ts";
import type { EscalationRow } from "../escalations/store.ts";
import type { EscalationService } from "../escalations/service.ts";
import type { ExecutionRow, ExecutionService } from "../executions/service.ts";
import type { IntentRow } from "../intent/store.ts";
import { actorLabel, type AuditFilterQuery, type AuditQuery, type VerifyResult } from "./schemas.ts";
import { chainHead, chainPage, countEntries, entryStats, linkedEntries, listEntries, type AuditFilter } from "./store.ts";

/** Pages read while verifying or exporting: bounded memory whatever the log's length. */
export const CHAIN_PAGE = 1_000;
/** Audit entries a trail shows at most (a request writes a handful; an execution a few per step). */
export const TRAIL_ENTRIES = 1_000;

/** What happened around one request or execution, joined by trace, intent, execution and escalation ids. */
export interface Trail {
  traceId: string | null;
  intent: IntentRow | undefined;
  execution: ExecutionRow | undefined;
  escalations: EscalationRow[];
  entries: AuditEntry[];
}

export interface AuditService {
  list(workspaceId: string, query: AuditQuery): Promise<{ rows: AuditEntry[]; total: number; limit: number; offset: number; nextCursor: string | null }>;
  stats(workspaceId: string, query: AuditFilterQuery): Promise<Awaited<ReturnType<typeof summarise>>>;
  verify(workspaceId: string): Promise<VerifyResult>;
  /** Matching entries in chain order, read page by page. */
  export(workspaceId: string, query: AuditFilterQuery): AsyncGenerator<AuditEntry>;
  /** By an execution id, or by a trace id or intent id. */
  trail(workspaceId: string, of: { executionId?: string; traceId?: string }): Promise<Trail>;
}

export interface AuditDeps {
  db: Db;
  executions: Pick<ExecutionService, "get">;
  escalations: Pick<EscalationService, "get">;
  /** The intelligence record by intent id or trace id (after flushing records written behind). */
  findRecord(workspaceId: string, idOrTrace: string): Promise<IntentRow | undefined>;
}

const ACTOR_TYPES = new Set(["key", "operator", "system"]);

/** The store's filter from the query; an impossible one (from after to) is the caller's mistake. */
export function filterOf(query: AuditFilterQuery): AuditFilter {
  const from = query.from ? new Date(query.from) : undefined;
  const to = query.to ? new Date(query.to) : undefined;
  if (from && to && from > to) throw new AppError("invalid_request", { message: "Invalid request: from must not be after to.", details: [{ field: "from", message: "must not be after to" }] });
  const actor = query.actor;
  const actorType = actor && ACTOR_TYPES.has(actor) ? (actor as AuditEntry["actorType"]) : query.actor_type;
  const actorId = actor && !ACTOR_TYPES.has(actor) ? actor.replace(/^key:/, "") : undefined;
  const prefix = query.action?.endsWith("*") ? query.action.slice(0, -1) : undefined;
  return {
    actorType,
    actorId,
    action: prefix === undefined ? query.action : undefined,
    actionPrefix: prefix || undefined,
    resourceType: query.resource_type,
    resourceId: query.resource_id,
    traceId: query.trace_id,
    from,
    to,
  };
}

// SQLSTATE classes of a database that cannot be reached or is shutting down: the log is unavailable, not broken.
const UNAVAILABLE = /^(08|57P0)/;

/** Runs a read; anything but a caller's mistake becomes `code` (or audit_unavailable when the database is gone). */
async function guarded<T>(code: ErrorCode, read: () => Promise<T>): Promise<T> {
  try {
    return await read();
  } catch (error) {
    if (error instanceof AppError) throw error;
    const sqlState = String((error as { code?: unknown; cause?: { code?: unknown } }).code ?? (error as { cause?: { code?: unknown } }).cause?.code ?? "");
    if (UNAVAILABLE.test(sqlState) || sqlState === "ECONNREFUSED") throw new AppError("audit_unavailable", { cause: error });
    throw new AppError(code, { cause: error });
  }
}

async function summarise(db: Db, workspaceId: string, filter: AuditFilter) {
  const s = await entryStats(db, workspaceId, filter);
  const iso = (value: Date | string | null | undefined) => (value ? new Date(value).toISOString() : null);
  const counts = (rows: { key: string; n: number }[]) => Object.fromEntries(rows.map((r) => [r.key, Number(r.n)]));
  return {
    total: Number(s.totals?.n ?? 0),
    first_at: iso(s.totals?.first),
    last_at: iso(s.totals?.last),
    by_action: counts(s.byAction),
    by_resource_type: counts(s.byResourceType),
    by_actor: Object.fromEntries(s.byActor.map((r) => [actorLabel({ actorType: r.type, actorId: r.id }), Number(r.n)])),
    by_actor_type: counts(s.byActorType),
    // Oldest day first, like a chart's axis.
    per_day: s.perDay.map((d) => ({ date: d.day, count: Number(d.n) })).reverse(),
  };
}

/** Why an entry breaks the chain, given the one before it (or null when it holds). */
function breakOf(entry: AuditEntry, prevSeq: number, prevHash: string): string | null {
  if (entry.seq !== prevSeq + 1) return "seq_gap";
  if (entry.prevHash !== prevHash) return "prev_hash_mismatch";
  if (chainHash(prevHash, entry) !== entry.hash) return "hash_mismatch";
  return null;
}

export function createAuditService(deps: AuditDeps): AuditService {
  const { db } = deps;

  async function escalationsOf(workspaceId: string, ids: Set<string>): Promise<EscalationRow[]> {
    const rows = await Promise.all([...ids].map((id) => deps.escalations.get(workspaceId, id).catch(() => undefined)));
    return rows.filter((r): r is EscalationRow => r !== undefined).sort((a, b) => a.createdAt.getTime() - b.createdAt.getTime());
  }

  return {
    list: (workspaceId, query) =>
      guarded("audit_query_failed", async () => {
        const filter = filterOf(query);
        const limit = query.limit ?? 50;
        const order = query.order ?? "desc";
        const cursor = query.cursor === undefined ? undefined : Number(query.cursor);
        // A cursor replaces the offset: keyset pages stay fast and stable while entries are appended.
        const offset = cursor === undefined ? (query.offset ?? 0) : 0;
        // One more than asked says whether another page exists without a second count.
        const rows = await listEntries(db, workspaceId, filter, { limit: limit + 1, offset, order, cursor });
        const more = rows.length > limit;
        const page = rows.slice(0, limit);
        const total = await countEntries(db, workspaceId, filter);
        return { rows: page, total, limit, offset, nextCursor: more ? String(page[page.length - 1]!.seq) : null };
      }),

    stats: (workspaceId, query) => guarded("audit_stats_failed", async () => summarise(db, workspaceId, filterOf(query))),

    verify: (workspaceId) =>
      guarded("audit_query_failed", async () => {
        // Read before the walk: entries appended meanwhile come after it, so the chain must reach this end,
        // with this hash. Deleting the newest entries, or rebuilding the chain, leaves the end behind.
        const end = await chainHead(db, workspaceId);
        let prevSeq = 0;
        let prevHash = GENESIS;
        let checked = 0;
        const head = () => (prevSeq === 0 ? null : { seq: prevSeq, hash: prevHash });
        for (;;) {
          const page = await chainPage(db, workspaceId, prevSeq, CHAIN_PAGE);
          for (const entry of page) {
            checked += 1;
            const reason = breakOf(entry, prevSeq, prevHash) ?? (end && entry.seq === end.seq && entry.hash !== end.hash ? "end_mismatch" : null);
            if (reason) return { valid: false, entries_checked: checked, first_bad: { id: entry.id, seq: entry.seq, reason }, head: head() };
            prevSeq = entry.seq;
            prevHash = entry.hash;
          }
          if (page.length < CHAIN_PAGE) break;
        }
        if (end && prevSeq < end.seq) return { valid: false, entries_checked: checked, first_bad: { id: null, seq: prevSeq + 1, reason: "tail_missing" }, head: head() };
        return { valid: true, entries_checked: checked, head: head() };
      }),

    export: async function* (workspaceId, query) {
      const filter = filterOf(query);
      let cursor = 0;
      for (;;) {
        const page = await guarded("audit_query_failed", () => listEntries(db, workspaceId, filter, { limit: CHAIN_PAGE, offset: 0, order: "asc", cursor }));
        yield* page;
        if (page.length < CHAIN_PAGE) return;
        cursor = page[page.length - 1]!.seq;
      }
    },

    trail: (workspaceId, of) =>
      guarded("audit_timeline_failed", async () => {
        let execution: ExecutionRow | undefined;
        let intent: IntentRow | undefined;
        if (of.executionId) {
          execution = await deps.executions.get(workspaceId, of.executionId);
          intent = execution.intentId ? await deps.findRecord(workspaceId, execution.intentId) : undefined;
        } else if (of.traceId) {
          intent = await deps.findRecord(workspaceId, of.traceId);
          if (intent?.executionId) execution = await deps.executions.get(workspaceId, intent.executionId).catch(() => undefined);
        }
        const escalationIds = new Set<string>();
        if (execution?.escalationId) escalationIds.add(execution.escalationId);
        for (const step of (execution?.steps ?? []) as { escalation_id?: unknown }[]) if (typeof step.escalation_id === "string") escalationIds.add(step.escalation_id);
        const recorded = (intent?.response as { escalation?: { id?: unknown } } | undefined)?.escalation?.id;
        if (typeof recorded === "string") escalationIds.add(recorded);
        const escalations = await escalationsOf(workspaceId, escalationIds);
        // A trace id the caller gave stands even when no record carries it (a request that only changed things).
        const traceIds = [...new Set([of.traceId && !intent ? of.traceId : undefined, intent?.traceId].filter((t): t is string => typeof t === "string"))];
        const entries = await linkedEntries(
          db,
          workspaceId,
          {
            traceIds,
            resources: [
              { type: "execution", ids: execution ? [execution.id] : [] },
              { type: "escalation", ids: escalations.map((e) => e.id) },
            ],
          },
          TRAIL_ENTRIES,
        );
        return { traceId: intent?.traceId ?? of.traceId ?? null, intent, execution, escalations, entries };
      }),
  };
}
