import { shortText } from "../../safe-json.ts";
import { isSecretKey } from "../../engine/governance/secret-keys.ts";
import { EventEmitter } from "node:events";
import type { Clock } from "../../clock.ts";
import type { Database } from "../../db/index.ts";
import { AppError } from "../../errors/app-error.ts";
import type { Actor, AuditLog } from "../../events/audit.ts";
import type { Outbox } from "../../events/outbox.ts";
import type { Ids } from "../../ids.ts";
import { getEscalation, insertEscalation, listEscalations, resolveEscalation, type EscalationRow } from "./store.ts";

/** The contract's six decisions. `abstain` rejects the action; the others resolve the escalation. */
export const ESCALATION_DECISIONS = ["auto", "auto_complete", "handoff", "escalate", "clarify_requester", "abstain"] as const;
export type EscalationDecision = (typeof ESCALATION_DECISIONS)[number];
export const ESCALATION_STATUSES = ["pending", "resolved", "rejected"] as const;

export interface NewEscalationInput {
  category: "policy" | "execution";
  severity: string;
  toolName?: string;
  action: Record<string, unknown>;
  policy?: { id: string; version: number; clause: string };
  reason: string;
  humanPrompt: string;
  executionId?: string;
  intent?: string;
}

/** `local`: decided in this process (false when heard from another through NOTIFY). */
export type ResolutionListener = (row: EscalationRow, origin: { local: boolean }) => void;

export interface EscalationService {
  create(actor: Actor, input: NewEscalationInput): Promise<EscalationRow>;
  list(workspaceId: string, filter: { status?: EscalationRow["status"]; limit: number; offset: number }): Promise<{ rows: EscalationRow[]; total: number }>;
  get(workspaceId: string, id: string): Promise<EscalationRow>;
  resolve(actor: Actor, id: string, body: { decision?: unknown; resolution?: unknown; note?: unknown }): Promise<EscalationRow>;
  /** Resolves when the escalation is decided (in this process or another), or with the pending row on timeout. */
  waitFor(workspaceId: string, id: string, timeoutMs: number): Promise<EscalationRow>;
  /** Every resolution in this process or another: the intent engine resumes an action on `auto`. */
  onResolved(listener: ResolutionListener): () => void;
  start(): Promise<void>;
  stop(): Promise<void>;
}

const CHANNEL = "svc_escalations";
// Argument values under keys that name a secret (engine/governance/secret-keys.ts) are shown as "[redacted]".
export { isSecretKey };

/** A copy of the action safe to store and show: secret-looking argument values are withheld. */
export function redactAction(value: unknown, depth = 0): unknown {
  if (depth > 8) return "[truncated]";
  if (Array.isArray(value)) return value.slice(0, 100).map((v) => redactAction(v, depth + 1));
  if (value && typeof value === "object") {
    return Object.fromEntries(Object.entries(value).slice(0, 200).map(([k, v]) => [k, isSecretKey(k) ? "[redacted]" : redactAction(v, depth + 1)]));
  }
  if (typeof value === "string" && value.length > 2000) return `${value.slice(0, 2000)}…`;
  return value;
}

