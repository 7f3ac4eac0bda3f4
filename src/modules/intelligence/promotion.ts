// Promoting an intelligence record (POST /intelligence/{id}/promote) into something the workspace keeps:
// - memory: a memory item (through the memory service) holding the question and its answer, or what was
//   done: `reference` for an answer, `episode` for an action;
// - healing: a healing precedent of the failure (or the retried recovery) of the execution it planned;
// - procedure: the tool sequence and argument template of the action it planned, stored as a memory item
//   of type `precedent` tagged `procedure` (content.procedure holds the structure), so that it is
//   searchable and answers questions like any other knowledge.
// Once per record and kind: promoting again answers the first promotion (200, status already_promoted).
import type { Clock } from "../../clock.ts";
import type { Db } from "../../db/index.ts";
import { AppError } from "../../errors/app-error.ts";
import type { Actor, AuditLog } from "../../events/audit.ts";
import type { ExecutionService } from "../executions/service.ts";
import { stepsOf, type ExecutionRow } from "../executions/store.ts";
import type { HealingService } from "../healing/service.ts";
import type { RecordWriter } from "../intent/records.ts";
import { findIntent, type IntentRow } from "../intent/store.ts";
import type { MemoryService } from "../memory/service.ts";
import { findPromotion, insertPromotion, type PromotionKind } from "./promotion-store.ts";

export interface Promoted {
  id: string;
  kind: PromotionKind;
  status: "promoted" | "already_promoted";
  target: { type: "memory" | "precedent"; id: string; url: string };
  tool_name?: string;
  tool_sequence?: string[];
  source_trace_id: string;
  intent_id: string;
}

export interface PromotionService {
  promote(actor: Actor, id: string, input: { kind: PromotionKind; name?: string }): Promise<Promoted>;
}

interface Step {
  tool: string;
  arguments: Record<string, unknown>;
}

const RUNTIME = "/api/v1/svc";
const isObject = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);

/** The last user turn of the record's request (intent and chat records keep the turns as sent, masked). */
function questionOf(row: IntentRow): string {
  const messages = (row.request as { messages?: { role?: string; content?: unknown }[] }).messages ?? [];
  const last = [...messages].reverse().find((m) => m.role === "user" && typeof m.content === "string");
  return String(last?.content ?? "").trim();
}

function answerOf(row: IntentRow): string {
  const response = row.response as { message?: { content?: unknown }; content?: unknown };
  return String(response.message?.content ?? response.content ?? "").trim();
}

/** The steps the record planned: its execution's steps, else the action it proposed. */
function stepsOfRecord(row: IntentRow, execution: ExecutionRow | undefined): Step[] {
  if (execution) return stepsOf(execution).map((s) => ({ tool: s.tool, arguments: s.arguments ?? {} }));
  const action = (row.response as { action?: unknown }).action;
  return isObject(action) && typeof action.tool === "string" ? [{ tool: action.tool, arguments: isObject(action.arguments) ? action.arguments : {} }] : [];
}

/** Each argument as a `{{name}}` placeholder (nested objects keep their shape); the values are the example. */
function template(args: Record<string, unknown>, path = ""): Record<string, unknown> {
  return Object.fromEntries(Object.entries(args).map(([k, v]) => [k, isObject(v) ? template(v, `${path}${k}.`) : `{{${path}${k}}}`]));
}

