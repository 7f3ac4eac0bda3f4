// Webhook subscriptions: an HTTPS URL, the events it wants, and a secret that signs every delivery. The
// secret is sealed by the credential vault (bound to the workspace and subscription) and never answered.
import type { Clock } from "../../clock.ts";
import type { Db } from "../../db/index.ts";
import { AppError } from "../../errors/app-error.ts";
import type { Actor, AuditLog } from "../../events/audit.ts";
import { EVENT_TYPES } from "../../events/outbox.ts";
import type { DeliveryWorker } from "../../events/webhook-delivery.ts";
import type { Ids } from "../../ids.ts";
import type { Vault } from "../credentials/vault.ts";
import { deleteWebhook, findDelivery, findWebhook, insertTestDelivery, insertWebhook, listDeliveries, listWebhooks, requeueDelivery, type DeliveryRow, type WebhookRow } from "./store.ts";

export const SECRET_MIN_LENGTH = 16;
export const SECRET_MAX_LENGTH = 512;
const URL_MAX_LENGTH = 2048;
// The ping's delivery is due only this long after it is written, so the background worker leaves it to the
// request that sends it at once; should that process die first, any worker sends it then.
const TEST_HOLD_MS = 60_000;

export interface NewWebhook {
  url?: unknown;
  events?: unknown;
  secret?: unknown;
}

export interface WebhookService {
  create(actor: Actor, input: NewWebhook): Promise<WebhookRow>;
  list(workspaceId: string): Promise<WebhookRow[]>;
  get(workspaceId: string, id: string): Promise<WebhookRow>;
  delete(actor: Actor, id: string): Promise<void>;
  /** Sends a `webhook.test` event to this subscription now; answers its delivery after the first attempt. */
  test(actor: Actor, id: string): Promise<DeliveryRow>;
  deliveries(workspaceId: string, id: string, page: { limit: number; offset: number }): Promise<{ rows: DeliveryRow[]; total: number }>;
  delivery(workspaceId: string, id: string, deliveryId: string): Promise<DeliveryRow>;
  /** Queues a delivery again (any status but one being sent right now), with a fresh attempt count. */
  redeliver(actor: Actor, id: string, deliveryId: string): Promise<DeliveryRow>;
}

/** The subscription's fields, or webhook_creation_failed naming every field that is wrong. */
export function checkWebhook(input: NewWebhook): { url: string; events: string[]; secret: string } {
  const problems: { field: string; message: string }[] = [];
  let url: URL | undefined;
  if (typeof input.url !== "string" || input.url.trim() === "") problems.push({ field: "url", message: "is required (an https:// URL)" });
  else if (input.url.length > URL_MAX_LENGTH) problems.push({ field: "url", message: `must be at most ${URL_MAX_LENGTH} characters` });
  else {
    try {
      url = new URL(input.url.trim());
    } catch {
      problems.push({ field: "url", message: "is not a valid URL" });
    }
    if (url && url.protocol !== "https:") problems.push({ field: "url", message: "must use HTTPS" });
    else if (url && (url.username || url.password)) problems.push({ field: "url", message: "must not contain credentials (the secret signs deliveries)" });
  }
  const known = new Set<string>([...EVENT_TYPES, "*"]);
  if (!Array.isArray(input.events) || input.events.length === 0) {
    problems.push({ field: "events", message: `needs at least one event name (${EVENT_TYPES.join(", ")}, or "*" for all)` });
  } else {
    const unknown = input.events.filter((event) => typeof event !== "string" || !known.has(event));
    if (unknown.length > 0) problems.push({ field: "events", message: `unknown event names: ${unknown.map((e) => JSON.stringify(e)).join(", ")}; known: ${EVENT_TYPES.join(", ")}, "*"` });
  }
  if (typeof input.secret !== "string" || input.secret.length < SECRET_MIN_LENGTH) {
    problems.push({ field: "secret", message: `is required (a string of at least ${SECRET_MIN_LENGTH} characters)` });
  } else if (input.secret.length > SECRET_MAX_LENGTH) problems.push({ field: "secret", message: `must be at most ${SECRET_MAX_LENGTH} characters` });
  if (problems.length > 0) {
    throw new AppError("webhook_creation_failed", { message: `The webhook subscription could not be created: ${problems[0]!.field} ${problems[0]!.message}.`, details: problems });
  }
  return { url: url!.toString(), events: [...new Set(input.events as string[])], secret: input.secret as string };
}

