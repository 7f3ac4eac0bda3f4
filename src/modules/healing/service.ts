// Healing: diagnoses a failure described by its text with the runner's own diagnosis (executions/diagnosis.ts),
// weighs it against precedents (what failed before and what worked), and records those precedents when
// executions end (the runner calls `executionFinished` inside the transaction that ends the execution).
import type { Clock } from "../../clock.ts";
import type { Db } from "../../db/index.ts";
import { AppError } from "../../errors/app-error.ts";
import type { Ids } from "../../ids.ts";
import { diagnose, failureOfReport } from "../executions/diagnosis.ts";
import type { FinishedExecution, PrecedentRecorder } from "../executions/runner.ts";
import { stepsOf, type ExecutionRow } from "../executions/store.ts";
import type { HealingDiagnosis, HealingStats } from "./schemas.ts";
import { insertPrecedent, listPrecedents, markRecovered, matchPrecedents, precedentBySource, precedentStats, type PrecedentFilter, type PrecedentRow } from "./store.ts";

/** How far back an open failure is recovered by a later successful run of its tool. */
export const RECOVERY_WINDOW_MS = 7 * 86_400_000;
/** The window of the runner's diagnoses counted by /healing/stats. */
export const STATS_WINDOW_DAYS = 30;
const MAX_MESSAGE = 4_000;

export interface DiagnoseInput {
  error_message?: unknown;
  error?: unknown;
  error_category?: unknown;
  tool_name?: unknown;
  trace_id?: unknown;
}

export interface HealingService extends PrecedentRecorder {
  diagnose(workspaceId: string, input: DiagnoseInput | undefined): Promise<HealingDiagnosis>;
  precedents(workspaceId: string, filter: PrecedentFilter): Promise<{ rows: PrecedentRow[]; total: number }>;
  stats(workspaceId: string): Promise<HealingStats>;
  /**
   * The precedent of an execution an intelligence record planned: the one the runner recorded when it
   * ended (its failure, or a step that recovered on retry), else one made now from the execution (for
   * executions older than precedents). Written in the caller's transaction; undefined when the execution
   * has nothing to learn from (it neither failed nor retried).
   */
  precedentOf(tx: Db, workspaceId: string, source: { intentId: string; traceId: string; execution: ExecutionRow }): Promise<PrecedentRow | undefined>;
}

const round3 = (n: number) => Math.round(n * 1000) / 1000;
const text = (value: unknown, max: number): string | undefined => (typeof value === "string" && value.trim() !== "" ? value.trim().slice(0, max) : undefined);

