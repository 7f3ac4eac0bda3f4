// The step loop of a running execution. Each step: the tool is found again and its arguments validated
// again, governance decides again right before the call (a policy confirmed after the plan still applies),
// then the call goes through ToolService.run (call health, `tool.invoke` audit). Transient failures are
// retried with bounded exponential backoff; anything else ends the execution `failed` with a diagnosis,
// and a failure a person must look at opens an escalation. Progress is persisted after every step, and a
// cancel (from any process) is noticed before the next step or retry.
import { setTimeout as sleep } from "node:timers/promises";
import type { Clock } from "../../clock.ts";
import type { Db } from "../../db/index.ts";
import { explainDecision, type Governance } from "../../engine/governance/chokepoint.ts";
import type { Actor, AuditLog } from "../../events/audit.ts";
import type { Outbox } from "../../events/outbox.ts";
import type { Vault } from "../credentials/vault.ts";
import type { EscalationService } from "../escalations/service.ts";
import { governedAction, type GovernanceVerdict } from "../../engine/governance/action.ts";
import type { PolicyService } from "../policies/service.ts";
import type { Tool } from "../../tools/tool.ts";
import type { ToolRun, ToolService } from "../tools/service.ts";
import { classifyCall, diagnose, type Diagnosis, type Failure } from "./diagnosis.ts";
import { isTerminalEvent, stepEvent, stepsCompleteEvent, terminalEvent, type ExecutionBus } from "./events.ts";
import { getExecution, saveSteps, stepsOf, transitionExecution, type ExecutionRow, type StoredStep } from "./store.ts";

export interface RetryPolicy {
  /** Retries after the first attempt (0: none). */
  retries: number;
  /** First delay; doubled on each further retry. */
  baseDelayMs: number;
  /** Longest wait a Retry-After may impose. */
  retryAfterCapMs: number;
}

/** What a finished execution teaches healing: steps that recovered on retry, the step that failed, the tools that ran. */
export interface FinishedExecution {
  executionId: string;
  traceId?: string;
  domain: string | null;
  /** Steps that failed and then succeeded on a later attempt: the first failure's diagnosis and text. */
  recovered: { step: number; tool: string; attempts: number; durationMs?: number; diagnosis: Diagnosis; firstError: string }[];
  /** The step that ended the execution failed (not a policy block, no fault to heal, nor a stop of the service). */
  failed?: { step: number; tool: string; attempts: number; diagnosis: Diagnosis; error: string };
  /** Tools whose step succeeded (an earlier open failure of one of them is thereby recovered). */
  succeededTools: string[];
}

/** Records precedents in the transaction that ends the execution (so they exist exactly when the end does). */
export interface PrecedentRecorder {
  executionFinished(tx: Db, workspaceId: string, finished: FinishedExecution): Promise<void>;
}

export interface RunnerDeps {
  db: Db;
  clock: Clock;
  audit: AuditLog;
  outbox?: Outbox;
  tools: ToolService;
  governance: Governance;
  policies: PolicyService;
  escalations: EscalationService;
  vault: Vault;
  bus: ExecutionBus;
  retry: RetryPolicy;
  log: { warn(object: object, message: string): void; error(object: object, message: string): void };
  /** Called after a pause, in case the escalation was decided before the pause was stored. */
  recheckEscalation(workspaceId: string, escalationId: string): Promise<void>;
  precedents?: PrecedentRecorder;
}

export interface Runner {
  /** Runs a row that is `running` (this process won the transition) in the background. */
  launch(actor: Actor, row: ExecutionRow): void;
  /** Wakes a local run's backoff wait after a cancel. */
  cancelled(workspaceId: string, id: string): void;
  /** Stops every local run (calls aborted; the executions end `failed`) and waits for them. */
  stop(): Promise<void>;
}

/** The vault record a step's real arguments are sealed under. */
export const sealedArgumentsId = (executionId: string, index: number) => `${executionId}:step:${index}`;

