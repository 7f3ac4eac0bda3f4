// /api/v1/svc/healing: diagnose a failure (the runner's diagnosis, weighed by precedents), browse the
// precedents recorded from executions, and their statistics.
import { workspaceIdOf, type App } from "../../http/types.ts";
import { DiagnoseBody, HealingDiagnosis, HealingStats, PrecedentList, PrecedentQuery, toWire } from "./schemas.ts";
import type { HealingService } from "./service.ts";

const tags = ["healing"];

export function registerHealingRoutes(app: App, healing: HealingService): void {
  app.post(
    "/api/v1/svc/healing/diagnose",
    {
      // A question, not a change: nothing is written, so a retry needs no idempotency key.
      config: { errors: ["diagnosis_failed", "diagnosis_unavailable"], idempotent: false },
      schema: {
        tags,
        summary: "Diagnose a failure from its message (and category, tool name, trace id)",
        body: DiagnoseBody,
        response: { 200: HealingDiagnosis },
      },
    },
    async (request) => healing.diagnose(workspaceIdOf(request.principal), request.body),
  );

  app.get(
    "/api/v1/svc/healing/precedents",
    {
      config: { errors: ["invalid_request"] },
      schema: { tags, summary: "Past failures and what recovered them, newest first", querystring: PrecedentQuery, response: { 200: PrecedentList } },
    },
    async (request) => {
      const q = request.query;
      const limit = q.limit ?? 20;
      const offset = q.offset ?? 0;
      const { rows, total } = await healing.precedents(workspaceIdOf(request.principal), {
        ...(q.tool_name ? { tool: q.tool_name } : {}),
        ...(q.error_category ? { category: q.error_category } : {}),
        ...(q.success !== undefined ? { success: q.success } : {}),
        limit,
        offset,
      });
      return { precedents: rows.map(toWire), count: rows.length, total, pagination: { limit, offset, has_more: offset + rows.length < total } };
    },
  );

  app.get(
    "/api/v1/svc/healing/stats",
    { schema: { tags, summary: "Precedents and recoveries, by strategy, tool and category", response: { 200: HealingStats } } },
    async (request) => healing.stats(workspaceIdOf(request.principal)),
  );
}