export function createHealingService(deps: { db: Db; ids: Ids; clock: Clock; baseDelayMs: number }): HealingService {
  const { db, ids, clock } = deps;

  return {
    diagnose: async (workspaceId, input) => {
      const message = text(input?.error_message, MAX_MESSAGE) ?? text(input?.error, MAX_MESSAGE);
      if (!message) throw new AppError("diagnosis_failed", { message: "`error_message` is missing or empty.", details: [{ field: "error_message", message: "is required" }] });
      const tool = text(input?.tool_name, 64);
      const category = text(input?.error_category, 40);
      const traceId = text(input?.trace_id, 100) ?? null;
      try {
        const failure = failureOfReport({ errorMessage: message, ...(category ? { errorCategory: category } : {}), ...(tool ? { toolName: tool } : {}) });
        const { step: _step, attempts: _attempts, tool_name: _tool, ...found } = diagnose(failure, { tool: tool ?? "the tool", step: 0, attempts: 1, baseDelayMs: deps.baseDelayMs });
        const match = await matchPrecedents(db, workspaceId, found.error_category, tool);
        // What worked before for the same kind of failure is the better advice, and each recovery seen
        // makes the diagnosis surer (by 0.05, up to four, never above 0.99).
        const worked = match.successful > 0 && match.strategy ? match.strategy : undefined;
        return {
          ...found,
          recovery_strategy: worked ?? found.recovery_strategy,
          diagnosed_strategy: found.recovery_strategy,
          confidence: round3(worked ? Math.min(0.99, found.confidence + 0.05 * Math.min(match.successful, 4)) : found.confidence),
          tool_name: tool ?? null,
          trace_id: traceId,
          precedents: {
            matched: match.matched,
            successful: match.successful,
            same_tool: match.sameTool,
            ...(match.strategy ? { strategy: match.strategy } : {}),
            ...(match.whatWorked ? { what_worked: match.whatWorked } : {}),
            example_ids: match.exampleIds,
          },
        };
      } catch (error) {
        if (error instanceof AppError) throw error;
        throw new AppError("diagnosis_failed", { message: "The failure could not be diagnosed; retry, and report the trace id if it persists.", cause: error });
      }
    },

    precedents: (workspaceId, filter) => listPrecedents(db, workspaceId, filter),

    stats: async (workspaceId) => {
      const now = clock.now();
      const { totals, strategies, tools, categories, diagnosed } = await precedentStats(db, workspaceId, new Date(now.getTime() - STATS_WINDOW_DAYS * 86_400_000));
      const total = Number(totals?.total ?? 0);
      const successful = Number(totals?.successful ?? 0);
      const byCategory: HealingStats["by_category"] = {};
      const entry = (category: string) => (byCategory[category] ??= { diagnosed: 0, precedents: 0, recovered: 0 });
      for (const c of categories) Object.assign(entry(c.category), { precedents: Number(c.total), recovered: Number(c.successful) });
      for (const d of diagnosed) entry(d.category ?? "unknown").diagnosed = Number(d.n);
      const iso = (value: unknown) => (value ? new Date(value as string).toISOString() : undefined);
      const first = iso(totals?.first);
      const last = iso(totals?.last);
      return {
        total_precedents: total,
        successful_recoveries: successful,
        failed_recoveries: total - successful,
        success_rate: total === 0 ? 0 : round3(successful / total),
        avg_duration_ms: Number(totals?.avgDuration ?? 0),
        common_strategies: strategies.map((s) => ({ strategy: s.strategy, count: Number(s.count) })),
        top_tools: tools
          .filter((t) => t.tool !== null)
          .map((t) => ({
            tool_name: t.tool!,
            total: Number(t.total),
            successful: Number(t.successful),
            failed: Number(t.total) - Number(t.successful),
            success_rate: round3(Number(t.successful) / Math.max(1, Number(t.total))),
            ...(t.top ? { top_strategy: t.top } : {}),
          })),
        by_category: byCategory,
        diagnoses_window_days: STATS_WINDOW_DAYS,
        time_range: { ...(first ? { first_precedent: first } : {}), ...(last ? { last_precedent: last } : {}) },
      };
    },

    executionFinished: async (tx, workspaceId, finished: FinishedExecution) => {
      const now = clock.now();
      const common = { source: "execution" as const, executionId: finished.executionId, traceId: finished.traceId ?? null, domain: finished.domain, createdAt: now };
      for (const tool of finished.succeededTools) {
        await markRecovered(tx, workspaceId, tool, new Date(now.getTime() - RECOVERY_WINDOW_MS), { executionId: finished.executionId, at: now });
      }
      for (const r of finished.recovered) {
        await insertPrecedent(tx, workspaceId, {
          ...common,
          id: ids.make("hp"),
          sourceKey: `execution:${finished.executionId}:${r.step}`,
          toolName: r.tool,
          errorCategory: r.diagnosis.error_category,
          errorType: r.diagnosis.semantic_reason,
          rootCause: r.diagnosis.root_cause,
          recoveryStrategy: "retry",
          whatFailed: `attempt 1: ${r.firstError}`.slice(0, 2_000),
          whatWorked: `retried with backoff; succeeded on attempt ${r.attempts}`,
          success: true,
          attempts: r.attempts,
          durationMs: r.durationMs ?? null,
          confidence: r.diagnosis.confidence,
          recoveredBy: finished.executionId,
          recoveredAt: now,
        });
      }
      const f = finished.failed;
      if (f) {
        await insertPrecedent(tx, workspaceId, {
          ...common,
          id: ids.make("hp"),
          sourceKey: `execution:${finished.executionId}:${f.step}`,
          toolName: f.tool,
          errorCategory: f.diagnosis.error_category,
          errorType: f.diagnosis.semantic_reason,
          rootCause: f.diagnosis.root_cause,
          recoveryStrategy: f.diagnosis.recovery_strategy,
          whatFailed: f.error.slice(0, 2_000),
          whatWorked: null,
          success: false,
          attempts: f.attempts,
          confidence: f.diagnosis.confidence,
        });
      }
    },

    precedentOf: async (tx, workspaceId, source) => {
      const execution = source.execution;
      const steps = stepsOf(execution);
      const base = { source: "promoted" as const, sourceKey: `promoted:${source.intentId}`, executionId: execution.id, traceId: source.traceId, domain: execution.domain, createdAt: clock.now() };
      const diagnosis = execution.status === "failed" ? (execution.diagnosis as { error_category?: string; semantic_reason?: string; root_cause?: string; recovery_strategy?: string; confidence?: number; step?: number } | null) : null;
      if (diagnosis?.error_category) {
        // The runner recorded this failure when the execution ended: that precedent is the one.
        const recordedFailure = await precedentBySource(tx, workspaceId, `execution:${execution.id}:${diagnosis.step ?? 0}`);
        if (recordedFailure) return recordedFailure;
        const step = steps[diagnosis.step ?? 0];
        const { row } = await insertPrecedent(tx, workspaceId, {
          ...base,
          id: ids.make("hp"),
          toolName: step?.tool ?? null,
          errorCategory: diagnosis.error_category,
          errorType: diagnosis.semantic_reason ?? "unknown",
          rootCause: diagnosis.root_cause ?? execution.error ?? "",
          recoveryStrategy: diagnosis.recovery_strategy ?? "none",
          whatFailed: (execution.error ?? diagnosis.root_cause ?? "").slice(0, 2_000),
          whatWorked: null,
          success: false,
          attempts: step?.attempts ?? 1,
          confidence: diagnosis.confidence ?? 0.5,
        });
        return row;
      }
      const index = steps.findIndex((s) => s.status === "succeeded" && s.attempts > 1);
      if (index < 0) return undefined;
      const step = steps[index]!;
      // The runner recorded the first failure's diagnosis when the step recovered.
      const recorded = await precedentBySource(tx, workspaceId, `execution:${execution.id}:${index}`);
      if (recorded) return recorded;
      const { row } = await insertPrecedent(tx, workspaceId, {
        ...base,
        id: ids.make("hp"),
        toolName: step.tool,
        errorCategory: "unknown",
        errorType: "transient_failure",
        rootCause: `${step.tool} failed ${step.attempts - 1} time(s) before succeeding.`,
        recoveryStrategy: "retry",
        whatFailed: `${step.attempts - 1} failed attempt(s) of ${step.tool}`,
        whatWorked: `retried with backoff; succeeded on attempt ${step.attempts}`,
        success: true,
        attempts: step.attempts,
        confidence: 0.7,
        recoveredBy: execution.id,
        recoveredAt: execution.finishedAt,
      });
      return row;
    },
  };
}
