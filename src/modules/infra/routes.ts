// /infra/livez and /infra/readyz: unauthenticated probes for orchestrators. /infra/metrics: the Prometheus
// scrape, unauthenticated unless SVC_METRICS_TOKEN is set (then `Authorization: Bearer <that token>`): it
// shows volumes and latencies, never a workspace id, so open is a fair default inside a private network.
import { timingSafeEqual, createHash } from "node:crypto";
import { Type } from "typebox";
import { AppError } from "../../errors/app-error.ts";
import type { App } from "../../http/types.ts";
import type { Metrics } from "../../observability/metrics.ts";
import type { HealthService } from "../health/service.ts";

const digest = (text: string) => createHash("sha256").update(text).digest();

/** Whether the Authorization header carries the token (compared in constant time). */
function bearerMatches(header: string | undefined, token: string): boolean {
  const given = /^Bearer\s+(.+)$/i.exec(header ?? "")?.[1]?.trim();
  return given !== undefined && timingSafeEqual(digest(given), digest(token));
}

export function registerInfraRoutes(app: App, deps: { health: HealthService; rateLimitStore: string; metrics: Metrics | undefined; metricsToken: string | undefined }): void {
  const { health, rateLimitStore, metrics, metricsToken } = deps;
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

  if (!metrics) return;
  app.get(
    "/infra/metrics",
    {
      config: { auth: "public", errors: ["auth_missing", "auth_invalid"] },
      schema: {
        tags: ["infra"],
        summary: "Prometheus metrics (text exposition format); needs `Authorization: Bearer $SVC_METRICS_TOKEN` when that is set",
        produces: ["text/plain"],
      },
    },
    async (request, reply) => {
      if (metricsToken !== undefined) {
        if (!request.headers.authorization) throw new AppError("auth_missing", { message: "The metrics need the metrics token: send `Authorization: Bearer $SVC_METRICS_TOKEN`." });
        if (!bearerMatches(request.headers.authorization, metricsToken)) throw new AppError("auth_invalid", { message: "The metrics token is not valid." });
      }
      const { contentType, body } = await metrics.scrape();
      return reply.type(contentType).header("cache-control", "no-store").send(body);
    },
  );
}
