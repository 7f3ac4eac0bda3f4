// The reasoning trace (`intelligence`) every intent answer carries: the contract's sections, in its field
// names, plus the stages of the pipeline. `field_stability` is exactly as published.
export const TRACE_VERSION = "1.0";

export const FIELD_STABILITY = {
  stable: ["summary", "capability.total_available", "governance.decision"],
  evolving: ["capability.active_integrations"],
  internal: ["process.started_at", "process.duration_ms"],
};

export type StageName = "capability_check" | "memory_lookup" | "governance_eval" | "gap_analysis" | "healing_attempt" | "execution" | "escalation" | "human_handoff";
export type StageStatus = "passed" | "failed" | "skipped" | "degraded" | "blocked";

export interface Stage {
  name: StageName | "understand" | "plan" | "decide";
  status: StageStatus;
  duration_ms: number;
  detail: string;
  outputs?: Record<string, unknown>;
}

export interface Gap {
  kind: "missing_argument" | "missing_capability" | "degraded_capability" | "ambiguous_tool" | "no_knowledge" | "policy";
  capability?: string;
  field?: string;
  reason: string;
  blocking: boolean;
  severity: "blocking" | "high" | "medium" | "low" | "optional";
}

export interface NextAction {
  type: string;
  label: string;
  endpoint?: string;
  reason?: string;
}

/** Times the stages of one request. */
export class StageClock {
  readonly stages: Stage[] = [];
  private last = performance.now();

  mark(name: Stage["name"], status: StageStatus, detail: string, outputs?: Record<string, unknown>): void {
    const now = performance.now();
    this.stages.push({ name, status, duration_ms: Math.round(now - this.last), detail, ...(outputs ? { outputs } : {}) });
    this.last = now;
  }
}
