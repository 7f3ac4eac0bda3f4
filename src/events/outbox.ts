// The event outbox. A service that changes something calls `outbox.emit(tx, workspaceId, type, data)` inside
// the transaction of the change: the event row and one delivery row per matching subscription are written in
// one statement of that transaction, so an event exists exactly when its change does, and a crash after the
// commit loses nothing (the delivery worker, src/events/webhook-delivery.ts, sends what is due). The NOTIFY
// is transactional too: PostgreSQL delivers it at commit, and not at all on rollback.
import { sql } from "drizzle-orm";
import type { Clock } from "../clock.ts";
import type { Db } from "../db/index.ts";
import type { Ids } from "../ids.ts";

/** Event names a subscription may ask for (or "*" for all). `webhook.test` is sent only by the test ping. */
export const EVENT_TYPES = [
  "intent.decided",
  "intent.blocked",
  "execution.started",
  "execution.completed",
  "execution.failed",
  "escalation.created",
  "escalation.resolved",
  "policy.confirmed",
  "connection.degraded",
] as const;
export type EventType = (typeof EVENT_TYPES)[number] | "webhook.test";

/** The channel that wakes delivery workers; the payload is unused (workers look for what is due). */
export const WEBHOOK_CHANNEL = "svc_webhooks";

export interface Outbox {
  /**
   * Records an event in the caller's transaction. `data` is what subscribers receive: facts about the change
   * (ids, names, statuses), never secrets or credential values.
   */
  emit(tx: Db, workspaceId: string, type: EventType, data: Record<string, unknown>): Promise<void>;
}

export function createOutbox(deps: { ids: Ids; clock: Clock }): Outbox {
  const { ids, clock } = deps;
  return {
    emit: async (tx, workspaceId, type, data) => {
      const id = ids.make("evt");
      const at = clock.now().toISOString();
      // One statement: nothing is stored when no subscription wants the event (the common case costs one
      // index lookup). A delivery's id derives from its event and subscription, so it needs no extra round trip.
      await tx.execute(sql`
        with subs as (
          select id from webhooks
          where workspace_id = ${workspaceId} and is_active and (events ? ${type} or (events ? '*' and ${type} <> 'webhook.test'))
        ), event as (
          insert into webhook_events (id, workspace_id, type, data, created_at)
          select ${id}, ${workspaceId}, ${type}, ${JSON.stringify(data)}::jsonb, ${at}::timestamptz
          where exists (select 1 from subs)
          returning id
        ), queued as (
          insert into webhook_deliveries (id, workspace_id, webhook_id, event_id, event_type, status, next_attempt_at, created_at)
          select 'dlv_' || substr(md5(event.id || ':' || subs.id), 1, 24), ${workspaceId}, subs.id, event.id, ${type}, 'pending', ${at}::timestamptz, ${at}::timestamptz
          from subs, event
          returning 1
        )
        select pg_notify(${WEBHOOK_CHANNEL}, '') from event`);
    },
  };
}
