// /api/v1/svc/audit: reading the workspace's hash-chained audit log. Entries are written by the changes
// themselves (src/events/audit.ts); these routes query, count, verify, export and join them. Literal paths
// only (no {id}), so their order does not matter.
import { Readable } from "node:stream";
import { AppError } from "../../errors/app-error.ts";
import { canonicalJson } from "../../canonical-json.ts";
import { workspaceIdOf, type App } from "../../http/types.ts";
import { AuditList, AuditQuery, AuditStats, ExportQuery, StatsQuery, Timeline, TimelineQuery, VerifyResult, toWire } from "./schemas.ts";
import type { AuditService } from "./service.ts";
import { timelineOf } from "./timeline.ts";

const tags = ["audit"];

export function registerAuditRoutes(app: App, audit: AuditService): void {
  app.get(
    "/api/v1/svc/audit",
    {
      config: { errors: ["audit_query_failed", "audit_unavailable"] },
      schema: { tags, summary: "Audit entries, newest first (or oldest first with order=asc), filtered and paginated", querystring: AuditQuery, response: { 200: AuditList } },
    },
    async (request) => {
      if (request.query.cursor !== undefined && request.query.offset !== undefined) {
        throw new AppError("invalid_request", { message: "Invalid request: give cursor or offset, not both.", details: [{ field: "cursor", message: "cannot be combined with offset" }] });
      }
      const page = await audit.list(workspaceIdOf(request.principal), request.query);
      return {
        entries: page.rows.map(toWire),
        count: page.rows.length,
        total: page.total,
        pagination: { limit: page.limit, offset: page.offset, has_more: page.nextCursor !== null, next_cursor: page.nextCursor },
      };
    },
  );

  app.get(
    "/api/v1/svc/audit/stats",
    {
      config: { errors: ["audit_stats_failed", "audit_unavailable"] },
      schema: { tags, summary: "Counts of audit entries by action, resource type, actor and UTC day", querystring: StatsQuery, response: { 200: AuditStats } },
    },
    async (request) => audit.stats(workspaceIdOf(request.principal), request.query),
  );

  app.get(
    "/api/v1/svc/audit/verify",
    {
      config: { errors: ["audit_query_failed", "audit_unavailable"] },
      schema: { tags, summary: "Recompute the workspace's hash chain and report the first broken entry", response: { 200: VerifyResult } },
    },
    async (request) => audit.verify(workspaceIdOf(request.principal)),
  );

  app.get(
    "/api/v1/svc/audit/timeline",
    {
      config: { errors: ["audit_timeline_failed", "audit_unavailable", "execution_not_found"] },
      schema: { tags, summary: "Everything that happened to one execution or in one request (trace), in order", querystring: TimelineQuery, response: { 200: Timeline } },
    },
    async (request) => {
      const { execution_id: executionId, trace_id: traceId } = request.query;
      if ((executionId === undefined) === (traceId === undefined)) {
        throw new AppError("invalid_request", { message: "Invalid request: give exactly one of execution_id and trace_id.", details: [{ field: executionId ? "trace_id" : "execution_id", message: "exactly one of execution_id and trace_id" }] });
      }
      const trail = await audit.trail(workspaceIdOf(request.principal), { executionId, traceId });
      const events = timelineOf(trail);
      return { trace_id: trail.traceId, execution_id: trail.execution?.id ?? null, intent_id: trail.intent?.id ?? null, events, count: events.length };
    },
  );

  app.get(
    "/api/v1/svc/audit/export",
    {
      config: { errors: ["audit_query_failed", "audit_unavailable"] },
      schema: {
        tags,
        summary: "Matching entries in chain order as NDJSON (one entry per line), streamed",
        // No 200 schema: the body is a stream of application/x-ndjson lines (each an AuditEntry), not JSON.
        description: "200: application/x-ndjson, one AuditEntry (as GET /audit shows it) per line, in chain order.",
        querystring: ExportQuery,
      },
    },
    async (request, reply) => {
      const workspaceId = workspaceIdOf(request.principal);
      const entries = audit.export(workspaceId, request.query);
      // The first page is read before answering, so a bad filter or a failing query is a JSON error with
      // its status; a failure after that can only cut the stream short (the last line then lacks "\n").
      const first = await entries.next();
      async function* lines() {
        if (first.done) return;
        yield `${canonicalJson(toWire(first.value))}\n`;
        for await (const entry of entries) yield `${canonicalJson(toWire(entry))}\n`;
      }
      reply.header("content-type", "application/x-ndjson; charset=utf-8");
      reply.header("content-disposition", `attachment; filename="audit-${workspaceId}.ndjson"`);
      return reply.send(Readable.from(lines()));
    },
  );
}
