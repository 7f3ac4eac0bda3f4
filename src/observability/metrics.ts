// Prometheus metrics (GET /infra/metrics). One registry per app (buildApp makes it), never prom-client's
// global one, so several apps in one process (tests) keep their own counts. Labels are bounded sets only:
// the route pattern (never the raw URL), the method, the status code, a decision type or a status. No
// workspace id, key id, trace id or tool name is ever a label: a scrape must not grow with the tenants.
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from "prom-client";
import type { Database } from "../db/index.ts";

export interface Metrics {
  readonly registry: Registry;
  /** HTTP requests answered, by method, route pattern and status code. */
  readonly httpRequests: Counter<"method" | "route" | "status">;
  /** Time from the request's arrival to the end of its answer, in seconds. */
  readonly httpDuration: Histogram<"method" | "route" | "status">;
  /** Decisions of the intent engine: `source` intent or chat, `type` the answer's type or status. */
  readonly decisions: Counter<"source" | "type">;
  /** Governance verdicts: `decision` approved, blocked or conditional; `gate` run (before a tool runs) or plan. */
  readonly governance: Counter<"decision" | "gate">;
  /** Executions that reached a final status in this process (completed, failed, cancelled). */
  readonly executions: Counter<"status">;
  /**
   * Outbound webhook delivery attempts, by event type and outcome (delivered, failed, retrying). Defined here
   * so the dashboards have a stable name; the webhook worker increments it.
   */
  readonly webhookDeliveries: Counter<"event" | "outcome">;
  /** The text a scrape answers, and its content type. */
  scrape(): Promise<{ contentType: string; body: string }>;
}

// Buckets (seconds) from the sub-millisecond answers of a cached read to a slow tool call.
const LATENCY_BUCKETS = [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30];

export function createMetrics(deps: { database: Pick<Database, "pool" | "queued">; enabled: boolean }): Metrics {
  const registry = new Registry();
  // Node's own metrics sample the event loop and the heap on timers of their own: only when scraped.
  if (deps.enabled) collectDefaultMetrics({ register: registry });
  const registers = [registry];

  const httpRequests = new Counter({ name: "svc_http_requests_total", help: "HTTP requests answered, by method, route pattern and status code", labelNames: ["method", "route", "status"] as const, registers });
  const httpDuration = new Histogram({
    name: "svc_http_request_duration_seconds",
    help: "Time to answer an HTTP request, by method, route pattern and status code",
    labelNames: ["method", "route", "status"] as const,
    buckets: LATENCY_BUCKETS,
    registers,
  });
  const decisions = new Counter({ name: "svc_decisions_total", help: "Decisions of the intent engine, by source (intent, chat) and type", labelNames: ["source", "type"] as const, registers });
  const governance = new Counter({ name: "svc_governance_verdicts_total", help: "Governance verdicts, by decision (approved, blocked, conditional) and gate (run, plan)", labelNames: ["decision", "gate"] as const, registers });
  const executions = new Counter({ name: "svc_executions_finished_total", help: "Executions that reached a final status in this process, by status", labelNames: ["status"] as const, registers });
  const webhookDeliveries = new Counter({ name: "svc_webhook_deliveries_total", help: "Webhook delivery attempts, by event type and outcome (delivered, failed, retrying)", labelNames: ["event", "outcome"] as const, registers });

  const { pool, queued } = deps.database;
  if (pool) {
    // Read at scrape time: no timer runs between scrapes.
    new Gauge({ name: "svc_db_pool_connections", help: "PostgreSQL pool connections (total open, idle)", labelNames: ["state"] as const, registers, collect() {
      this.set({ state: "total" }, pool.totalCount);
      this.set({ state: "idle" }, pool.idleCount);
    } });
    new Gauge({ name: "svc_db_pool_waiting", help: "Queries waiting for a free PostgreSQL pool connection", registers, collect() {
      this.set(pool.waitingCount);
    } });
  } else if (queued) {
    new Gauge({ name: "svc_db_queued_statements", help: "Statements sent to the embedded database's thread and not answered yet", registers, collect() {
      this.set(queued());
    } });
  }

  return {
    registry,
    httpRequests,
    httpDuration,
    decisions,
    governance,
    executions,
    webhookDeliveries,
    scrape: async () => ({ contentType: registry.contentType, body: await registry.metrics() }),
  };
}
