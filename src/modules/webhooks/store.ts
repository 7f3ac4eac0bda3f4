import { and, desc, eq, sql } from "drizzle-orm";
import type { Db } from "../../db/index.ts";
import { webhookDeliveries, webhookEvents, webhooks } from "../../db/schema.ts";

export type WebhookRow = typeof webhooks.$inferSelect;
export type DeliveryRow = typeof webhookDeliveries.$inferSelect;

export async function insertWebhook(db: Db, workspaceId: string, row: Omit<typeof webhooks.$inferInsert, "workspaceId">): Promise<WebhookRow> {
  const [created] = await db
    .insert(webhooks)
    .values({ ...row, workspaceId })
    .returning();
  return created!;
}

export async function listWebhooks(db: Db, workspaceId: string): Promise<WebhookRow[]> {
  return db.select().from(webhooks).where(eq(webhooks.workspaceId, workspaceId)).orderBy(webhooks.createdAt, webhooks.id);
}

export async function findWebhook(db: Db, workspaceId: string, id: string): Promise<WebhookRow | undefined> {
  const [row] = await db
    .select()
    .from(webhooks)
    .where(and(eq(webhooks.workspaceId, workspaceId), eq(webhooks.id, id)));
  return row;
}

/** Deletes the subscription with its deliveries (cascade): nothing more is sent to it. */
export async function deleteWebhook(db: Db, workspaceId: string, id: string): Promise<boolean> {
  const deleted = await db
    .delete(webhooks)
    .where(and(eq(webhooks.workspaceId, workspaceId), eq(webhooks.id, id)))
    .returning({ id: webhooks.id });
  return deleted.length === 1;
}

export async function listDeliveries(db: Db, workspaceId: string, webhookId: string, limit: number, offset: number): Promise<{ rows: DeliveryRow[]; total: number }> {
  const where = and(eq(webhookDeliveries.workspaceId, workspaceId), eq(webhookDeliveries.webhookId, webhookId));
  const rows = await db.select().from(webhookDeliveries).where(where).orderBy(desc(webhookDeliveries.createdAt), desc(webhookDeliveries.id)).limit(limit).offset(offset);
  const [count] = await db.select({ total: sql<number>`count(*)::int` }).from(webhookDeliveries).where(where);
  return { rows, total: count?.total ?? 0 };
}

export async function findDelivery(db: Db, workspaceId: string, webhookId: string, id: string): Promise<DeliveryRow | undefined> {
  const [row] = await db
    .select()
    .from(webhookDeliveries)
    .where(and(eq(webhookDeliveries.workspaceId, workspaceId), eq(webhookDeliveries.webhookId, webhookId), eq(webhookDeliveries.id, id)));
  return row;
}

/** Queues a delivery again with a fresh attempt count (unless a worker holds it right now). */
export async function requeueDelivery(db: Db, workspaceId: string, webhookId: string, id: string, at: Date): Promise<DeliveryRow | undefined> {
  const [row] = await db
    .update(webhookDeliveries)
    .set({ status: "pending", attempts: 0, nextAttemptAt: at, leaseToken: null, leaseUntil: null })
    .where(
      and(
        eq(webhookDeliveries.workspaceId, workspaceId),
        eq(webhookDeliveries.webhookId, webhookId),
        eq(webhookDeliveries.id, id),
        sql`${webhookDeliveries.status} <> 'delivering'`,
      ),
    )
    .returning();
  return row;
}

/** The test ping: an event for one subscription only, and its delivery. */
export async function insertTestDelivery(db: Db, workspaceId: string, webhookId: string, event: { id: string; deliveryId: string; data: Record<string, unknown>; at: Date }, dueAt: Date): Promise<void> {
  await db.insert(webhookEvents).values({ id: event.id, workspaceId, type: "webhook.test", data: event.data, createdAt: event.at });
  await db.insert(webhookDeliveries).values({
    id: event.deliveryId,
    workspaceId,
    webhookId,
    eventId: event.id,
    eventType: "webhook.test",
    status: "pending",
    nextAttemptAt: dueAt,
    createdAt: event.at,
  });
}
