// /api/v1/maas/workspaces: workspace administration by the operator (SVC_ADMIN_TOKEN).
import type { App } from "../../http/types.ts";
import { CreateWorkspaceBody, PageQuery, Workspace, WorkspaceList, WorkspaceParams, toWire } from "./schemas.ts";
import type { WorkspaceService } from "./service.ts";

const DEFAULT_LIMIT = 50;

export function registerWorkspaceRoutes(app: App, workspaces: WorkspaceService): void {
  app.post(
    "/api/v1/maas/workspaces",
    {
      config: { auth: "operator" },
      schema: { tags: ["workspaces"], summary: "Create a workspace", body: CreateWorkspaceBody, response: { 201: Workspace } },
    },
    async (request, reply) => reply.code(201).send(toWire(await workspaces.create(request.body.name))),
  );

  app.get(
    "/api/v1/maas/workspaces",
    {
      config: { auth: "operator" },
      schema: { tags: ["workspaces"], summary: "List workspaces", querystring: PageQuery, response: { 200: WorkspaceList } },
    },
    async (request) => {
      // GO clients send limit=0 meaning "not given".
      const limit = request.query.limit || DEFAULT_LIMIT;
      const offset = request.query.offset ?? 0;
      const { rows, total } = await workspaces.list(limit, offset);
      return {
        workspaces: rows.map(toWire),
        count: rows.length,
        total,
        pagination: { limit, offset, has_more: offset + rows.length < total },
      };
    },
  );

  app.get(
    "/api/v1/maas/workspaces/:workspace_id",
    {
      config: { auth: "workspace_admin", errors: ["workspace_not_found"] },
      schema: { tags: ["workspaces"], summary: "Get a workspace", params: WorkspaceParams, response: { 200: Workspace } },
    },
    async (request) => toWire(await workspaces.get(request.params.workspace_id)),
  );
}