/** Unexpected failures of list and delete answer the contract's codes; AppErrors pass through. */
async function failingAs<T>(code: "webhook_list_failed" | "webhook_delete_failed", run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (error) {
    if (error instanceof AppError) throw error;
    throw new AppError(code, { cause: error });
  }
}

export function createWebhookService(deps: { db: Db; ids: Ids; clock: Clock; vault: Vault; audit: AuditLog; worker: DeliveryWorker }): WebhookService {
  const { db, ids, clock, vault, audit, worker } = deps;

  async function mustFind(workspaceId: string, id: string): Promise<WebhookRow> {
    const row = await findWebhook(db, workspaceId, id);
    if (!row) throw new AppError("webhook_not_found", { message: `No webhook subscription ${id} in this workspace.` });
    return row;
  }

  async function mustFindDelivery(workspaceId: string, id: string, deliveryId: string): Promise<DeliveryRow> {
    await mustFind(workspaceId, id);
    const row = await findDelivery(db, workspaceId, id, deliveryId);
    if (!row) throw new AppError("webhook_delivery_not_found", { message: `No delivery ${deliveryId} of webhook subscription ${id}.` });
    return row;
  }

  return {
    create: async (actor, input) => {
      const { url, events, secret } = checkWebhook(input);
      const id = ids.make("whk");
      const sealed = await vault.seal(actor.workspaceId, id, Buffer.from(secret, "utf8"));
      return db.transaction(async (tx) => {
        const row = await insertWebhook(tx, actor.workspaceId, { id, url, events, secret: sealed, createdAt: clock.now() });
        // The origin only: a receiver's path or query can carry a token of its own.
        await audit.record(tx, actor, { action: "webhook.create", resourceType: "webhook", resourceId: id, details: { origin: new URL(url).origin, events } });
        return row;
      });
    },

    list: (workspaceId) => failingAs("webhook_list_failed", () => listWebhooks(db, workspaceId)),

    get: mustFind,

    delete: (actor, id) =>
      failingAs("webhook_delete_failed", () =>
        db.transaction(async (tx) => {
          if (!(await deleteWebhook(tx, actor.workspaceId, id))) throw new AppError("webhook_not_found", { message: `No webhook subscription ${id} in this workspace.` });
          await audit.record(tx, actor, { action: "webhook.delete", resourceType: "webhook", resourceId: id });
        }),
      ),

    test: async (actor, id) => {
      await mustFind(actor.workspaceId, id);
      const event = { id: ids.make("evt"), deliveryId: ids.make("dlv"), data: { webhook_id: id, message: "This is a test event from svc." }, at: clock.now() };
      const dueAt = new Date(event.at.getTime() + TEST_HOLD_MS);
      await db.transaction(async (tx) => {
        await insertTestDelivery(tx, actor.workspaceId, id, event, dueAt);
        await audit.record(tx, actor, { action: "webhook.test", resourceType: "webhook", resourceId: id, details: { event_id: event.id } });
      });
      await worker.deliverNow(actor.workspaceId, event.deliveryId);
      return mustFindDelivery(actor.workspaceId, id, event.deliveryId);
    },

    deliveries: async (workspaceId, id, page) => {
      await mustFind(workspaceId, id);
      return listDeliveries(db, workspaceId, id, page.limit, page.offset);
    },

    delivery: mustFindDelivery,

    redeliver: async (actor, id, deliveryId) => {
      await mustFindDelivery(actor.workspaceId, id, deliveryId);
      const row = await db.transaction(async (tx) => {
        const queued = await requeueDelivery(tx, actor.workspaceId, id, deliveryId, clock.now());
        if (!queued) throw new AppError("webhook_delivery_in_progress", { message: `Delivery ${deliveryId} is being sent right now; ask again once it has an outcome.` });
        await audit.record(tx, actor, { action: "webhook.redeliver", resourceType: "webhook", resourceId: id, details: { delivery_id: deliveryId, event_id: queued.eventId } });
        return queued;
      });
      worker.wake();
      return row;
    },
  };
}
