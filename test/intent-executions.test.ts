// From a conversation to a real call: an intent plans an execution that runs against a local HTTPS OpenAPI
// service; an approval rule sends it to a human, and each of the six escalation decisions does what it says.
import { describe, expect, it } from "vitest";
import { call, newWorkspace, startServer, type TestServer, type TestWorkspace } from "./helpers/server.ts";
import { MCP_TOKEN, useMcpServers } from "./helpers/mcp-servers.ts";
import { SHOP_API_KEY, useShopApi } from "./helpers/shop-api.ts";
import { makeCertificate } from "./helpers/tls.ts";
import { afterAll, beforeAll } from "vitest";

const tls = makeCertificate();
const shop = useShopApi(tls);
const mcp = useMcpServers();
let server: TestServer;
beforeAll(async () => {
  server = await startServer({ SVC_OUTBOUND_ALLOW_HOSTS: "127.0.0.1", SVC_OUTBOUND_CA_FILE: tls.certFile, SVC_EXECUTION_RETRY_BASE_MS: "10" });
});
afterAll(async () => {
  await server?.close();
});

async function shopWorkspace(rule?: string): Promise<TestWorkspace> {
  const ws = await newWorkspace(server);
  const credential = await call(server, "POST", "/api/v1/svc/credentials", { key: ws.key, body: { provider: "shop", name: "shop", key_data: { api_key: SHOP_API_KEY } } });
  const imported = await call(server, "POST", "/api/v1/svc/connections/openapi", { key: ws.key, body: { name: "shop", spec_url: `${shop().url}/openapi.json`, credential_id: credential.body.id } });
  expect(imported.status, imported.text).toBe(201);
  if (rule) {
    const created = await call(server, "POST", "/api/v1/svc/policies", { key: ws.key, body: { name: "approval", rule } });
    await call(server, "POST", `/api/v1/svc/policies/${created.body.id}/confirm`, { key: ws.key, body: { version: 1 } });
  }
  return ws;
}

const ask = (ws: TestWorkspace, content: string, extra: Record<string, unknown> = {}) =>
  call(server, "POST", "/api/v1/svc/intent", { key: ws.key, body: { messages: [{ role: "user", content }], ...extra } });

async function settled(ws: TestWorkspace, id: string, waiting = ["running", "ready"]): Promise<Record<string, any>> {
  for (let i = 0; i < 100; i++) {
    const reply = await call(server, "GET", `/api/v1/svc/executions/${id}`, { key: ws.key });
    if (!waiting.includes(reply.body.status)) return reply.body;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`execution ${id} did not settle`);
}

const refundsSent = () => shop().requests.filter((r) => r.path === "/api/refunds").map((r) => JSON.parse(r.body));

