// /api/v1/svc/escalations: actions waiting for a human. Governance creates them for `conditional`
// decisions; a resolution records who and when and wakes whatever waits on it.
import { actorOf, workspaceIdOf, type App } from "../../http/types.ts";
import { Escalation, EscalationGetQuery, EscalationList, EscalationListQuery, EscalationParams, ResolveBody, escalationToWire } from "./schemas.ts";
import type { EscalationService } from "./service.ts";

const tags = ["escalations"];

export function registerEscalationRoutes(app: App, escalations: EscalationService): void {
  app.get(
    "/api/v1/svc/escalations",
    { schema: { tags, summary: "List escalations, newest first", querystring: EscalationListQuery, response: { 200: EscalationList } } },
    async (request) => {
      const limit = request.query.limit ?? 100;
      const offset = request.query.offset ?? 0;
      const { rows, total } = await escalations.list(workspaceIdOf(request.principal), { status: request.query.status, limit, offset });
      return { escalations: rows.map(escalationToWire), count: rows.length, total, pagination: { limit, offset, has_more: offset + rows.length < total } };
    },
  );

  app.get(
    "/api/v1/svc/escalations/:id",
    {
      config: { errors: ["escalation_not_found"] },
      schema: { tags, summary: "Get an escalation (optionally wait for its decision)", params: EscalationParams, querystring: EscalationGetQuery, response: { 200: Escalation } },
    },
    async (request) => {
      const workspaceId = workspaceIdOf(request.principal);
      const wait = request.query.wait ?? 0;
      const row = wait > 0 ? await escalations.waitFor(workspaceId, request.params.id, wait * 1000) : await escalations.get(workspaceId, request.params.id);
      return escalationToWire(row);
    },
  );

  app.post(
    "/api/v1/svc/escalations/:id/resolve",
    {
      config: { errors: ["escalation_missing_decision", "escalation_not_found", "escalation_already_resolved"] },
      schema: { tags, summary: "Decide on an escalation", params: EscalationParams, body: ResolveBody, response: { 200: Escalation } },
    },
    async (request) => escalationToWire(await escalations.resolve(actorOf(request), request.params.id, request.body ?? {})),
  );
}
