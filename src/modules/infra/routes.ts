// /infra/livez and /infra/readyz: unauthenticated probes for orchestrators.
import { Type } from "typebox";
import { AppError } from "../../errors/app-error.ts";
import type { App } from "../../http/types.ts";
import type { HealthService } from "../health/service.ts";

export function registerInfraRoutes(app: App, health: HealthService, rateLimitStore: string): void {
  app.get(
    "/infra/livez",
    {
      config: { auth: "public" },
      schema: { tags: ["infra"], summary: "Liveness: the process serves HTTP", response: { 200: Type.Object({ status: Type.Literal("ok") }) } },
    },
    async () => ({ status: "ok" as const }),
  );

  app.get(
    "/infra/readyz",
    {
      config: { auth: "public", errors: ["store_unavailable"] },
      schema: {
        tags: ["infra"],
        summary: "Readiness: the database answers",
        response: {
          200: Type.Object({
            status: Type.Literal("ready"),
            database: Type.Object({ backend: Type.String(), status: Type.String(), latency_ms: Type.Integer() }),
            rate_limits: Type.Object({ store: Type.String() }),
          }),
        },
      },
    },
    async () => {
      const database = await health.probe();
      if (database.status === "unhealthy") throw new AppError("store_unavailable", { message: "The database does not answer." });
      return {
        status: "ready" as const,
        database: { backend: database.backend, status: database.status, latency_ms: database.latency_ms },
        rate_limits: { store: rateLimitStore },
      };
    },
  );
}
