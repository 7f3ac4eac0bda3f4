// Whether a connection's tools work, judged from their recent calls. A connection is degraded while its last
// call failed and at least 3 of its last 5 calls within 10 minutes failed (transport errors, timeouts,
// HTTP 5xx, MCP isError); any success makes it healthy again at once. Kept in this process's memory: each
// process judges from the calls it made, and a restart forgets (the next failures show it again).
import type { Clock } from "../../clock.ts";

const WINDOW = 5;
const FAILURES = 3;
const WITHIN_MS = 10 * 60_000;

export type CallHealthStatus = "healthy" | "degraded";

export interface ConnectionHealth {
  status: CallHealthStatus;
  /** Calls counted (at most the last 5 within 10 minutes) and how many of them failed. */
  recentCalls: number;
  recentFailures: number;
  lastError: string | undefined;
}

export interface CallHealth {
  record(workspaceId: string, connectionId: string, outcome: { ok: boolean; error?: string }): void;
  of(workspaceId: string, connectionId: string): ConnectionHealth;
  /** How many of the workspace's connections are degraded now. */
  degradedCount(workspaceId: string): number;
  forget(workspaceId: string, connectionId: string): void;
}

interface Call {
  at: number;
  ok: boolean;
  error: string | undefined;
}

export function createCallHealth(clock: Clock): CallHealth {
  const byWorkspace = new Map<string, Map<string, Call[]>>();

  function judge(calls: Call[] | undefined): ConnectionHealth {
    const since = clock.nowMs() - WITHIN_MS;
    const recent = (calls ?? []).filter((call) => call.at >= since);
    const failures = recent.filter((call) => !call.ok).length;
    const last = recent.at(-1);
    return {
      status: last && !last.ok && failures >= FAILURES ? "degraded" : "healthy",
      recentCalls: recent.length,
      recentFailures: failures,
      lastError: last && !last.ok ? last.error : undefined,
    };
  }

  return {
    record: (workspaceId, connectionId, outcome) => {
      let connections = byWorkspace.get(workspaceId);
      if (!connections) byWorkspace.set(workspaceId, (connections = new Map()));
      const calls = connections.get(connectionId) ?? [];
      calls.push({ at: clock.nowMs(), ok: outcome.ok, error: outcome.error });
      if (calls.length > WINDOW) calls.shift();
      connections.set(connectionId, calls);
    },
    of: (workspaceId, connectionId) => judge(byWorkspace.get(workspaceId)?.get(connectionId)),
    degradedCount: (workspaceId) => {
      let count = 0;
      for (const calls of byWorkspace.get(workspaceId)?.values() ?? []) if (judge(calls).status === "degraded") count++;
      return count;
    },
    forget: (workspaceId, connectionId) => {
      const connections = byWorkspace.get(workspaceId);
      connections?.delete(connectionId);
      if (connections?.size === 0) byWorkspace.delete(workspaceId);
    },
  };
}
