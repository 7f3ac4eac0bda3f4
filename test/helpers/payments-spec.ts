// An OpenAPI document of payment operations (refund, order lookup, store credit) for tests that plan actions
// from conversations. Its server is a `.test` host: these tests never call it.
export const PAYMENTS_SPEC = {
  openapi: "3.0.3",
  info: { title: "Payments", version: "1.0" },
  servers: [{ url: "https://api.payments.test/v1" }],
  paths: {
    "/refunds": {
      post: {
        operationId: "create_refund",
        summary: "Refund an order",
        description: "Refunds all or part of an order's payment to the buyer.",
        requestBody: {
          required: true,
          content: {
            "application/json": {
              schema: {
                type: "object",
                required: ["order_id", "amount"],
                properties: {
                  order_id: { type: "string", pattern: "^ORD-[0-9]{4,6}$", description: "Order identifier, e.g. ORD-20417." },
                  amount: { type: "number", minimum: 0.01, description: "Amount to refund." },
                  currency: { type: "string", enum: ["USD", "EUR", "GBP"] },
                  reason: { type: "string", enum: ["duplicate", "damaged", "not_received", "other"] },
                },
              },
            },
          },
        },
      },
    },
    "/orders/{order_id}": {
      get: { operationId: "get_order", summary: "Look up an order", parameters: [{ name: "order_id", in: "path", required: true, schema: { type: "string", pattern: "^ORD-[0-9]{4,6}$" } }] },
    },
    "/orders/{order_id}/store-credit": {
      post: {
        operationId: "issue_store_credit",
        summary: "Issue store credit",
        parameters: [{ name: "order_id", in: "path", required: true, schema: { type: "string", pattern: "^ORD-[0-9]{4,6}$" } }],
        requestBody: { required: true, content: { "application/json": { schema: { type: "object", required: ["amount"], properties: { amount: { type: "number", minimum: 0.01 } } } } } },
      },
    },
  },
};
