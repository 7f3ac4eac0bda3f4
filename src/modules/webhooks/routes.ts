// /api/v1/svc/webhooks: subscriptions to events, signed deliveries, and each subscription's delivery log.
// Delivery itself is src/events/webhook-delivery.ts; docs/webhooks.md is the receiver's guide.
import { actorOf, workspaceIdOf, type App } from "../../http/types.ts";
import { Deleted } from "../../http/wire.ts";
import { CreateWebhookBody, Delivery, DeliveryList, DeliveryListQuery, DeliveryParams, Webhook, WebhookList, WebhookParams, deliveryToWire, toWire } from "./schemas.ts";
import type { WebhookService } from "./service.ts";

const tags = ["webhooks"];

export function registerWebhookRoutes(app: App, deps: { webhooks: WebhookService; maxAttempts: number }): void {
  const { webhooks, maxAttempts } = deps;

  app.post(
    "/api/v1/svc/webhooks",
    {
      config: { errors: ["webhook_creation_failed"] },
      schema: { tags, summary: "Subscribe an HTTPS URL to events (the secret signs deliveries and is never returned)", body: CreateWebhookBody, response: { 201: Webhook } },
    },
    async (request, reply) => reply.code(201).send(toWire(await webhooks.create(actorOf(request), request.body ?? {}))),
  );

  app.get(
    "/api/v1/svc/webhooks",
    { config: { errors: ["webhook_list_failed"] }, schema: { tags, summary: "List webhook subscriptions", response: { 200: WebhookList } } },
    async (request) => {
      const rows = await webhooks.list(workspaceIdOf(request.principal));
      return { webhooks: rows.map(toWire), count: rows.length };
    },
  );

  app.get(
    "/api/v1/svc/webhooks/:id",
    { config: { errors: ["webhook_not_found"] }, schema: { tags, summary: "Get a webhook subscription", params: WebhookParams, response: { 200: Webhook } } },
    async (request) => toWire(await webhooks.get(workspaceIdOf(request.principal), request.params.id)),
  );

  app.delete(
    "/api/v1/svc/webhooks/:id",
    {
      config: { errors: ["webhook_not_found", "webhook_delete_failed"] },
      schema: { tags, summary: "Delete a webhook subscription (pending deliveries are dropped)", params: WebhookParams, response: { 200: Deleted } },
    },
    async (request) => {
      await webhooks.delete(actorOf(request), request.params.id);
      return { id: request.params.id, status: "deleted" as const };
    },
  );

  app.post(
    "/api/v1/svc/webhooks/:id/test",
    {
      config: { errors: ["webhook_not_found"] },
      schema: { tags, summary: "Send a signed `webhook.test` event now; answers the delivery after its first attempt", params: WebhookParams, response: { 200: Delivery } },
    },
    async (request) => deliveryToWire(await webhooks.test(actorOf(request), request.params.id), maxAttempts),
  );

  app.get(
    "/api/v1/svc/webhooks/:id/deliveries",
    {
      config: { errors: ["webhook_not_found"] },
      schema: { tags, summary: "The subscription's delivery log, newest first", params: WebhookParams, querystring: DeliveryListQuery, response: { 200: DeliveryList } },
    },
    async (request) => {
      const limit = request.query.limit ?? 100;
      const offset = request.query.offset ?? 0;
      const { rows, total } = await webhooks.deliveries(workspaceIdOf(request.principal), request.params.id, { limit, offset });
      return { deliveries: rows.map((row) => deliveryToWire(row, maxAttempts)), count: rows.length, total, pagination: { limit, offset, has_more: offset + rows.length < total } };
    },
  );

  app.get(
    "/api/v1/svc/webhooks/:id/deliveries/:delivery_id",
    { config: { errors: ["webhook_not_found", "webhook_delivery_not_found"] }, schema: { tags, summary: "One delivery", params: DeliveryParams, response: { 200: Delivery } } },
    async (request) => deliveryToWire(await webhooks.delivery(workspaceIdOf(request.principal), request.params.id, request.params.delivery_id), maxAttempts),
  );

  app.post(
    "/api/v1/svc/webhooks/:id/deliveries/:delivery_id/redeliver",
    {
      config: { errors: ["webhook_not_found", "webhook_delivery_not_found", "webhook_delivery_in_progress"] },
      schema: { tags, summary: "Send a delivery again (same event id), with a fresh attempt count", params: DeliveryParams, response: { 202: Delivery } },
    },
    async (request, reply) => reply.code(202).send(deliveryToWire(await webhooks.redeliver(actorOf(request), request.params.id, request.params.delivery_id), maxAttempts)),
  );
}
