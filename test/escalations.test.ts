import { sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { call, expectError, newWorkspace, query, useServer, type TestWorkspace } from "./helpers/server.ts";

const server = useServer();
const base = "/api/v1/svc/escalations";

/** An escalation made the way governance makes one: a conditional decision on a governed action. */
async function escalate(ws: TestWorkspace, amount = 900): Promise<string> {
  const policies = await call(server(), "GET", "/api/v1/svc/policies", { key: ws.key });
  if (!policies.body.policies.some((p: { name: string }) => p.name === "big refunds")) {
    const created = await call(server(), "POST", "/api/v1/svc/policies", { key: ws.key, body: { name: "big refunds", rule: "Require approval for refunds over $500" } });
    await call(server(), "POST", `/api/v1/svc/policies/${created.body.id}/confirm`, { key: ws.key, body: { version: 1 } });
  }
  const verdict = await server().services.governance.govern({ tool: "refund_payment", arguments: { amount }, caller: { workspaceId: ws.id, type: "key", id: ws.keyId, traceId: "t" } });
  expect(verdict.decision).toBe("conditional");
  return verdict.escalationId!;
}

describe("escalations", () => {
  it("lists, filters by status and gets an escalation", async () => {
    const ws = await newWorkspace(server());
    const first = await escalate(ws);
    const second = await escalate(ws, 1200);
    const listed = await call(server(), "GET", base, { key: ws.key });
    expect(listed.status).toBe(200);
    expect(listed.body).toMatchObject({ count: 2, total: 2, pagination: { limit: 100, offset: 0, has_more: false } });
    expect(listed.body.escalations.map((e: { id: string }) => e.id).sort()).toEqual([first, second].sort());
    const got = await call(server(), "GET", `${base}/${first}`, { key: ws.key });
    expect(got.body).toMatchObject({
      id: first,
      status: "pending",
      category: "policy",
      tool_name: "refund_payment",
      policy_version: 1,
      clause: "Require approval for refunds over $500",
      action: { tool: "refund_payment", arguments: { amount: 900 } },
      resolved_at: null,
      resolved_by: null,
      decision: null,
    });
    expect(got.body.human_prompt).toContain("refund_payment");
    expect(got.body.reason).toContain("big refunds");
    await call(server(), "POST", `${base}/${first}/resolve`, { key: ws.key, body: { decision: "auto" } });
    const pending = await call(server(), "GET", `${base}?status=pending`, { key: ws.key });
    expect(pending.body.escalations.map((e: { id: string }) => e.id)).toEqual([second]);
    const resolved = await call(server(), "GET", `${base}?status=resolved`, { key: ws.key });
    expect(resolved.body.escalations.map((e: { id: string }) => e.id)).toEqual([first]);
    expectError(await call(server(), "GET", `${base}?status=lost`, { key: ws.key }), 400, "invalid_request");
  });

  it("404 escalation_not_found; another workspace sees and resolves nothing", async () => {
    const ws = await newWorkspace(server());
    const other = await newWorkspace(server());
    const id = await escalate(ws);
    expectError(await call(server(), "GET", `${base}/esc_nope`, { key: ws.key }), 404, "escalation_not_found");
    expectError(await call(server(), "POST", `${base}/esc_nope/resolve`, { key: ws.key, body: { decision: "auto" } }), 404, "escalation_not_found");
    expectError(await call(server(), "GET", `${base}/${id}`, { key: other.key }), 404, "escalation_not_found");
    expectError(await call(server(), "POST", `${base}/${id}/resolve`, { key: other.key, body: { decision: "auto" } }), 404, "escalation_not_found");
    expect((await call(server(), "GET", base, { key: other.key })).body.total).toBe(0);
    expect((await call(server(), "GET", `${base}/${id}`, { key: ws.key })).body.status).toBe("pending");
  });

  it("400 escalation_missing_decision for a missing or unknown decision; nothing changes", async () => {
    const ws = await newWorkspace(server());
    const id = await escalate(ws);
    expectError(await call(server(), "POST", `${base}/${id}/resolve`, { key: ws.key }), 400, "escalation_missing_decision");
    expectError(await call(server(), "POST", `${base}/${id}/resolve`, { key: ws.key, body: {} }), 400, "escalation_missing_decision");
    expectError(await call(server(), "POST", `${base}/${id}/resolve`, { key: ws.key, body: { decision: "yes" } }), 400, "escalation_missing_decision");
    expectError(await call(server(), "POST", `${base}/${id}/resolve`, { key: ws.key, body: { decision: 1 } }), 400, "escalation_missing_decision");
    expect((await call(server(), "GET", `${base}/${id}`, { key: ws.key })).body.status).toBe("pending");
  });

  it("resolves with each of the six decisions (and the older `resolution`), records who and when, once", async () => {
    const ws = await newWorkspace(server());
    for (const decision of ["auto", "auto_complete", "handoff", "escalate", "clarify_requester", "abstain"]) {
      const id = await escalate(ws);
      const reply = await call(server(), "POST", `${base}/${id}/resolve`, { key: ws.key, body: { decision, note: "checked with finance" } });
      expect(reply.status, reply.text).toBe(200);
      expect(reply.body).toMatchObject({ id, status: decision === "abstain" ? "rejected" : "resolved", decision, resolution: decision, resolved_by: ws.keyId, note: "checked with finance" });
      expect(Date.parse(reply.body.resolved_at)).toBeGreaterThan(Date.now() - 60_000);
      expectError(await call(server(), "POST", `${base}/${id}/resolve`, { key: ws.key, body: { decision: "auto" } }), 409, "escalation_already_resolved");
    }
    const legacy = await escalate(ws);
    expect((await call(server(), "POST", `${base}/${legacy}/resolve`, { key: ws.key, body: { resolution: "handoff" } })).body).toMatchObject({ status: "resolved", decision: "handoff" });
    const audit = await query(server(), sql`select action, actor_id from audit_entries where workspace_id = ${ws.id} and action = 'escalation.resolve'`);
    expect(audit).toHaveLength(7);
    expect(audit.every((a) => a.actor_id === ws.keyId)).toBe(true);
  });

  it("notifies whatever waits: a long poll returns as soon as a decision is made", async () => {
    const ws = await newWorkspace(server());
    const id = await escalate(ws);
    const started = Date.now();
    const waiting = call(server(), "GET", `${base}/${id}?wait=20`, { key: ws.key });
    const heard = new Promise((resolve) => {
      const off = server().services.escalations.onResolved((row) => {
        if (row.id === id) {
          off();
          resolve(row.decision);
        }
      });
    });
    await new Promise((r) => setTimeout(r, 200));
    await call(server(), "POST", `${base}/${id}/resolve`, { key: ws.key, body: { decision: "auto" } });
    const reply = await waiting;
    expect(reply.body).toMatchObject({ id, status: "resolved", decision: "auto" });
    expect(Date.now() - started).toBeLessThan(10_000);
    expect(await heard).toBe("auto");
    // Waiting on a decided escalation answers at once; on a pending one, after the wait.
    expect((await call(server(), "GET", `${base}/${id}?wait=20`, { key: ws.key })).body.status).toBe("resolved");
    const other = await escalate(ws);
    const t0 = Date.now();
    expect((await call(server(), "GET", `${base}/${other}?wait=1`, { key: ws.key })).body.status).toBe("pending");
    expect(Date.now() - t0).toBeGreaterThanOrEqual(900);
  });
});
