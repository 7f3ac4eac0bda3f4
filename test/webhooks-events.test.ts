// Every event kind comes from the service that causes it: a conversation decided or blocked, an execution
// started, completed or failed, an escalation created and resolved, a policy confirmed, a connection
// degraded. Each arrives once, signed, with ids a receiver can follow up, and no secret in it.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { call, invokeTool, newWorkspace, startServer, type TestServer, type TestWorkspace } from "./helpers/server.ts";
import { SHOP_API_KEY, useShopApi } from "./helpers/shop-api.ts";
import { sharedWebhookCertificate, startReceiver, webhookTestEnv, type Receiver } from "./helpers/webhook-receiver.ts";

const tls = sharedWebhookCertificate();
const shop = useShopApi(tls);
const SECRET = "events-test-secret-0123456789";
let server: TestServer;
let receiver: Receiver;
beforeAll(async () => {
  receiver = await startReceiver(tls);
  server = await startServer({
    ...webhookTestEnv(tls.certFile),
    SVC_EXECUTION_RETRY_BASE_MS: "10",
  });
});
afterAll(async () => {
  await server?.close();
  await receiver?.close();
});

async function shopWorkspace(): Promise<TestWorkspace> {
  const ws = await newWorkspace(server);
  const credential = await call(server, "POST", "/api/v1/svc/credentials", { key: ws.key, body: { provider: "shop", name: "shop", key_data: { api_key: SHOP_API_KEY } } });
  const imported = await call(server, "POST", "/api/v1/svc/connections/openapi", { key: ws.key, body: { name: "shop", spec_url: `${shop().url}/openapi.json`, credential_id: credential.body.id } });
  expect(imported.status, imported.text).toBe(201);
  return ws;
}

async function confirmPolicy(ws: TestWorkspace, rule: string): Promise<string> {
  const created = await call(server, "POST", "/api/v1/svc/policies", { key: ws.key, body: { name: rule, rule } });
  await call(server, "POST", `/api/v1/svc/policies/${created.body.id}/confirm`, { key: ws.key, body: { version: 1 } });
  return created.body.id;
}

const ask = (ws: TestWorkspace, content: string) => call(server, "POST", "/api/v1/svc/intent", { key: ws.key, body: { messages: [{ role: "user", content }] } });

async function settled(ws: TestWorkspace, id: string): Promise<Record<string, any>> {
  for (let i = 0; i < 200; i++) {
    const reply = await call(server, "GET", `/api/v1/svc/executions/${id}`, { key: ws.key });
    if (!["running", "ready"].includes(reply.body.status)) return reply.body;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`execution ${id} did not settle`);
}

/** The events received so far, parsed, oldest first. */
const events = (name: string) => receiver.received(name).map((r) => JSON.parse(r.body) as { id: string; type: string; data: Record<string, any> });

async function eventOf(name: string, type: string, match: (data: Record<string, any>) => boolean = () => true) {
  for (let i = 0; i < 200; i++) {
    const found = events(name).find((e) => e.type === type && match(e.data));
    if (found) return found;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`no ${type} event; got ${events(name).map((e) => e.type).join(", ")}`);
}

describe("events from the services that cause them", () => {
  it("intent, execution, escalation, policy and connection events each arrive once", { timeout: 120_000 }, async () => {
    const ws = await shopWorkspace();
    const name = `all-${process.pid}`;
    const hook = await call(server, "POST", "/api/v1/svc/webhooks", { key: ws.key, body: { url: receiver.url(name), events: ["*"], secret: SECRET } });
    expect(hook.status, hook.text).toBe(201);

    // intent.decided, then execution.started and execution.completed on confirm.
    const planned = await ask(ws, "Refund order A-77 for $12.50");
    expect(planned.body.status, planned.text).toBe("ready_to_execute");
    const executionId = planned.body.execution.id;
    expect((await eventOf(name, "intent.decided", (d) => d.execution_id === executionId)).data).toMatchObject({ status: "ready_to_execute", type: "execution", trace_id: planned.body.trace_id });
    await call(server, "POST", planned.body.next_action.endpoint, { key: ws.key });
    expect((await settled(ws, executionId)).status).toBe("completed");
    await eventOf(name, "execution.started", (d) => d.execution_id === executionId && d.via === "confirm");
    await eventOf(name, "execution.completed", (d) => d.execution_id === executionId && d.steps === 1);

    // A planned refund, then a policy that blocks it: execution.failed at run time, with an escalation.
    const second = await ask(ws, "Refund order A-78 for $900");
    expect(second.body.status, second.text).toBe("ready_to_execute");
    const policyId = await confirmPolicy(ws, "Block refunds over $500");
    await eventOf(name, "policy.confirmed", (d) => d.policy_id === policyId && d.version === 1);
    await call(server, "POST", second.body.next_action.endpoint, { key: ws.key });
    const failed = await settled(ws, second.body.execution.id);
    expect(failed.status).toBe("failed");
    const failure = await eventOf(name, "execution.failed", (d) => d.execution_id === failed.id);
    expect(failure.data).toMatchObject({ tool: "refund_order", error_category: "policy", escalation_id: failed.escalation_id });
    await eventOf(name, "escalation.created", (d) => d.escalation_id === failed.escalation_id);
    const resolved = await call(server, "POST", `/api/v1/svc/escalations/${failed.escalation_id}/resolve`, { key: ws.key, body: { decision: "abstain" } });
    expect(resolved.status, resolved.text).toBe(200);
    await eventOf(name, "escalation.resolved", (d) => d.escalation_id === failed.escalation_id && d.decision === "abstain");

    // The policy now blocks the conversation itself.
    const blocked = await ask(ws, "Refund order A-79 for $950");
    expect(blocked.body.status, blocked.text).toBe("blocked_by_policy");
    await eventOf(name, "intent.blocked", (d) => d.trace_id === blocked.body.trace_id);

    // A connection whose calls keep failing becomes degraded: one event at the transition.
    for (let i = 0; i < 4; i++) await invokeTool(server, ws.key, "shop_status", {});
    const degraded = await eventOf(name, "connection.degraded");
    expect(degraded.data).toMatchObject({ recent_failures: 3 });

    await new Promise((r) => setTimeout(r, 500));
    const all = events(name);
    // Once each: no event id twice, and exactly one degraded event for four failing calls.
    expect(new Set(all.map((e) => e.id)).size).toBe(all.length);
    expect(all.filter((e) => e.type === "connection.degraded")).toHaveLength(1);
    expect(new Set(all.map((e) => e.type))).toEqual(
      new Set(["intent.decided", "intent.blocked", "execution.started", "execution.completed", "execution.failed", "escalation.created", "escalation.resolved", "policy.confirmed", "connection.degraded"]),
    );
    for (const received of receiver.received(name)) {
      expect(received.body).not.toContain(SHOP_API_KEY);
      expect(received.body).not.toContain(ws.key);
      expect(received.body).not.toContain(ws.id);
    }
  });
});
