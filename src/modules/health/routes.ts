// GET /api/v1/svc/health: verifies a key and summarises the workspace's components, from memory.
import { Type } from "typebox";
import type { App } from "../../http/types.ts";
import type { RateLimits } from "../../http/rate-limit.ts";
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
  components: Type.Object({
    database: Type.Object({
      status: Status,
      backend: Type.String(),
      latency_ms: Type.Integer(),
      checked_at: Type.String({ format: "date-time" }),
    }),
    rate_limits: Type.Object({ store: Type.String() }),
  }),
});

export function registerHealthRoutes(app: App, deps: { health: HealthService; limits: RateLimits; version: string }): void {
  const { health, limits, version } = deps;
  app.get(
    "/api/v1/svc/health",
    { schema: { tags: ["health"], summary: "Check a key and the workspace's components", response: { 200: HealthResponse } } },
    async (request) => {
      const principal = request.principal!;
      const workspaceId = principal.workspaceId!;
      const database = health.database();
      const connections = health.connections(workspaceId);
      const degraded = database.status !== "healthy" || connections.healthy < connections.total;
      const status: ComponentStatus = database.status === "unhealthy" ? "unhealthy" : degraded ? "degraded" : "healthy";
      return {
        status,
        timestamp: new Date().toISOString(),
        version,
        workspace: principal.workspaceName ?? workspaceId,
        workspace_id: workspaceId,
        tenant_id: workspaceId,
        memory: { status: database.status === "healthy" ? ("healthy" as const) : ("degraded" as const) },
        connections,
        governance: health.governance(workspaceId),
        components: { database, rate_limits: { store: limits.store } },
      };
    },
  );
}
