// Setup (one request applies connections, credentials, memory and policies, and answers the installation
// checklist) and assessment (can this workspace do a task?), over real HTTP. The OpenAPI service of the
// assessment tests lives at an https `.test` host: its tools are made from the inline document and never
// called.
import { sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { call, expectError, newWorkspace, query, useServer, type TestWorkspace } from "./helpers/server.ts";

const server = useServer();
const SETUP = "/api/v1/svc/setup";
const ASSESS = "/api/v1/svc/assess";

const PAYMENTS_SPEC = {
  openapi: "3.0.3",
  info: { title: "Payments", version: "1.0" },
  servers: [{ url: "https://payments.setup-suite.test/v1" }],
  paths: {
    "/orders/{order_id}": {
      get: {
        operationId: "get_order",
        summary: "Look up an order",
        parameters: [{ name: "order_id", in: "path", required: true, description: "The order's id, e.g. ORD-1001", schema: { type: "string", pattern: "^ORD-[0-9]+$" } }],
      },
    },
    "/refunds": {
      post: {
        operationId: "refund_order",
        summary: "Refund an order",
        description: "Pays money back to the customer of an order.",
        requestBody: {
          required: true,
          content: {
            "application/json": {
              schema: {
                type: "object",
                required: ["order_id", "amount"],
                properties: { order_id: { type: "string", pattern: "^ORD-[0-9]+$" }, amount: { type: "number", minimum: 0 }, reason: { type: "string" } },
              },
            },
          },
        },
      },
    },
    "/customers/{customer_id}": {
      delete: {
        operationId: "delete_customer",
        summary: "Delete a customer and their data",
        parameters: [{ name: "customer_id", in: "path", required: true, schema: { type: "string", pattern: "^CUS-[0-9]+$" } }],
      },
    },
  },
};

const setup = (ws: TestWorkspace, body: unknown) => call(server(), "POST", SETUP, { key: ws.key, body });
const assess = (ws: TestWorkspace, body: unknown) => call(server(), "POST", ASSESS, { key: ws.key, body });

async function counts(ws: TestWorkspace) {
  const [row] = await query(
    server(),
    sql`select
      (select count(*)::int from credentials where workspace_id = ${ws.id}) as credentials,
      (select count(*)::int from connections where workspace_id = ${ws.id}) as connections,
      (select count(*)::int from memory_items where workspace_id = ${ws.id}) as memory,
      (select count(*)::int from policies where workspace_id = ${ws.id}) as policies,
      (select count(*)::int from policy_versions where workspace_id = ${ws.id}) as policy_versions,
      (select count(*)::int from audit_entries where workspace_id = ${ws.id}) as audit`,
  );
  return row as { credentials: number; connections: number; memory: number; policies: number; policy_versions: number; audit: number };
}

async function auditActions(ws: TestWorkspace): Promise<string[]> {
  const rows = await query(server(), sql`select action from audit_entries where workspace_id = ${ws.id} order by seq`);
  return rows.map((r) => r.action as string);
}

async function paymentsWorkspace(): Promise<TestWorkspace> {
  const ws = await newWorkspace(server());
  const imported = await call(server(), "POST", "/api/v1/svc/connections/openapi", { key: ws.key, body: { name: "payments", spec_content: PAYMENTS_SPEC } });
  expect(imported.status, imported.text).toBe(201);
  expect(imported.body.functions).toEqual(["get_order", "refund_order", "delete_customer"]);
  return ws;
}

async function activePolicy(ws: TestWorkspace, name: string, rule: string): Promise<string> {
  const created = await call(server(), "POST", "/api/v1/svc/policies", { key: ws.key, body: { name, rule } });
  expect(created.status, created.text).toBe(201);
  const confirmed = await call(server(), "POST", `/api/v1/svc/policies/${created.body.id}/confirm`, { key: ws.key });
  expect(confirmed.status, confirmed.text).toBe(200);
  return created.body.id;
}

describe("POST /setup", () => {
  it("applies connections, credentials, memory and policies through their services and reports each item", async () => {
    const ws = await newWorkspace(server());
    const reply = await setup(ws, {
      workspace_id: "ws_someone_else",
      purpose: "refunds desk",
      credentials: [{ provider: "Stripe", key_data: { api_key: "stripe-key-0001" } }],
      connections: [{ capability: "refund payment" }, { capability: "slack" }],
      memory: [
        { type: "reference", content: { text: "Refunds older than 30 days need a manager." }, domain: "support", tags: ["refunds"] },
        { content: { text: "The desk answers in English." } },
      ],
      policies: [{ name: "refund limit", description: "big refunds", rule: "Block refunds over $500", severity: null }],
    });
    expect(reply.status, reply.text).toBe(200);
    const body = reply.body;
    expect(body.credentials).toEqual([{ provider: "stripe", name: "Stripe", id: expect.stringMatching(/^cred_/), type: "api_key", status: "created" }]);
    expect(body.connections[0]).toMatchObject({ capability: "refund payment", status: "connected", detail: { service_id: "stripe", installed: "stripe", created: true } });
    expect(body.connections[1]).toMatchObject({ capability: "slack", status: "schema_required", detail: { service_id: "slack", auth_url: "/api/v1/svc/credentials" } });
    expect(body.memory).toEqual([
      { id: expect.stringMatching(/^[0-9a-f-]{36}$/), type: "reference", kind: "reference", classified: false, domain: "support", status: "created" },
      { id: expect.stringMatching(/^[0-9a-f-]{36}$/), type: "reference", kind: "reference", classified: false, domain: "general", status: "created" },
    ]);
    expect(body.policies).toEqual([
      {
        name: "refund limit",
        id: expect.stringMatching(/^pol_/),
        status: "created",
        version: 1,
        policy_status: "pending_confirmation",
        confirmed: false,
        approve_url: `/api/v1/svc/policies/${body.policies[0].id}/confirm`,
        restatement: expect.stringContaining("refunds"),
      },
    ]);
    expect(body).toMatchObject({ applied: 6, failed: 0, dry_run: false });
    expect(body.would_apply).toBeUndefined();
    expect(body.notice).toMatch(/1 policy waits for confirmation/);

    // The checklist, from the state after applying.
    const checklist = body.checklist;
    expect(checklist.connections_to_register).toEqual([expect.objectContaining({ integration_id: "slack", status: "pending_auth", action: "add_credential", endpoint: "/api/v1/svc/credentials", provider: "slack", required: true })]);
    expect(checklist.policies_to_confirm).toEqual([
      { id: body.policies[0].id, name: "refund limit", version: 1, active_version: null, approve_url: body.policies[0].approve_url, restatement: expect.any(String), required: true },
    ]);
    expect(checklist.memory_to_upload).toEqual([]);
    expect(checklist.webhooks_to_configure).toEqual([expect.objectContaining({ status: "unavailable", endpoint: "/api/v1/svc/webhooks", required: false })]);
    expect(checklist.complete).toBe(false);
    expect(checklist.summary).toEqual({
      connections: { total: 2, connected: 1, pending_auth: 1, degraded: 0 },
      tools: 0,
      credentials: 1,
      memory_items: 2,
      memory_by_type: { reference: 2 },
      policies: { active: 0, pending_confirmation: 1, disabled: 0 },
    });

    // What the services wrote, with their audit entries; the credential is sealed.
    expect(await counts(ws)).toMatchObject({ credentials: 1, connections: 2, memory: 2, policies: 1 });
    expect((await auditActions(ws)).filter((a) => !a.startsWith("api_key"))).toEqual(["credential.create", "connection.install", "connection.install", "memory.create", "memory.create", "policy.create"]);
    const [secret] = await query(server(), sql`select secret from credentials where workspace_id = ${ws.id}`);
    expect(JSON.stringify(secret)).not.toContain("stripe-key-0001");
    expect(reply.text).not.toContain("stripe-key-0001");
    expect(reply.text).not.toContain("ws_someone_else");
  });

  it("a bad policy sentence, a secret in memory and an invalid credential fail alone; nothing is half written", async () => {
    const ws = await newWorkspace(server());
    const reply = await setup(ws, {
      credentials: [{ provider: "github", name: null, key_data: {} }, { provider: "linear", key_data: "lin-key-0002" }],
      connections: [{ capability: "teleport the cat" }, { capability: "" }, { capability: "send message" }],
      memory: [
        { type: "note", content: { text: "the api_key is sk_live_abcdefghijklmnopqrstu" } },
        { type: "note", content: { text: "Support hours are 9 to 5." } },
        { type: "gossip", content: { text: "x" } },
      ],
      policies: [
        { name: "moon", rule: "Refunds over $500 are sometimes nice" },
        { name: "big payments", rule: "Require approval for payments above 1,000 EUR" },
        { rule: "Block refunds" },
      ],
    });
    expect(reply.status, reply.text).toBe(200);
    const body = reply.body;
    expect(body.credentials[0]).toMatchObject({ provider: "github", name: "github", status: "failed", error_code: "credential_creation_failed", details: [{ field: "key_data", message: expect.any(String) }] });
    expect(body.credentials[0].id).toBeUndefined();
    expect(body.credentials[1]).toMatchObject({ provider: "linear", name: "linear", status: "created" });
    expect(body.connections[0]).toMatchObject({ capability: "teleport the cat", status: "unknown", detail: { searched: "teleport the cat" } });
    expect(body.connections[1]).toMatchObject({ capability: "", status: "failed", error_code: "invalid_request" });
    // Two integrations offer it and neither is authorised: the caller chooses.
    expect(body.connections[2]).toMatchObject({ capability: "send message", status: "manual", detail: { available: false } });
    expect(body.memory[0]).toMatchObject({ id: "", type: "note", status: "failed", error_code: "memory_contains_secret" });
    expect(body.memory[0].error).toMatch(/secret/);
    expect(body.memory[1]).toMatchObject({ type: "note", status: "created" });
    expect(body.memory[2]).toMatchObject({ id: "", type: "gossip", status: "failed", error_code: "invalid_memory_type" });
    expect(body.policies[0]).toMatchObject({ name: "moon", status: "failed", confirmed: false, error_code: "policy_creation_failed", suggestion: expect.stringContaining("Block refunds over $500") });
    expect(body.policies[0].error).toMatch(/expected an effect/);
    expect(body.policies[1]).toMatchObject({ name: "big payments", status: "created", policy_status: "pending_confirmation" });
    expect(body.policies[2]).toMatchObject({ name: "", status: "failed", error_code: "policy_missing_name" });
    expect(body).toMatchObject({ applied: 3, failed: 6, dry_run: false });
    expect(body.notice).toMatch(/need a choice/);

    // Nothing of a failed item exists, not even an audit entry; the good items were written whole.
    expect(await counts(ws)).toMatchObject({ credentials: 1, connections: 0, memory: 1, policies: 1, policy_versions: 1 });
    expect(await query(server(), sql`select id from memory_items where workspace_id = ${ws.id} and body like '%sk_live%'`)).toEqual([]);
    expect(await query(server(), sql`select id from policies where workspace_id = ${ws.id} and name = 'moon'`)).toEqual([]);
    expect((await auditActions(ws)).filter((a) => !a.startsWith("api_key"))).toEqual(["credential.create", "memory.create", "policy.create"]);

    // The checklist lists what could not be resolved.
    const register = body.checklist.connections_to_register;
    expect(register).toContainEqual(expect.objectContaining({ capability: "teleport the cat", status: "unknown", action: "import_tools", required: true }));
    expect(register).toContainEqual(expect.objectContaining({ capability: "send message", status: "not_installed", action: "install", integrations: expect.arrayContaining(["slack", "microsoft_teams"]) }));
  });

  it("dry_run checks everything with the real parsers and writes nothing", async () => {
    const ws = await newWorkspace(server());
    await activePolicy(ws, "taken", "Block refunds");
    const before = await counts(ws);
    const reply = await setup(ws, {
      dry_run: true,
      confirm: true,
      credentials: [{ provider: "stripe", name: "prod", key_data: { api_key: "stripe-key-0003" } }, { provider: "", key_data: { x: 1 } }],
      connections: [{ capability: "refund payment" }, { capability: "create issue" }, { capability: "github" }],
      memory: [{ type: "project", content: { text: "Project Falcon ships in May." } }, { type: "note", content: { text: "password: hunter2hunter2" } }],
      policies: [
        { name: "refund limit", rule: "Block refunds over $500" },
        { name: "taken", rule: "Block payouts" },
        { name: "moon", rule: "Block refunds whenever the" },
        { name: "refund limit", rule: "Block payouts" },
      ],
    });
    expect(reply.status, reply.text).toBe(200);
    const body = reply.body;
    expect(body.credentials).toEqual([
      { provider: "stripe", name: "prod", type: "api_key", status: "would_create" },
      expect.objectContaining({ provider: "", status: "failed", error_code: "credential_creation_failed" }),
    ]);
    // Stripe would be installed and authorised by the credential this request brings.
    expect(body.connections[0]).toMatchObject({ capability: "refund payment", status: "connected", detail: { would_install: "stripe" } });
    expect(body.connections[1]).toMatchObject({ capability: "create issue", status: "manual" });
    expect(body.connections[2]).toMatchObject({ capability: "github", status: "schema_required", detail: { would_install: "github", auth_url: "/api/v1/svc/credentials" } });
    expect(body.memory).toEqual([
      { id: "", type: "project", kind: "project", classified: false, domain: "general", status: "would_create" },
      expect.objectContaining({ id: "", status: "failed", error_code: "memory_contains_secret" }),
    ]);
    expect(body.policies[0]).toMatchObject({ name: "refund limit", status: "would_create", confirmed: false, restatement: expect.stringContaining("500") });
    expect(body.policies[0].id).toBeUndefined();
    expect(body.policies[1]).toMatchObject({ name: "taken", status: "failed", error_code: "policy_creation_failed", error: expect.stringContaining("already exists") });
    expect(body.policies[2]).toMatchObject({ name: "moon", status: "failed", error_code: "policy_creation_failed" });
    expect(body.policies[3]).toMatchObject({ name: "refund limit", status: "failed", error: expect.stringContaining("already exists") });
    expect(body).toMatchObject({ applied: 0, would_apply: 5, failed: 5, dry_run: true });
    expect(body.notice).toMatch(/Dry run: nothing was written/);
    expect(body.notice).toMatch(/confirm: true would also confirm/);
    // The checklist is the workspace as it is: nothing was installed.
    expect(body.checklist.summary.connections.total).toBe(0);
    expect(body.checklist.memory_to_upload.map((m: { type: string }) => m.type)).toEqual(["reference", "preference", "precedent"]);

    expect(await counts(ws)).toEqual(before);
  });

  it("400 missing_fields when none of the four lists has an item", async () => {
    const ws = await newWorkspace(server());
    for (const body of [{}, { connections: [], credentials: [], memory: [], policies: [] }, { purpose: "x", examples: ["y"], confirm: true }, { memory: null }]) {
      expectError(await setup(ws, body), 400, "missing_fields");
    }
    expectError(await call(server(), "POST", SETUP, { key: ws.key, rawBody: "", headers: { "content-type": "application/json" } }), 400, "missing_fields");
    // A list of the wrong shape is a malformed request.
    expectError(await setup(ws, { memory: "note" }), 400, "invalid_request");
    expect(await counts(ws)).toMatchObject({ credentials: 0, connections: 0, memory: 0, policies: 0 });
  });

  it("the checklist follows the workspace's state: credentials authorise, confirmations clear, memory stops being suggested", async () => {
    const ws = await newWorkspace(server());
    const installed = await call(server(), "POST", "/api/v1/svc/connections/install", { key: ws.key, body: { integration_id: "pagerduty" } });
    expect(installed.status).toBe(201);

    const first = await setup(ws, { policies: [{ name: "deploy window", rule: "Only allow deployments on weekdays between 09:00 and 17:00" }] });
    expect(first.status, first.text).toBe(200);
    const pendingId = first.body.policies[0].id;
    let checklist = first.body.checklist;
    expect(checklist.connections_to_register).toEqual([expect.objectContaining({ integration_id: "pagerduty", status: "pending_auth", provider: "pagerduty" })]);
    expect(checklist.policies_to_confirm.map((p: { id: string }) => p.id)).toEqual([pendingId]);
    expect(checklist.memory_to_upload.length).toBe(3);
    expect(checklist.complete).toBe(false);

    // confirm: true confirms what it creates; the earlier pending one stays listed.
    const second = await setup(ws, { confirm: true, policies: [{ name: "no deletes", rule: "Never delete anything in production" }], memory: [{ type: "precedent", content: { text: "Refunds for damaged goods are always approved." } }] });
    expect(second.body.policies[0]).toMatchObject({ status: "created", confirmed: true, policy_status: "active", version: 1 });
    checklist = second.body.checklist;
    expect(checklist.policies_to_confirm.map((p: { id: string }) => p.id)).toEqual([pendingId]);
    expect(checklist.memory_to_upload).toEqual([]);
    expect(checklist.summary.policies).toEqual({ active: 1, pending_confirmation: 1, disabled: 0 });
    const [row] = await query(server(), sql`select status, active_version from policies where id = ${second.body.policies[0].id}`);
    expect(row).toMatchObject({ status: "active", active_version: 1 });

    // Confirmed elsewhere, and the missing credential given: the checklist is complete.
    expect((await call(server(), "POST", first.body.policies[0].approve_url, { key: ws.key })).status).toBe(200);
    const third = await setup(ws, { credentials: [{ provider: "pagerduty", name: "on-call", key_data: { token: "pd-token-0004" } }] });
    checklist = third.body.checklist;
    expect(checklist.connections_to_register).toEqual([]);
    expect(checklist.policies_to_confirm).toEqual([]);
    expect(checklist.complete).toBe(true);
    expect(checklist.summary.connections).toEqual({ total: 1, connected: 1, pending_auth: 0, degraded: 0 });
  });

  it("a retried setup with the same Idempotency-Key applies once", async () => {
    const ws = await newWorkspace(server());
    const body = { memory: [{ type: "note", content: { text: "Retried once." } }] };
    const headers = { "idempotency-key": "setup-retry-1" };
    const a = await call(server(), "POST", SETUP, { key: ws.key, body, headers });
    const b = await call(server(), "POST", SETUP, { key: ws.key, body, headers });
    expect(a.status).toBe(200);
    expect(b.text).toBe(a.text);
    expect((await counts(ws)).memory).toBe(1);
  });
});

describe("POST /assess", () => {
  it("ranks the workspace's tools for the task, reads the arguments it gives and recommends a policy for a money-moving tool", async () => {
    const ws = await paymentsWorkspace();
    const reply = await assess(ws, { task: "Refund order ORD-1001 for $40", domain: "support" });
    expect(reply.status, reply.text).toBe(200);
    const { assessment, ...top } = reply.body;
    expect(top).toEqual(assessment);
    expect(assessment).toMatchObject({
      task: "Refund order ORD-1001 for $40",
      domain: "support",
      assessment_quality: "complete",
      ready_for_deployment: true,
      gap_count: 0,
      blocking_gaps: 0,
      needs_clarification: [],
      governance_decision: { type: "auto", confidence: 1, tool: "refund_order" },
    });
    expect(assessment.capabilities[0]).toMatchObject({ name: "refund_order", human_name: "refund_order (payments)", source: "openapi", status: "ready", health: "healthy", functions: ["refund_order"] });
    expect(assessment.capabilities[0].score).toBe(1);
    expect(assessment.capabilities[0].matched_on).toEqual(expect.arrayContaining(["refund", "order"]));
    for (const c of assessment.capabilities.slice(1)) expect(c.score).toBeLessThan(1);
    expect(assessment.can_do).toBe(1);
    expect(assessment.ready_capabilities).toBe(assessment.capabilities.length);
    expect(assessment.total_capabilities).toBe(assessment.capabilities.length);
    expect(assessment.outcomes[0]).toEqual({ title: "Run refund_order", description: expect.stringContaining("Refund an order"), confidence: 1, ready: true });

    const [recommended] = assessment.policies_recommended;
    expect(recommended).toMatchObject({ tool: "refund_order", policy: "Require approval for refund_order over $1,000", action: "require_approval", blocking: false, endpoint: "/api/v1/svc/policies" });
    // The recommendation is a sentence the policy language accepts; once active, nothing more is recommended.
    await activePolicy(ws, recommended.name, recommended.policy);
    const again = await assess(ws, { task: "Refund order ORD-1001 for $40" });
    expect(again.body.policies_recommended).toEqual([]);
    expect(again.body.governance_decision.type).toBe("auto");
    const large = await assess(ws, { task: "Refund order ORD-1001 for $4,000" });
    expect(large.body.governance_decision).toMatchObject({ type: "escalate", tool: "refund_order", policy_name: recommended.name });
    expect(large.body.gaps).toContainEqual(expect.objectContaining({ capability: "refund_order", reason: "requires_approval", blocking: false }));
  });

  it("asks for the required parameters the task does not give, and recommends approval for a deleting tool", async () => {
    const ws = await paymentsWorkspace();
    const vague = await assess(ws, { task: "Refund the order please" });
    expect(vague.body.capabilities[0].name).toBe("refund_order");
    expect(vague.body.needs_clarification).toEqual(["order_id", "amount"]);
    expect(vague.body.clarification_questions).toEqual([
      { field: "order_id", question: expect.stringContaining("refund_order") },
      { field: "amount", question: expect.stringContaining("refund_order") },
    ]);
    expect(vague.body.assessment_quality).toBe("partial");
    expect(vague.body.outcomes[0]).toMatchObject({ ready: false, blocked_by: "missing order_id, amount" });

    const deletion = await assess(ws, { task: "Delete customer CUS-77" });
    expect(deletion.body.capabilities[0].name).toBe("delete_customer");
    expect(deletion.body.policies_recommended).toEqual([expect.objectContaining({ tool: "delete_customer", policy: "Require approval for delete_customer" })]);
  });

  it("reports a gap for an integration the task names but the workspace lacks, and follows its installation", async () => {
    const ws = await paymentsWorkspace();
    const reply = await assess(ws, { task: "Refund order ORD-1001 for $40 and post it to Slack" });
    expect(reply.status, reply.text).toBe(200);
    const body = reply.body;
    expect(body.capabilities[0].name).toBe("refund_order");
    expect(body.capabilities).toContainEqual(expect.objectContaining({ name: "slack", human_name: "Slack", source: "builtin", status: "available", health: "unknown", score: 1 }));
    expect(body.gaps).toEqual([expect.objectContaining({ capability: "slack", reason: "not_connected", blocking: true, severity: "blocking" })]);
    expect(body.gap_filling_tasks).toEqual([expect.objectContaining({ capability: "slack", action: "install", endpoint: "/api/v1/svc/connections/install" })]);
    expect(body).toMatchObject({ gap_count: 1, blocking_gaps: 1, ready_for_deployment: false, can_do: 0.5, ready_capabilities: body.total_capabilities - 1 });
    expect(body.outcomes).toContainEqual(expect.objectContaining({ title: "Use Slack", ready: false }));

    await call(server(), "POST", "/api/v1/svc/connections/install", { key: ws.key, body: { integration_id: "slack" } });
    const installed = await assess(ws, { task: "Refund order ORD-1001 for $40 and post it to Slack" });
    expect(installed.body.gaps).toEqual([expect.objectContaining({ capability: "slack", reason: "pending_auth" })]);
    expect(installed.body.capabilities).toContainEqual(expect.objectContaining({ name: "slack", status: "pending_auth", health: "latent" }));

    // Nothing at all in the workspace fits, and no integration is named: the catalog says who could.
    const ticket = await assess(ws, { task: "create a ticket for the broken printer" });
    expect(ticket.body.capabilities.map((c: { name: string }) => c.name)).toEqual(expect.arrayContaining(["jira", "zendesk"]));
    expect(ticket.body.can_do).toBe(0);
    expect(ticket.body.governance_decision).toBeUndefined();
  });

  it("governance outlook: abstain when an active policy would block the best tool", async () => {
    const ws = await paymentsWorkspace();
    const policyId = await activePolicy(ws, "no refunds", "Block refund_order");
    const reply = await assess(ws, { task: "Refund order ORD-1001 for $40" });
    expect(reply.body.governance_decision).toMatchObject({ type: "abstain", confidence: 1, tool: "refund_order", policy_id: policyId, policy_name: "no refunds" });
    expect(reply.body.governance_decision.reason).toContain("no refunds");
    expect(reply.body).toMatchObject({ can_do: 0, ready_for_deployment: false });
    expect(reply.body.gaps).toContainEqual(expect.objectContaining({ capability: "refund_order", reason: "blocked_by_policy", blocking: true }));
    expect(reply.body.outcomes[0]).toMatchObject({ ready: false, blocked_by: "policy no refunds" });
    // A policy concerns the tool already: nothing to recommend.
    expect(reply.body.policies_recommended).toEqual([]);
    // The outlook opened no escalation and recorded nothing.
    expect(await query(server(), sql`select id from escalations where workspace_id = ${ws.id}`)).toEqual([]);
  });

  it("400 assessment_missing_task", async () => {
    const ws = await newWorkspace(server());
    for (const body of [{}, { task: "" }, { task: "   " }, { task: 42 }, { domain: "finance" }]) expectError(await assess(ws, body), 400, "assessment_missing_task");
    expectError(await call(server(), "POST", ASSESS, { key: ws.key, rawBody: "", headers: { "content-type": "application/json" } }), 400, "assessment_missing_task");
    // An empty workspace: nothing to run; the catalog integration that could do it is the only match.
    const empty = await assess(ws, { task: "Refund order ORD-1 for $40" });
    expect(empty.body).toMatchObject({ assessment_quality: "insufficient_data", can_do: 0, ready_for_deployment: false, ready_capabilities: 0 });
    expect(empty.body.capabilities).toEqual([expect.objectContaining({ name: "shopify", source: "builtin", status: "available", matched_on: ["refund", "order"], score: 0.8 })]);
    expect(empty.body.gaps).toEqual([expect.objectContaining({ capability: "shopify", reason: "not_connected", blocking: true })]);
  });
});

describe("setup and assessment are per workspace", () => {
  it("another workspace sees nothing of the first", async () => {
    const a = await paymentsWorkspace();
    const applied = await setup(a, {
      credentials: [{ provider: "stripe", key_data: { api_key: "stripe-key-0005" } }],
      connections: [{ capability: "slack" }],
      policies: [{ name: "a-only policy", rule: "Block refund_order" }],
      memory: [{ type: "reference", content: { text: "A's secretless fact." } }],
    });
    expect(applied.body.applied).toBe(4);

    const b = await newWorkspace(server());
    const bAssess = await assess(b, { task: "Refund order ORD-1001 for $40" });
    expect(bAssess.body.capabilities.filter((c: { source: string }) => c.source !== "builtin")).toEqual([]);
    expect(bAssess.body.governance_decision).toBeUndefined();
    expect(bAssess.text).not.toContain("refund_order");
    const bSetup = await setup(b, { memory: [{ type: "note", content: { text: "B's note." } }] });
    expect(bSetup.body.checklist.connections_to_register).toEqual([]);
    expect(bSetup.body.checklist.policies_to_confirm).toEqual([]);
    expect(bSetup.body.checklist.summary).toMatchObject({ connections: { total: 0 }, credentials: 0, memory_items: 1, tools: 0 });
    for (const text of [bAssess.text, bSetup.text]) {
      expect(text).not.toContain(a.id);
      expect(text).not.toContain("a-only policy");
      expect(text).not.toContain(applied.body.policies[0].id);
    }
    // And A's state is untouched by B.
    expect(await counts(a)).toMatchObject({ credentials: 1, connections: 2, memory: 1, policies: 1 });
  });
});
