// The governed invoke route with real policies: a tool call runs only when governance approves; a block
// or a required approval answers 403 with X-Svc-Gate and the tool's service never hears of the call.
import { describe, expect, it } from "vitest";
import { call, expectError, newWorkspace, useServer, type TestWorkspace } from "./helpers/server.ts";
import { SHOP_API_KEY, useShopApi } from "./helpers/shop-api.ts";
import { makeCertificate } from "./helpers/tls.ts";

const tls = makeCertificate();
const shop = useShopApi(tls);
const server = useServer({ SVC_OUTBOUND_ALLOW_HOSTS: "127.0.0.1", SVC_OUTBOUND_CA_FILE: tls.certFile });

async function shopWorkspace(): Promise<TestWorkspace> {
  const ws = await newWorkspace(server());
  const credential = await call(server(), "POST", "/api/v1/svc/credentials", { key: ws.key, body: { provider: "shop", name: "shop", key_data: { api_key: SHOP_API_KEY } } });
  const imported = await call(server(), "POST", "/api/v1/svc/connections/openapi", { key: ws.key, body: { name: "shop", spec_url: `${shop().url}/openapi.json`, credential_id: credential.body.id } });
  expect(imported.status, imported.text).toBe(201);
  return ws;
}

async function activePolicy(ws: TestWorkspace, body: Record<string, unknown>): Promise<{ id: string }> {
  const created = await call(server(), "POST", "/api/v1/svc/policies", { key: ws.key, body });
  expect(created.status, created.text).toBe(201);
  const confirmed = await call(server(), "POST", `/api/v1/svc/policies/${created.body.id}/confirm`, { key: ws.key, body: { version: created.body.version } });
  expect(confirmed.status, confirmed.text).toBe(200);
  return created.body;
}

const refund = (ws: TestWorkspace, amount: number) =>
  call(server(), "POST", "/api/v1/svc/tools/refund_order/invoke", { key: ws.key, body: { arguments: { order_id: "A-1", amount }, domain: "finance" } });

describe("governed tool calls (policies)", () => {
  it("a blocking policy: 403 blocked_by_policy naming the policy, X-Svc-Gate: blocked, nothing sent", async () => {
    const ws = await shopWorkspace();
    const policy = await activePolicy(ws, { name: "no refunds", rule: "Block refund_order" });
    const before = shop().requests.length;
    const reply = await refund(ws, 10);
    const body = expectError(reply, 403, "blocked_by_policy");
    expect(reply.headers.get("x-svc-gate")).toBe("blocked");
    expect(body.error).toMatchObject({ policy_id: policy.id, policy_name: "no refunds" });
    expect(body.error.details).toEqual([{ field: "policy", message: expect.stringContaining("no refunds") }]);
    expect(shop().requests.length).toBe(before);
    // Other tools still run.
    const order = await call(server(), "POST", "/api/v1/svc/tools/get_order/invoke", { key: ws.key, body: { arguments: { order_id: "A-1" } } });
    expect(order.headers.get("x-svc-gate")).toBe("ok");
    expect(order.body.status).toBe("succeeded");
    const audit = await server().services.audit.list(ws.id, 5);
    expect(audit.find((e) => e.action === "tool.invoke" && e.resourceId === "refund_order")?.details).toMatchObject({ decision: "blocked", policy_id: policy.id });
  });

  it("an approval policy: 403 conditional_approval_required with the escalation, X-Svc-Gate: escalate; small refunds run", async () => {
    const ws = await shopWorkspace();
    await activePolicy(ws, { name: "approve big refunds", rule: "Require approval for refunds over $500" });
    const before = shop().requests.length;
    const reply = await refund(ws, 900);
    const body = expectError(reply, 403, "conditional_approval_required");
    expect(reply.headers.get("x-svc-gate")).toBe("escalate");
    expect(body.error.escalation_id).toMatch(/^esc_/);
    expect(body.error.details).toEqual([{ field: "escalation_id", message: body.error.escalation_id }]);
    expect(shop().requests.length).toBe(before);
    const escalation = await call(server(), "GET", `/api/v1/svc/escalations/${body.error.escalation_id}`, { key: ws.key });
    expect(escalation.body).toMatchObject({ status: "pending", tool_name: "refund_order" });

    const small = await refund(ws, 100);
    expect(small.headers.get("x-svc-gate")).toBe("ok");
    expect(small.body).toMatchObject({ status: "succeeded", result: { status_code: 201 } });
    expect(shop().requests.length).toBe(before + 1);
  });
});