/** A step's real arguments: the sealed copy when redaction changed them, else the stored ones. */
export async function stepArguments(vault: Vault, workspaceId: string, executionId: string, index: number, step: StoredStep): Promise<Record<string, unknown>> {
  if (!step.sealed_arguments) return step.arguments;
  const opened = await vault.open(workspaceId, sealedArgumentsId(executionId, index), step.sealed_arguments);
  return JSON.parse(opened.toString("utf8")) as Record<string, unknown>;
}

/** What an execution keeps as its result: the last step's result and every step's. */
export function resultOf(steps: readonly StoredStep[]): { output: unknown; steps: unknown[] } {
  const done = steps.filter((s) => s.status === "succeeded");
  return { output: done.length > 0 ? (done[done.length - 1]!.result ?? null) : null, steps: steps.map((s) => s.result ?? null) };
}

/** Pending steps become `skipped` when the execution ends before reaching them. */
export function skipPending(steps: StoredStep[]): StoredStep[] {
  return steps.map((s) => (s.status === "pending" ? { ...s, status: "skipped" } : s));
}

interface Decided {
  verdict: GovernanceVerdict;
  /** The escalation whose approval lets this conditional decision pass (once, for this step). */
  approvedThrough?: string;
}

class Stopped extends Error {}

export function createRunner(deps: RunnerDeps): Runner {
  const { db, clock, audit, outbox, tools, governance, policies, escalations, vault, bus, retry, log } = deps;
  const runs = new Map<string, { cancel: AbortController; stop: AbortController; done: Promise<void> }>();
  const key = (workspaceId: string, id: string) => `${workspaceId}:${id}`;
  const iso = () => clock.now().toISOString();

  async function decide(actor: Actor, tool: Tool, args: Record<string, unknown>, domain: string | null, step: StoredStep): Promise<Decided> {
    const action = governedAction(tool, args, { caller: actor, domain });
    if (step.approved && step.escalation_id) {
      // Approved by a person: a `conditional` decision passes once without opening another escalation;
      // a block (a policy confirmed since) still wins, and an approval is then recorded as usual.
      try {
        const decision = await governance.dryRun(await policies.ruleSet(actor.workspaceId), { ...action, workspaceId: actor.workspaceId });
        if (decision.decision === "conditional") {
          const fired = decision.fired?.ref;
          const policy = fired && { id: fired.policyId, name: fired.policyName, version: fired.version, clause: fired.rule.source };
          // The person's approval stands in for the rules': recorded, so rate rules count the call.
          await governance.record(action);
          return { verdict: { decision: "conditional", reason: explainDecision(decision), ...(policy ? { policy } : {}) }, approvedThrough: step.escalation_id };
        }
      } catch (error) {
        log.error({ err: error, tool: tool.name }, "governance failed; the step is blocked");
        return { verdict: { decision: "blocked", reason: "Governance could not decide on this action, so it is blocked (fail closed)." } };
      }
    }
    try {
      return { verdict: await governance.govern(action) };
    } catch (error) {
      log.error({ err: error, tool: tool.name }, "governance failed; the step is blocked");
      return { verdict: { decision: "blocked", reason: "Governance could not decide on this action, so it is blocked (fail closed)." } };
    }
  }

  function backoff(attempt: number, run: ToolRun, rateLimited: boolean): number {
    const exponential = retry.baseDelayMs * 2 ** (attempt - 1);
    if (run.retryAfterMs === undefined || !rateLimited) return exponential;
    return Math.min(retry.retryAfterCapMs, Math.max(exponential, run.retryAfterMs));
  }

  async function execute(actor: Actor, initial: ExecutionRow, signals: { cancel: AbortController; stop: AbortController }): Promise<void> {
    const workspaceId = initial.workspaceId;
    const id = initial.id;
    let steps = stepsOf(initial).map((s) => ({ ...s }));
    let escalationId = initial.escalationId;
    const publish = bus.publish;
    // The first transient failure of each step that was retried, for healing's precedents.
    const firstFailures = new Map<number, { failure: Failure; error: string }>();
    // In a savepoint of the transaction that ends the execution: a precedent that cannot be written is
    // logged and lost, never the end of the execution.
    const recordPrecedents = async (tx: Db, facts: FinishedExecution): Promise<void> => {
      const precedents = deps.precedents;
      if (!precedents) return;
      try {
        await tx.transaction((savepoint) => precedents.executionFinished(savepoint, workspaceId, facts));
      } catch (error) {
        log.error({ err: error, execution_id: id }, "healing precedents of a finished execution could not be recorded");
      }
    };
    const finished = (failed?: FinishedExecution["failed"]): FinishedExecution => ({
      executionId: id,
      ...(actor.traceId ? { traceId: actor.traceId } : {}),
      domain: initial.domain,
      recovered: [...firstFailures].flatMap(([index, first]) => {
        const step = steps[index];
        if (step?.status !== "succeeded") return [];
        const started = step.started_at ? Date.parse(step.started_at) : NaN;
        const ended = step.finished_at ? Date.parse(step.finished_at) : NaN;
        return [{
          step: index,
          tool: step.tool,
          attempts: step.attempts,
          ...(Number.isFinite(ended - started) ? { durationMs: Math.max(0, Math.round(ended - started)) } : {}),
          diagnosis: diagnose(first.failure, { tool: step.tool, step: index, attempts: 1, baseDelayMs: retry.baseDelayMs }),
          firstError: first.error,
        }];
      }),
      ...(failed ? { failed } : {}),
      succeededTools: [...new Set(steps.filter((s) => s.status === "succeeded").map((s) => s.tool))],
    });

    const stillRunning = async (): Promise<boolean> => {
      if (signals.stop.signal.aborted) throw new Stopped();
      if (signals.cancel.signal.aborted) return false;
      return (await getExecution(db, workspaceId, id))?.status === "running";
    };

    /** Someone else ended it (a cancel): record what this run did, send nothing more. */
    const stopped = async () => {
      steps = skipPending(steps);
      await saveSteps(db, workspaceId, id, steps, clock.now());
    };

    const fail = async (index: number, failure: Failure, message: string): Promise<void> => {
      const step = steps[index]!;
      step.status = "failed";
      step.error = message.slice(0, 2_000);
      step.finished_at = iso();
      steps = skipPending(steps);
      const diagnosis = diagnose(failure, { tool: step.tool, step: index, attempts: step.attempts, baseDelayMs: retry.baseDelayMs });
      let opened: string | undefined;
      if (diagnosis.needs_human) {
        try {
          const policy = failure.kind === "policy" ? failure.policy : undefined;
          const escalation = await escalations.create(actor, {
            category: "execution",
            severity: "high",
            toolName: step.tool,
            action: { tool: step.tool, arguments: step.arguments, domain: initial.domain, execution_id: id, step: index },
            ...(policy ? { policy } : {}),
            reason: message.slice(0, 2_000),
            humanPrompt: `Execution ${id} stopped at step ${index + 1} of ${steps.length} (${step.tool}): ${diagnosis.root_cause} Fix the cause, then plan it again.`.slice(0, 2_000),
            executionId: id,
            ...(initial.intentId ? { intent: initial.intentId } : {}),
          });
          opened = escalation.id;
        } catch (error) {
          log.error({ err: error, execution_id: id }, "the escalation of a failed execution could not be opened");
        }
      }
      const now = clock.now();
      const row = await db.transaction(async (tx) => {
        const moved = await transitionExecution(tx, workspaceId, id, ["running"], {
          status: "failed",
          steps: steps as unknown as Record<string, unknown>[],
          result: resultOf(steps),
          error: step.error,
          diagnosis: diagnosis as unknown as Record<string, unknown>,
          escalationId: opened ?? escalationId,
          finishedAt: now,
          updatedAt: now,
        });
        if (moved) {
          const fault = failure.kind === "policy" || failure.kind === "internal" ? undefined : { step: index, tool: step.tool, attempts: step.attempts, diagnosis, error: step.error ?? message };
          await recordPrecedents(tx, finished(fault));
          await audit.record(tx, actor, {
            action: "execution.fail",
            resourceType: "execution",
            resourceId: id,
            details: { step: index, tool: step.tool, error_category: diagnosis.error_category, attempts: step.attempts, ...(opened ? { escalation_id: opened } : {}) },
          });
          await outbox?.emit(tx, workspaceId, "execution.failed", { execution_id: id, intent_id: initial.intentId, step: index, tool: step.tool, error: step.error ?? null, error_category: diagnosis.error_category, escalation_id: opened ?? escalationId ?? null });
        }
        return moved;
      });
      if (!row) return stopped();
      publish(workspaceId, stepEvent("step_failed", id, index, step, steps));
      publish(workspaceId, terminalEvent(row));
    };

    /** Governance wants a person: wait as awaiting_approval on the new escalation. */
    const pause = async (index: number, pendingEscalation: string): Promise<void> => {
      steps[index]!.escalation_id = pendingEscalation;
      steps[index]!.approved = false;
      const now = clock.now();
      const row = await db.transaction(async (tx) => {
        const moved = await transitionExecution(tx, workspaceId, id, ["running"], {
          status: "awaiting_approval",
          escalationId: pendingEscalation,
          steps: steps as unknown as Record<string, unknown>[],
          updatedAt: now,
        });
        if (moved) {
          await audit.record(tx, actor, {
            action: "execution.await_approval",
            resourceType: "execution",
            resourceId: id,
            details: { step: index, tool: steps[index]!.tool, escalation_id: pendingEscalation },
          });
        }
        return moved;
      });
      if (!row) return stopped();
      // Decided before the pause was stored: nobody was waiting then.
      await deps.recheckEscalation(workspaceId, pendingEscalation);
    };

    const complete = async (): Promise<void> => {
      const now = clock.now();
      const row = await db.transaction(async (tx) => {
        const moved = await transitionExecution(tx, workspaceId, id, ["running"], {
          status: "completed",
          steps: steps as unknown as Record<string, unknown>[],
          result: resultOf(steps),
          error: null,
          diagnosis: null,
          finishedAt: now,
          updatedAt: now,
        });
        if (moved) {
          await recordPrecedents(tx, finished());
          await audit.record(tx, actor, { action: "execution.complete", resourceType: "execution", resourceId: id, details: { steps: steps.length } });
          await outbox?.emit(tx, workspaceId, "execution.completed", { execution_id: id, intent_id: initial.intentId, steps: steps.length });
        }
        return moved;
      });
      if (!row) return stopped();
      publish(workspaceId, stepsCompleteEvent(id, steps));
      publish(workspaceId, terminalEvent(row));
    };

    let current = -1;
    try {
      for (let index = 0; index < steps.length; index++) {
        const step = steps[index]!;
        if (step.status === "succeeded" || step.status === "skipped") continue;
        current = index;
        if (!(await stillRunning())) return await stopped();
        const tool = await tools.find(workspaceId, step.tool);
        if (!tool) return await fail(index, { kind: "missing_tool" }, `No tool "${step.tool}" in this workspace.`);
        const args = await stepArguments(vault, workspaceId, id, index, step);
        const problems = tools.validate(tool, args);
        if (problems) {
          return await fail(index, { kind: "invalid_arguments", problems }, `The arguments of ${tool.name} are not valid: ${problems.map((p) => `${p.field} ${p.message}`).join("; ")}.`);
        }
        const { verdict, approvedThrough } = await decide(actor, tool, args, initial.domain, step);
        if (verdict.decision === "blocked") {
          const policy = verdict.policy;
          return await fail(
            index,
            { kind: "policy", reason: verdict.reason, ...(policy ? { policyName: policy.name, policy: { id: policy.id, version: policy.version, clause: policy.clause } } : {}) },
            policy ? `Blocked by policy "${policy.name}" (${policy.id}, version ${policy.version}): ${verdict.reason}` : `Blocked: ${verdict.reason}`,
          );
        }
        if (verdict.decision === "conditional" && !approvedThrough) {
          if (!verdict.escalationId) return await fail(index, { kind: "policy", reason: verdict.reason }, `Needs approval, but no escalation could be opened: ${verdict.reason}`);
          escalationId = verdict.escalationId;
          return await pause(index, verdict.escalationId);
        }

        step.status = "running";
        step.started_at = iso();
        step.finished_at = null;
        step.attempts = 0;
        step.error = null;
        step.result = null;
        await saveSteps(db, workspaceId, id, steps, clock.now());
        publish(workspaceId, stepEvent("step_started", id, index, step, steps));

        const facts = {
          execution_id: id,
          step: index,
          decision: verdict.decision,
          ...(initial.domain !== null ? { domain: initial.domain } : {}),
          ...(verdict.policy ? { policy_id: verdict.policy.id } : {}),
          ...(approvedThrough ? { escalation_id: approvedThrough } : {}),
        };
        let run: ToolRun;
        let transient = false;
        for (;;) {
          run = await tools.run(actor, tool, args, { details: { ...facts, attempt: step.attempts + 1 }, signal: signals.stop.signal });
          step.attempts++;
          if (run.status === "succeeded") break;
          const kind = classifyCall(run);
          transient = kind.transient;
          if (!transient || step.attempts > retry.retries) break;
          if (!firstFailures.has(index)) firstFailures.set(index, { failure: { kind: "call", run, retriesExhausted: false }, error: run.error ?? "failed" });
          step.error = `attempt ${step.attempts} failed: ${run.error ?? "failed"}; retrying`;
          step.result = run.result;
          await saveSteps(db, workspaceId, id, steps, clock.now());
          try {
            await sleep(backoff(step.attempts, run, kind.category === "rate_limit" || kind.statusCode === 503), undefined, { signal: AbortSignal.any([signals.cancel.signal, signals.stop.signal]) });
          } catch {
            // Woken by a cancel or a stop: decided just below.
          }
          if (!(await stillRunning())) {
            step.status = "failed";
            step.error = `cancelled before attempt ${step.attempts + 1}`;
            step.finished_at = iso();
            return await stopped();
          }
        }
        step.result = run.result;
        step.finished_at = iso();
        if (run.status !== "succeeded") {
          const reason = run.error ?? "the call failed";
          return await fail(index, { kind: "call", run, retriesExhausted: transient }, `${tool.name} failed${step.attempts > 1 ? ` after ${step.attempts} attempts` : ""}: ${reason}`);
        }
        step.status = "succeeded";
        step.error = null;
        await saveSteps(db, workspaceId, id, steps, clock.now());
        publish(workspaceId, stepEvent("step_completed", id, index, step, steps));
      }
      await complete();
    } catch (error) {
      const message =
        error instanceof Stopped || signals.stop.signal.aborted ? "The service stopped while the execution ran; plan it again." : "The execution failed unexpectedly; see the service log with the trace id.";
      if (!(error instanceof Stopped)) log.error({ err: error, execution_id: id }, "execution run failed");
      const index = current >= 0 ? current : 0;
      try {
        if (steps[index] && steps[index]!.status !== "failed") await fail(index, { kind: "internal", message }, message);
      } catch (inner) {
        log.error({ err: inner, execution_id: id }, "a failed execution could not be recorded");
      }
    }
  }

  return {
    launch: (actor, row) => {
      const name = key(row.workspaceId, row.id);
      const signals = { cancel: new AbortController(), stop: new AbortController() };
      // A cancel from another process arrives as its terminal event.
      const unsubscribe = bus.subscribe(row.workspaceId, row.id, (event) => {
        if (isTerminalEvent(event) && event.status === "cancelled") signals.cancel.abort();
      });
      const done = execute(actor, row, signals)
        .catch((error) => log.error({ err: error, execution_id: row.id }, "execution run failed"))
        .finally(() => {
          unsubscribe();
          runs.delete(name);
        });
      runs.set(name, { ...signals, done });
    },

    cancelled: (workspaceId, id) => runs.get(key(workspaceId, id))?.cancel.abort(),

    stop: async () => {
      const active = [...runs.values()];
      for (const run of active) run.stop.abort();
      let timer: NodeJS.Timeout | undefined;
      await Promise.race([Promise.allSettled(active.map((r) => r.done)), new Promise((resolve) => (timer = setTimeout(resolve, 5_000)))]);
      clearTimeout(timer);
    },
  };
}
