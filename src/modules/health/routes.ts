// GET /api/v1/svc/health: verifies a key and summarises the workspace's components, from memory. Kept to the
// summary clients read (it is the most called route); database detail is on /infra/readyz.
import { Type } from "typebox";
import { workspaceIdOf, type App } from "../../http/types.ts";
import type { ComponentStatus, HealthService } from "./service.ts";

const Status = Type.Union([Type.Literal("healthy"), Type.Literal("degraded"), Type.Literal("unhealthy")]);

const HealthResponse = Type.Object({
  status: Status,
  timestamp: Type.String({ format: "date-time" }),
  version: Type.String(),
  workspace: Type.String({ description: "Workspace name" }),
  workspace_id: Type.String(),
  tenant_id: Type.String({ description: "Same as workspace_id (older clients read this name)" }),
  memory: Type.Object({ status: Type.Union([Type.Literal("healthy"), Type.Literal("degraded"), Type.Literal("not_configured")]) }),
  connections: Type.Object({ total: Type.Integer(), healthy: Type.Integer() }),
  governance: Type.Object({ active: Type.Integer() }),
});

export function registerHealthRoutes(app: App, deps: { health: HealthService; version: string }): void {
  const { health, version } = deps;
  app.get(
    "/api/v1/svc/health",
    { schema: { tags: ["health"], summary: "Check a key and the workspace's components", response: { 200: HealthResponse } } },
    // Synchronous on purpose: the most called route should not pay for a promise it does not need.
    (request, reply) => {
      const principal = request.principal!;
      const workspaceId = workspaceIdOf(principal);
      const database = health.database();
      const connections = health.connections(workspaceId);
      const degraded = database.status !== "healthy" || connections.healthy < connections.total;
      const status: ComponentStatus = database.status === "unhealthy" ? "unhealthy" : degraded ? "degraded" : "healthy";
      reply.send({
        status,
        timestamp: new Date().toISOString(),
        version,
        workspace: principal.workspaceName ?? workspaceId,
        workspace_id: workspaceId,
        tenant_id: workspaceId,
        memory: { status: database.status === "healthy" ? ("healthy" as const) : ("degraded" as const) },
        connections,
        governance: health.governance(workspaceId),
      });
    },
  );
}
