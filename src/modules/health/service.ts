// The health summary is answered from memory: a background probe keeps the database's state fresh, so an
// authenticated GET /health (what clients call to check a key) never waits on a query.
import type { Database } from "../../db/index.ts";

export type ComponentStatus = "healthy" | "degraded" | "unhealthy";

/** What another module reports about one workspace for the summary (connections, policies …). */
export interface HealthContributor {
  connections?(workspaceId: string): { total: number; healthy: number };
  governance?(workspaceId: string): { active: number };
}

export interface DatabaseHealth {
  status: ComponentStatus;
  backend: Database["kind"];
  latency_ms: number;
  checked_at: string;
  error?: string;
}

export interface HealthService {
  database(): DatabaseHealth;
  /** Runs the probe now (readiness checks want a fresh answer). */
  probe(): Promise<DatabaseHealth>;
  contribute(contributor: HealthContributor): void;
  connections(workspaceId: string): { total: number; healthy: number };
  governance(workspaceId: string): { active: number };
  start(): void;
  stop(): void;
}

const PROBE_EVERY_MS = 5_000;
const SLOW_MS = 1_000;

export function createHealthService(database: Database): HealthService {
  const contributors: HealthContributor[] = [];
  let current: DatabaseHealth = { status: "healthy", backend: database.kind, latency_ms: 0, checked_at: new Date().toISOString() };
  let timer: NodeJS.Timeout | undefined;

  async function probe(): Promise<DatabaseHealth> {
    const started = performance.now();
    try {
      await database.ping();
      const latency = Math.round(performance.now() - started);
      current = { status: latency > SLOW_MS ? "degraded" : "healthy", backend: database.kind, latency_ms: latency, checked_at: new Date().toISOString() };
    } catch (error) {
      current = {
        status: "unhealthy",
        backend: database.kind,
        latency_ms: Math.round(performance.now() - started),
        checked_at: new Date().toISOString(),
        error: (error as Error).message,
      };
    }
    return current;
  }

  return {
    database: () => current,
    probe,
    contribute: (contributor) => void contributors.push(contributor),
    connections: (workspaceId) => {
      const sum = { total: 0, healthy: 0 };
      for (const c of contributors) {
        const part = c.connections?.(workspaceId);
        if (part) {
          sum.total += part.total;
          sum.healthy += part.healthy;
        }
      }
      return sum;
    },
    governance: (workspaceId) => ({
      active: contributors.reduce((n, c) => n + (c.governance?.(workspaceId).active ?? 0), 0),
    }),
    start: () => {
      void probe();
      timer = setInterval(() => void probe(), PROBE_EVERY_MS);
      timer.unref();
    },
    stop: () => clearInterval(timer),
  };
}