export function createEscalationService(deps: { database: Database; ids: Ids; clock: Clock; audit: AuditLog; outbox?: Outbox }): EscalationService {
  const { database, ids, clock, audit, outbox } = deps;
  const db = database.db;
  const events = new EventEmitter();
  events.setMaxListeners(0);
  let unlisten: (() => Promise<void>) | undefined;
  // Marks this process's own notifications, which come back to it and must not be announced twice.
  const origin = ids.uuid();

  const notFound = (id: string) => new AppError("escalation_not_found", { message: `No escalation ${id.slice(0, 100)} in this workspace.` });

  async function announce(row: EscalationRow): Promise<void> {
    events.emit("resolved", row, { local: true });
    events.emit(`${row.workspaceId}:${row.id}`, row);
    await database.notify(CHANNEL, JSON.stringify({ workspace_id: row.workspaceId, id: row.id, origin })).catch(() => {});
  }

  const service: EscalationService = {
    create: async (actor, input) =>
      db.transaction(async (tx) => {
        const row = await insertEscalation(tx, actor.workspaceId, {
          id: ids.make("esc"),
          category: input.category,
          severity: input.severity,
          toolName: input.toolName ?? null,
          action: redactAction(input.action) as Record<string, unknown>,
          policyId: input.policy?.id ?? null,
          policyVersion: input.policy?.version ?? null,
          clause: input.policy?.clause ?? null,
          reason: input.reason,
          humanPrompt: input.humanPrompt,
          executionId: input.executionId ?? null,
          intent: input.intent ?? null,
          createdAt: clock.now(),
          createdBy: actor.id ?? actor.type,
        });
        await audit.record(tx, actor, { action: "escalation.create", resourceType: "escalation", resourceId: row.id, details: { tool_name: row.toolName, policy_id: row.policyId } });
        await outbox?.emit(tx, actor.workspaceId, "escalation.created", { escalation_id: row.id, category: row.category, severity: row.severity, tool_name: row.toolName, policy_id: row.policyId, execution_id: row.executionId, reason: row.reason });
        return row;
      }),

    list: (workspaceId, filter) => listEscalations(db, workspaceId, filter),

    get: async (workspaceId, id) => {
      const row = await getEscalation(db, workspaceId, id);
      if (!row) throw notFound(id);
      return row;
    },

    resolve: async (actor, id, body) => {
      const decision = body.decision ?? body.resolution;
      if (typeof decision !== "string" || !(ESCALATION_DECISIONS as readonly string[]).includes(decision)) {
        throw new AppError("escalation_missing_decision", {
          message: decision === undefined ? "The `decision` is missing." : `${shortText(decision)} is not a decision.`,
          details: [{ field: "decision", message: `one of ${ESCALATION_DECISIONS.join(", ")}` }],
        });
      }
      if (body.note !== undefined && (typeof body.note !== "string" || body.note.length > 2000)) {
        throw new AppError("invalid_request", { details: [{ field: "note", message: "a string of at most 2000 characters" }] });
      }
      const row = await db.transaction(async (tx) => {
        const resolved = await resolveEscalation(tx, actor.workspaceId, id, {
          status: decision === "abstain" ? "rejected" : "resolved",
          decision,
          note: (body.note as string | undefined) ?? null,
          resolvedAt: clock.now(),
          resolvedBy: actor.id ?? actor.type,
        });
        if (!resolved) {
          const existing = await getEscalation(tx, actor.workspaceId, id);
          if (!existing) throw notFound(id);
          throw new AppError("escalation_already_resolved", { message: `Escalation ${id} was already decided (${existing.decision}).` });
        }
        await audit.record(tx, actor, { action: "escalation.resolve", resourceType: "escalation", resourceId: id, details: { decision } });
        await outbox?.emit(tx, actor.workspaceId, "escalation.resolved", { escalation_id: id, decision, status: resolved.status, execution_id: resolved.executionId });
        return resolved;
      });
      await announce(row);
      return row;
    },

    waitFor: async (workspaceId, id, timeoutMs) => {
      const key = `${workspaceId}:${id}`;
      let listener: ((row: EscalationRow) => void) | undefined;
      const decided = new Promise<EscalationRow>((resolve) => {
        listener = resolve;
        events.once(key, listener);
      });
      try {
        // Subscribed before reading, so a resolution in between is not missed.
        const current = await service.get(workspaceId, id);
        if (current.status !== "pending" || timeoutMs <= 0) return current;
        let timer: NodeJS.Timeout | undefined;
        const timedOut = new Promise<null>((resolve) => {
          timer = setTimeout(() => resolve(null), timeoutMs);
        });
        const first = await Promise.race([decided, timedOut]);
        clearTimeout(timer);
        return first ?? (await service.get(workspaceId, id));
      } finally {
        if (listener) events.off(key, listener);
      }
    },

    onResolved: (listener) => {
      events.on("resolved", listener);
      return () => events.off("resolved", listener);
    },

    start: async () => {
      // Another process resolved one: read it back and tell local waiters.
      unlisten = await database.listen(CHANNEL, (payload) => {
        if (!payload) return;
        let ref: { workspace_id?: string; id?: string; origin?: string };
        try {
          ref = JSON.parse(payload) as typeof ref;
        } catch {
          return;
        }
        if (!ref.workspace_id || !ref.id || ref.origin === origin || events.listenerCount(`${ref.workspace_id}:${ref.id}`) + events.listenerCount("resolved") === 0) return;
        void getEscalation(db, ref.workspace_id, ref.id)
          .then((row) => {
            if (row && row.status !== "pending") {
              events.emit(`${row.workspaceId}:${row.id}`, row);
              events.emit("resolved", row, { local: false });
            }
          })
          .catch(() => {});
      });
    },

    stop: async () => {
      await unlisten?.();
      events.removeAllListeners();
    },
  };
  return service;
}