export function createPromotionService(deps: { db: Db; clock: Clock; audit: AuditLog; records: RecordWriter; memory: MemoryService; healing: HealingService; executions: ExecutionService }): PromotionService {
  const { db, clock, audit, memory, healing } = deps;

  const executionOf = async (row: IntentRow): Promise<ExecutionRow | undefined> =>
    row.executionId ? deps.executions.get(row.workspaceId, row.executionId).catch((error) => (error instanceof AppError && error.code === "execution_not_found" ? undefined : Promise.reject(error))) : undefined;

  const notApplicable = (message: string) => new AppError("invalid_request", { message, details: [{ field: "kind", message }] });

  /** The memory item's fields for `memory` and `procedure`. */
  async function memoryInput(row: IntentRow, kind: "memory" | "procedure", name: string | undefined) {
    const execution = await executionOf(row);
    const steps = stepsOfRecord(row, execution);
    const tags = ["promoted", `trace:${row.traceId}`.slice(0, 100)];
    if (kind === "procedure") {
      if (steps.length === 0) throw notApplicable("The record planned no action: there is no procedure to keep. Promote it as memory instead.");
      const tools = steps.map((s) => s.tool);
      const title = (name ?? tools.join(" then ")).slice(0, 200);
      const text = `Procedure "${title}": ${steps.map((s) => `${s.tool}(${Object.keys(s.arguments).join(", ")})`).join(", then ")}. Learned from "${questionOf(row).slice(0, 500)}".`;
      return {
        input: {
          type: "precedent",
          domain: row.domain ?? "general",
          tags: [...tags, "procedure", ...tools].slice(0, 20),
          content: {
            text,
            procedure: { name: title, tool_sequence: tools, steps: steps.map((s) => ({ tool: s.tool, arguments_template: template(s.arguments), example_arguments: s.arguments })) },
            source_trace_id: row.traceId,
            intent_id: row.id,
          },
        },
        tools,
      };
    }
    const question = questionOf(row);
    if (steps.length > 0) {
      const outcome = execution ? `${execution.status}${execution.error ? ` (${execution.error.slice(0, 300)})` : ""}` : row.status;
      const done = steps.map((s) => `${s.tool} with ${JSON.stringify(s.arguments).slice(0, 500)}`).join(", then ");
      return {
        input: {
          type: "episode",
          domain: row.domain ?? "general",
          tags,
          content: { text: `Asked "${question.slice(0, 1_000)}": ran ${done}; outcome ${outcome}.`, question, action: steps, outcome, source_trace_id: row.traceId, intent_id: row.id },
        },
        tools: steps.map((s) => s.tool),
      };
    }
    const answer = answerOf(row);
    if (!question || !answer) throw notApplicable("The record has no question and answer to remember.");
    return {
      input: { type: "reference", domain: row.domain ?? "general", tags, content: { text: `Q: ${question.slice(0, 2_000)}\nA: ${answer.slice(0, 8_000)}`, question, answer, source_trace_id: row.traceId, intent_id: row.id } },
      tools: [],
    };
  }

  const answer = (row: IntentRow, kind: PromotionKind, status: Promoted["status"], targetId: string, tools: string[]): Promoted => ({
    id: targetId,
    kind,
    status,
    target: kind === "healing" ? { type: "precedent", id: targetId, url: `${RUNTIME}/healing/precedents?tool_name=${encodeURIComponent(tools[0] ?? "")}` } : { type: "memory", id: targetId, url: `${RUNTIME}/memory/${targetId}` },
    ...(tools[0] ? { tool_name: tools[0] } : {}),
    ...(kind === "procedure" || tools.length > 0 ? { tool_sequence: tools } : {}),
    source_trace_id: row.traceId,
    intent_id: row.id,
  });

  const recordPromotion = (tx: Db, actor: Actor, row: IntentRow, kind: PromotionKind, targetId: string) =>
    audit.record(tx, actor, { action: "intelligence.promote", resourceType: "intelligence", resourceId: row.id, details: { kind, target_id: targetId, trace_id: row.traceId } });

  return {
    promote: async (actor, id, input) => {
      await deps.records.flush();
      const row = await findIntent(db, actor.workspaceId, id);
      if (!row) throw new AppError("intelligence_not_found", { message: `No intelligence record ${id.slice(0, 100)} in this workspace.` });
      const earlier = await findPromotion(db, actor.workspaceId, row.id, input.kind);
      if (earlier) return answer(row, input.kind, "already_promoted", earlier.targetId, stepsOfRecord(row, await executionOf(row)).map((s) => s.tool));

      if (input.kind === "healing") {
        const execution = await executionOf(row);
        if (!execution) throw notApplicable("The record planned no execution: there is no failure or recovery to learn from.");
        const outcome = await db.transaction(async (tx) => {
          const precedent = await healing.precedentOf(tx, actor.workspaceId, { intentId: row.id, traceId: row.traceId, execution });
          if (!precedent) return undefined;
          const fresh = await insertPromotion(tx, actor.workspaceId, { intentId: row.id, kind: "healing", targetId: precedent.id, createdAt: clock.now() });
          if (fresh) await recordPromotion(tx, actor, row, "healing", precedent.id);
          return { precedent, fresh };
        });
        if (!outcome) throw notApplicable("The record's execution neither failed nor recovered from a failure: there is nothing to heal.");
        return answer(row, "healing", outcome.fresh ? "promoted" : "already_promoted", outcome.precedent.id, stepsOf(execution).map((s) => s.tool));
      }

      const { input: item, tools } = await memoryInput(row, input.kind, input.name);
      const created = await memory.create(actor, item);
      const fresh = await db.transaction(async (tx) => {
        const inserted = await insertPromotion(tx, actor.workspaceId, { intentId: row.id, kind: input.kind, targetId: created.id, createdAt: clock.now() });
        if (inserted) await recordPromotion(tx, actor, row, input.kind, created.id);
        return inserted;
      });
      if (fresh) return answer(row, input.kind, "promoted", created.id, tools);
      // A concurrent promotion of the same record won: keep its item only.
      await memory.delete(actor, created.id);
      const winner = await findPromotion(db, actor.workspaceId, row.id, input.kind);
      return answer(row, input.kind, "already_promoted", winner?.targetId ?? created.id, tools);
    },
  };
}