describe("intent → execution against a real service", () => {
  it("confirm runs the planned call with the filled arguments and the credential", async () => {
    const ws = await shopWorkspace();
    const reply = await ask(ws, "Refund order A-77 for $12.50");
    expect(reply.body, reply.text).toMatchObject({ type: "execution", status: "ready_to_execute", action: { tool: "refund_order", arguments: { order_id: "A-77", amount: 12.5 } } });
    const before = refundsSent().length;
    const confirmed = await call(server, "POST", reply.body.next_action.endpoint, { key: ws.key });
    expect(confirmed.status).toBe(200);
    const done = await settled(ws, reply.body.execution.id);
    expect(done.status).toBe("completed");
    expect(refundsSent().slice(before)).toEqual([{ order_id: "A-77", amount: 12.5 }]);
  });

  it("a tool of an MCP server: planned from the conversation, run on confirm", async () => {
    const ws = await newWorkspace(server);
    const registered = await call(server, "POST", "/api/v1/svc/connections/mcp", { key: ws.key, body: { name: "orders", url: mcp().httpUrl, headers: { authorization: `Bearer ${MCP_TOKEN}` } } });
    expect(registered.status, registered.text).toBe(201);
    const reply = await ask(ws, "Look up order A-1042 please");
    expect(reply.body, reply.text).toMatchObject({ type: "execution", action: { tool: "lookup_order", arguments: { order_id: "A-1042" } } });
    const calls = mcp().toolCalls.length;
    await call(server, "POST", reply.body.next_action.endpoint, { key: ws.key });
    expect((await settled(ws, reply.body.execution.id)).status).toBe("completed");
    expect(mcp().toolCalls.slice(calls)).toEqual([{ name: "lookup_order", args: { order_id: "A-1042" } }]);
  });

  it("clarify_requester turns the waiting action into a question in its conversation", async () => {
    const ws = await shopWorkspace("Require approval for refunds over $100");
    const reply = await ask(ws, "Refund order A-31 for $250");
    expect(reply.body.reason_code).toBe("conditional_approval_required");
    const resolved = await call(server, "POST", reply.body.next_action.endpoint, { key: ws.key, body: { decision: "clarify_requester", note: "Which customer complaint is this for?" } });
    expect(resolved.status).toBe(200);
    // The requester's next message continues the conversation, after the reviewer's question.
    let next: Record<string, any> = {};
    for (let i = 0; i < 50; i++) {
      const replay = await call(server, "GET", `/api/v1/svc/intelligence/${reply.body.id}`, { key: ws.key });
      expect(replay.status).toBe(200);
      next = (await call(server, "POST", "/api/v1/svc/intent", { key: ws.key, body: { conversation_id: reply.body.conversation_id, messages: [{ role: "user", content: "It was the broken blender, ticket 12." }], dry_run: true } })).body;
      if (next.intelligence.stages[0].detail.includes("2 user turn")) break;
      await new Promise((r) => setTimeout(r, 50));
    }
    expect(next.intelligence.stages[0].detail).toContain("2 user turn");
    // Still the same action, still governed: the approval rule asks again.
    expect(next, JSON.stringify({ type: next.type, action: next.action, stages: next.intelligence.stages.map((s: any) => s.detail) })).toMatchObject({ type: "blocked", reason_code: "conditional_approval_required", action: { tool: "refund_order", arguments: { order_id: "A-31", amount: 250 } } });
  });

  it("a failing call is retried, ends failed with a diagnosis, and the intent's record shows it", async () => {
    const ws = await shopWorkspace();
    shop().broken = true;
    const reply = await ask(ws, "Check the shop status");
    expect(reply.body, reply.text).toMatchObject({ type: "execution", action: { tool: "shop_status" } });
    const before = shop().requests.filter((r) => r.path === "/api/status").length;
    await call(server, "POST", reply.body.next_action.endpoint, { key: ws.key });
    const failed = await settled(ws, reply.body.execution.id);
    expect(failed.status).toBe("failed");
    expect(shop().requests.filter((r) => r.path === "/api/status").length - before).toBeGreaterThan(1);
    const record = await call(server, "GET", `/api/v1/svc/intelligence/${reply.body.id}`, { key: ws.key });
    expect(record.body.execution).toMatchObject({ id: reply.body.execution.id, status: "failed", diagnosis: { can_retry: expect.any(Boolean) } });
    expect(record.body.execution.error).toBeTruthy();
  });

  it("mode execution starts at once (status executing)", async () => {
    const ws = await shopWorkspace();
    const reply = await ask(ws, "Refund order A-78 for $5", { mode: "execution" });
    expect(reply.body).toMatchObject({ type: "execution", status: "executing", next_action: { type: "track_execution" } });
    expect((await settled(ws, reply.body.execution.id)).status).toBe("completed");
  });

  for (const decision of ["auto", "auto_complete", "handoff", "escalate", "clarify_requester", "abstain"]) {
    it(`an approval resolved with ${decision}`, async () => {
      const ws = await shopWorkspace("Require approval for refunds over $100");
      const reply = await ask(ws, `Refund order A-${decision.length} for $250`);
      expect(reply.body).toMatchObject({ type: "blocked", reason_code: "conditional_approval_required", next_action: { type: "resolve_escalation" } });
      const before = refundsSent().length;
      const resolved = await call(server, "POST", reply.body.next_action.endpoint, { key: ws.key, body: { decision } });
      expect(resolved.status, resolved.text).toBe(200);
      // Approvals start the waiting execution; the others settle it (escalate keeps it waiting).
      const execution = await settled(ws, reply.body.execution.id, decision === "escalate" ? [] : ["running", "ready", "awaiting_approval"]);
      if (decision === "auto" || decision === "auto_complete") {
        expect(execution.status).toBe("completed");
        expect(refundsSent().slice(before)).toEqual([{ order_id: `A-${decision.length}`, amount: 250 }]);
      } else {
        expect(refundsSent().slice(before)).toEqual([]);
        expect(execution.status).toBe(decision === "escalate" ? "awaiting_approval" : "cancelled");
      }
    });
  }
});
