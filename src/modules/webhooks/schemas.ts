import { Offset } from "../../http/wire.ts";
import { Type, type Static } from "typebox";
import { Pagination } from "../workspaces/schemas.ts";
import type { DeliveryRow, WebhookRow } from "./store.ts";

/** A subscription; the secret is write-only (sealed at rest, never answered). */
export const Webhook = Type.Object({
  id: Type.String(),
  url: Type.String(),
  events: Type.Array(Type.String()),
  is_active: Type.Boolean(),
  created_at: Type.String({ format: "date-time" }),
});
export type Webhook = Static<typeof Webhook>;

/**
 * Deliberately loose: the contract answers a missing or wrong `url`, `events` or `secret` with 500
 * `webhook_creation_failed` (details name the field), which the service raises, not a 400 from validation.
 */
export const CreateWebhookBody = Type.Object({
  url: Type.Optional(Type.Unknown()),
  events: Type.Optional(Type.Unknown()),
  secret: Type.Optional(Type.Unknown()),
});

export const WebhookList = Type.Object({ webhooks: Type.Array(Webhook), count: Type.Integer() });

export const WebhookParams = Type.Object({ id: Type.String({ minLength: 1, maxLength: 64 }) });
export const DeliveryParams = Type.Object({ id: Type.String({ minLength: 1, maxLength: 64 }), delivery_id: Type.String({ minLength: 1, maxLength: 64 }) });

export const DeliveryListQuery = Type.Object({
  limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 500 })),
  offset: Type.Optional(Offset),
});

/** One event's delivery to one subscription: where it stands, and how its last attempt went. */
export const Delivery = Type.Object({
  id: Type.String(),
  webhook_id: Type.String(),
  event_id: Type.String({ description: "Also the Standard Webhooks `webhook-id` header and the body's `id`: receivers dedupe on it" }),
  event_type: Type.String(),
  status: Type.Union([Type.Literal("pending"), Type.Literal("delivering"), Type.Literal("delivered"), Type.Literal("failed")]),
  attempts: Type.Integer({ description: "Attempts since the delivery was created or last redelivered" }),
  max_attempts: Type.Integer(),
  response_code: Type.Union([Type.Integer(), Type.Null()], { description: "HTTP status of the last attempt (null: no answer)" }),
  last_error: Type.Union([Type.String(), Type.Null()]),
  last_attempt_at: Type.Union([Type.String({ format: "date-time" }), Type.Null()]),
  next_retry_at: Type.Union([Type.String({ format: "date-time" }), Type.Null()], { description: "When a pending delivery is next attempted" }),
  delivered_at: Type.Union([Type.String({ format: "date-time" }), Type.Null()]),
  created_at: Type.String({ format: "date-time" }),
});
export type Delivery = Static<typeof Delivery>;

export const DeliveryList = Type.Object({
  deliveries: Type.Array(Delivery),
  count: Type.Integer(),
  total: Type.Integer(),
  pagination: Pagination,
});

export function toWire(row: WebhookRow): Webhook {
  return { id: row.id, url: row.url, events: row.events, is_active: row.isActive, created_at: row.createdAt.toISOString() };
}

export function deliveryToWire(row: DeliveryRow, maxAttempts: number): Delivery {
  return {
    id: row.id,
    webhook_id: row.webhookId,
    event_id: row.eventId,
    event_type: row.eventType,
    status: row.status,
    attempts: row.attempts,
    max_attempts: maxAttempts,
    response_code: row.lastStatusCode,
    last_error: row.lastError,
    last_attempt_at: row.lastAttemptAt?.toISOString() ?? null,
    next_retry_at: row.status === "pending" ? row.nextAttemptAt.toISOString() : null,
    delivered_at: row.deliveredAt?.toISOString() ?? null,
    created_at: row.createdAt.toISOString(),
  };
}
