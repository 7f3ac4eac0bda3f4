// Learning, healing and promote over real HTTP, from real history made through the API: intent requests on a
// workspace with an OpenAPI connection to a local HTTPS shop, executions run against it, policies that block.
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { call, expectError, invokeTool, newWorkspace, query, startServer, type TestServer, type TestWorkspace } from "./helpers/server.ts";
import { SHOP_API_KEY, useShopApi } from "./helpers/shop-api.ts";
import { makeCertificate } from "./helpers/tls.ts";

const tls = makeCertificate();
const shop = useShopApi(tls);
let server: TestServer;
beforeAll(async () => {
  server = await startServer({ SVC_OUTBOUND_ALLOW_HOSTS: "127.0.0.1", SVC_OUTBOUND_CA_FILE: tls.certFile, SVC_EXECUTION_RETRY_BASE_MS: "10" });
});
afterAll(async () => {
  await server?.close();
});

async function shopWorkspace(options: { rule?: string; memory?: string[]; apiKey?: string } = {}): Promise<TestWorkspace> {
  const ws = await newWorkspace(server);
  const credential = await call(server, "POST", "/api/v1/svc/credentials", { key: ws.key, body: { provider: "shop", name: "shop", key_data: { api_key: options.apiKey ?? SHOP_API_KEY } } });
  const imported = await call(server, "POST", "/api/v1/svc/connections/openapi", { key: ws.key, body: { name: "shop", spec_url: `${shop().url}/openapi.json`, credential_id: credential.body.id } });
  expect(imported.status, imported.text).toBe(201);
  if (options.rule) {
    const created = await call(server, "POST", "/api/v1/svc/policies", { key: ws.key, body: { name: "rule", rule: options.rule } });
    expect(created.status, created.text).toBe(201);
    await call(server, "POST", `/api/v1/svc/policies/${created.body.id}/confirm`, { key: ws.key, body: { version: 1 } });
  }
  for (const text of options.memory ?? []) expect((await call(server, "POST", "/api/v1/svc/memory", { key: ws.key, body: { type: "reference", content: { text } } })).status).toBe(201);
  return ws;
}

const ask = (ws: TestWorkspace, content: string) => call(server, "POST", "/api/v1/svc/intent", { key: ws.key, body: { messages: [{ role: "user", content }] } });
const get = (ws: TestWorkspace, path: string) => call(server, "GET", `/api/v1/svc${path}`, { key: ws.key });
const diagnose = (ws: TestWorkspace, body: unknown) => call(server, "POST", "/api/v1/svc/healing/diagnose", { key: ws.key, body });

async function settled(ws: TestWorkspace, id: string): Promise<Record<string, any>> {
  for (let i = 0; i < 200; i++) {
    const reply = await get(ws, `/executions/${id}`);
    if (!["running", "ready"].includes(reply.body.status)) return reply.body;
    await new Promise((r) => setTimeout(r, 25));
  }
  throw new Error(`execution ${id} did not settle`);
}

/** Asks, confirms the planned execution, waits for its end: the intent's answer and the execution. */
async function run(ws: TestWorkspace, content: string): Promise<{ reply: Record<string, any>; execution: Record<string, any> }> {
  const reply = await ask(ws, content);
  expect(reply.body, reply.text).toMatchObject({ type: "execution" });
  const confirmed = await call(server, "POST", reply.body.next_action.endpoint, { key: ws.key });
  expect(confirmed.status, confirmed.text).toBe(200);
  return { reply: reply.body, execution: await settled(ws, reply.body.execution.id) };
}

const UNKNOWN = [
  "What interchange fee does our card processor charge on Amex transactions?",
  "what interchange fee does the card processor charge on amex transactions",
  "What's the interchange fee our card processor charges on Amex transactions??",
];

describe("learning suggestions", () => {
  it("a question memory cannot answer: twice is nothing, three times is knowledge to add, with its evidence", async () => {
    const ws = await shopWorkspace({ memory: ["Refund policy: customers can get a full refund within 30 days of delivery."] });
    const traces: string[] = [];
    for (const question of UNKNOWN.slice(0, 2)) {
      const reply = await ask(ws, question);
      expect(reply.body, reply.text).toMatchObject({ type: "direct" });
      expect(reply.body.intelligence.humility.gaps_detected).toBeGreaterThanOrEqual(1);
      traces.push(reply.body.trace_id);
    }
    // An answered question never counts.
    for (let i = 0; i < 3; i++) await ask(ws, "How long do customers have for a full refund?");
    let listed = await get(ws, "/learning/suggestions");
    expect(listed.status, listed.text).toBe(200);
    expect(listed.body.suggestions.filter((s: any) => s.type === "add_knowledge")).toEqual([]);

    traces.push((await ask(ws, UNKNOWN[2]!)).body.trace_id);
    listed = await get(ws, "/learning/suggestions");
    const knowledge = listed.body.suggestions.filter((s: any) => s.type === "add_knowledge");
    expect(knowledge).toHaveLength(1);
    expect(knowledge[0]).toMatchObject({
      type: "add_knowledge",
      impact: "low",
      target: { question: UNKNOWN[2] },
      next_action: { type: "add_memory", endpoint: "/api/v1/svc/memory" },
      evidence: { count: 3 },
    });
    expect(knowledge[0].description).toContain(UNKNOWN[2]);
    expect(knowledge[0].id).toMatch(/^sug_[0-9A-Za-z]{22}$/);
    expect([...knowledge[0].evidence.example_trace_ids].sort()).toEqual([...traces].sort());
    expect(knowledge[0].target.variants).toHaveLength(3);
    // Deterministic: the same history, the same answer (ids included).
    expect((await get(ws, "/learning/suggestions")).body).toEqual(listed.body);
    expect(listed.body).toMatchObject({ count: listed.body.suggestions.length, window_days: 30, pagination: { limit: 50, offset: 0, has_more: false } });
  });

  it("chat turns count with intent requests (a chat record is written behind its answer, read all the same)", async () => {
    const ws = await shopWorkspace({ memory: ["Refund policy: customers can get a full refund within 30 days of delivery."] });
    const question = "Which courier handles our overnight shipments to Iceland?";
    for (let i = 0; i < 2; i++) expect((await ask(ws, question)).body.type).toBe("direct");
    const chat = await call(server, "POST", "/api/v1/svc/chat/completions", { key: ws.key, body: { messages: [{ role: "user", content: question }] } });
    expect(chat.status, chat.text).toBe(200);
    expect(chat.body.intelligence.humility.gaps.map((g: any) => g.kind)).toContain("no_knowledge");
    const knowledge = (await get(ws, "/learning/suggestions")).body.suggestions.filter((s: any) => s.type === "add_knowledge");
    expect(knowledge).toHaveLength(1);
    expect(knowledge[0].evidence.count).toBe(3);
    expect(knowledge[0].evidence.example_trace_ids).toContain(chat.body.trace_id);
  });

  it("an integration asked for while missing: three times is an install suggestion, gone once installed", async () => {
    const ws = await shopWorkspace();
    for (let i = 0; i < 2; i++) expect((await ask(ws, "Can you ping the team on Slack?")).body.type).toBe("connect_required");
    expect((await get(ws, "/learning/suggestions")).body.suggestions.filter((s: any) => s.type === "install_integration")).toEqual([]);
    const third = await ask(ws, "Post a note to the team on Slack please");
    expect(third.body.type).toBe("connect_required");
    const install = (await get(ws, "/learning/suggestions")).body.suggestions.filter((s: any) => s.type === "install_integration");
    expect(install).toHaveLength(1);
    expect(install[0]).toMatchObject({ target: { integration_id: "slack", name: "Slack" }, next_action: { type: "connect_tool" }, evidence: { count: 3 } });
    expect(install[0].evidence.example_trace_ids).toContain(third.body.trace_id);
    const installed = await call(server, "POST", "/api/v1/svc/connections/install", { key: ws.key, body: { integration_id: "slack" } });
    expect(installed.status, installed.text).toBeLessThan(300);
    expect((await get(ws, "/learning/suggestions")).body.suggestions.filter((s: any) => s.type === "install_integration")).toEqual([]);
  });

  it("a policy that blocks three times is suggested for review", async () => {
    const ws = await shopWorkspace({ rule: "Block refunds over $500" });
    for (let i = 0; i < 2; i++) expect((await ask(ws, `Refund order B-${i} for $900`)).body.type).toBe("blocked");
    expect((await get(ws, "/learning/suggestions")).body.suggestions.filter((s: any) => s.type === "review_policy")).toEqual([]);
    const third = await ask(ws, "Refund order B-9 for $700");
    expect(third.body.type).toBe("blocked");
    const review = (await get(ws, "/learning/suggestions")).body.suggestions.filter((s: any) => s.type === "review_policy");
    expect(review).toHaveLength(1);
    expect(review[0]).toMatchObject({ target: { policy_id: third.body.policy_id, name: "rule" }, evidence: { count: 3 } });
    expect(review[0].next_action.endpoint).toBe(`/api/v1/svc/policies/${third.body.policy_id}`);
  });
});

describe("learning patterns and episodes", () => {
  it("the same tool and arguments three times is a pattern; finished executions are episodes", async () => {
    const ws = await shopWorkspace();
    const runs = [];
    for (let i = 0; i < 2; i++) runs.push(await run(ws, "Refund order A-77 for $12.50"));
    let patterns = (await get(ws, "/learning/patterns")).body.patterns;
    expect(patterns.filter((p: any) => p.type === "tool_arguments")).toEqual([]);
    runs.push(await run(ws, "Refund order A-77 for $12.50"));
    const listed = await get(ws, "/learning/patterns");
    expect(listed.status, listed.text).toBe(200);
    patterns = listed.body.patterns;
    const exact = patterns.filter((p: any) => p.type === "tool_arguments");
    expect(exact).toHaveLength(1);
    expect(exact[0]).toMatchObject({
      tool_name: "refund_order",
      arguments: { order_id: "A-77", amount: 12.5 },
      occurrences: 3,
      confidence: 1,
      evidence: { count: 3, succeeded: 3, failed: 0 },
    });
    expect([...exact[0].evidence.example_trace_ids].sort()).toEqual(runs.map((r) => r.reply.trace_id).sort());
    // Every call of the tool, from the audit log.
    expect(patterns.find((p: any) => p.type === "tool_usage")).toMatchObject({ tool_name: "refund_order", argument_names: ["amount", "order_id"], occurrences: 3 });

    const episodes = await get(ws, "/learning/episodes?limit=2");
    expect(episodes.status, episodes.text).toBe(200);
    expect(episodes.body).toMatchObject({ count: 2, total: 3, pagination: { limit: 2, offset: 0, has_more: true } });
    expect(episodes.body.episodes[0]).toMatchObject({ id: runs[2]!.execution.id, outcome: "success", status: "completed", trace_id: runs[2]!.reply.trace_id, tool_names: ["refund_order"] });
    expect(episodes.body.episodes[0].description).toContain("refund_order");
    expect((await get(ws, "/learning/episodes?offset=2")).body.episodes.map((e: any) => e.id)).toEqual([runs[0]!.execution.id]);
  });

  it("a bad query parameter is invalid_request; another workspace sees none of it", async () => {
    const ws = await shopWorkspace();
    expectError(await get(ws, "/learning/patterns?limit=0"), 400, "invalid_request");
    expectError(await get(ws, "/learning/suggestions?days=365"), 400, "invalid_request");
    const other = await newWorkspace(server);
    for (const name of ["patterns", "episodes", "suggestions"]) {
      const reply = await get(other, `/learning/${name}`);
      expect(reply.status).toBe(200);
      expect(reply.body).toMatchObject({ [name]: [], count: 0, total: 0 });
    }
  });
});

describe("healing", () => {
  it("diagnoses typical errors as the runner classifies them", async () => {
    const ws = await newWorkspace(server);
    const cases: [Record<string, unknown>, Record<string, unknown>][] = [
      [{ error_message: "The call timed out after 30000 ms", tool_name: "get_order" }, { error_category: "timeout", can_retry: true, needs_human: false, recovery_strategy: "retry", tool_name: "get_order" }],
      [{ error_message: "HTTP 429 Too Many Requests; retry after 2 s" }, { error_category: "rate_limit", can_retry: true, retry_delay_ms: 2000, recovery_strategy: "retry" }],
      [{ error_message: "HTTP 401 Unauthorized" }, { error_category: "auth", can_retry: false, needs_human: true, recovery_strategy: "reconfigure" }],
      [{ error_message: "upstream answered HTTP 503" }, { error_category: "external", can_retry: true, recovery_strategy: "retry", status_code: 503 }],
      [{ error_message: "The arguments of refund_order are not valid: amount must be number." }, { error_category: "validation", can_retry: false, needs_re_decide: true, recovery_strategy: "repair" }],
      [{ error: "connect ECONNREFUSED 10.0.0.1:443" }, { error_category: "network", can_retry: true }],
      [{ error_message: "something odd happened", error_category: "rate_limit" }, { error_category: "rate_limit" }],
    ];
    for (const [body, expected] of cases) {
      const reply = await diagnose(ws, body);
      expect(reply.status, reply.text).toBe(200);
      expect(reply.body, JSON.stringify(body)).toMatchObject({ ...expected, precedents: { matched: 0, successful: 0 } });
      expect(Number.isInteger(reply.body.retry_delay_ms)).toBe(true);
      expect(reply.body.confidence).toBeGreaterThan(0);
    }
    expectError(await diagnose(ws, { tool_name: "get_order" }), 500, "diagnosis_failed");
    expectError(await diagnose(ws, { error_message: "   " }), 500, "diagnosis_failed");
    expectError(await call(server, "POST", "/api/v1/svc/healing/diagnose", { key: ws.key }), 500, "diagnosis_failed");
  });

  it("the runner's own failure diagnosed again from its message gives the runner's diagnosis", async () => {
    const ws = await shopWorkspace();
    shop().broken = true;
    const { execution } = await run(ws, "Check the shop status");
    expect(execution.status).toBe("failed");
    const reply = await diagnose(ws, { error_message: execution.error, tool_name: "shop_status" });
    expect(reply.status, reply.text).toBe(200);
    const runner = execution.diagnosis;
    for (const field of ["error_category", "semantic_reason", "can_retry", "needs_human"]) expect(reply.body[field], field).toEqual(runner[field]);
    expect(reply.body.diagnosed_strategy).toBe(runner.recovery_strategy);
    // The failure is a precedent, not recovered yet.
    const precedents = (await get(ws, "/healing/precedents?tool_name=shop_status")).body.precedents;
    expect(precedents).toHaveLength(1);
    expect(precedents[0]).toMatchObject({ success: false, error_category: "external", source: "execution", execution_id: execution.id, what_worked: null });
  });

  it("a step that failed then succeeded on retry is a precedent that raises the confidence of a diagnosis", async () => {
    const ws = await shopWorkspace();
    const before = await diagnose(ws, { error_message: "HTTP 503", tool_name: "shop_status" });
    shop().broken = false;
    shop().failuresLeft = 1;
    const { execution } = await run(ws, "Check the shop status");
    expect(execution.status, JSON.stringify(execution)).toBe("completed");
    expect(execution.steps[0].attempts).toBe(2);
    const listed = await get(ws, "/healing/precedents?tool_name=shop_status&error_category=external");
    expect(listed.status, listed.text).toBe(200);
    expect(listed.body).toMatchObject({ count: 1, total: 1 });
    expect(listed.body.precedents[0]).toMatchObject({
      success: true,
      attempts: 2,
      error_category: "external",
      error_type: "upstream_error",
      recovery_strategy: "retry",
      execution_id: execution.id,
      recovered_by: execution.id,
      source: "execution",
    });
    expect(listed.body.precedents[0].what_failed).toContain("HTTP 503");
    expect(listed.body.precedents[0].what_worked).toContain("attempt 2");
    const after = await diagnose(ws, { error_message: "HTTP 503", tool_name: "shop_status" });
    expect(after.body.precedents).toMatchObject({ matched: 1, successful: 1, same_tool: true, strategy: "retry", example_ids: [listed.body.precedents[0].id] });
    expect(after.body.confidence).toBeGreaterThan(before.body.confidence);
    expect(after.body.recovery_strategy).toBe("retry");
    expect((await get(ws, "/healing/precedents?error_category=auth")).body.precedents).toEqual([]);
    expect((await get(ws, "/healing/precedents?success=false")).body.precedents).toEqual([]);
  });

  it("a failure recovered by a later successful run of its tool; stats count both", async () => {
    const ws = await shopWorkspace();
    shop().broken = true;
    const failed = await run(ws, "Check the shop status");
    expect(failed.execution.status).toBe("failed");
    shop().broken = false;
    // The failures made the connection degraded; one good direct call makes it healthy (and is no execution).
    expect((await invokeTool(server, ws.key, "shop_status", {})).status).toBe(200);
    const ok = await run(ws, "Check the shop status");
    expect(ok.execution.status).toBe("completed");
    const precedents = (await get(ws, "/healing/precedents")).body.precedents;
    expect(precedents).toHaveLength(1);
    expect(precedents[0]).toMatchObject({ success: true, execution_id: failed.execution.id, recovered_by: ok.execution.id, recovery_strategy: "human_handoff" });
    expect(precedents[0].what_worked).toContain(ok.execution.id);
    const stats = await get(ws, "/healing/stats");
    expect(stats.status, stats.text).toBe(200);
    expect(stats.body).toMatchObject({
      total_precedents: 1,
      successful_recoveries: 1,
      failed_recoveries: 0,
      success_rate: 1,
      common_strategies: [{ strategy: "human_handoff", count: 1 }],
      top_tools: [{ tool_name: "shop_status", total: 1, successful: 1, failed: 0, success_rate: 1, top_strategy: "human_handoff" }],
      by_category: { external: { diagnosed: 1, precedents: 1, recovered: 1 } },
    });
    expect(Number.isInteger(stats.body.avg_duration_ms)).toBe(true);
    expect(stats.body.time_range.first_precedent).toBeTruthy();
    // Another workspace sees none of it.
    const other = await newWorkspace(server);
    expect((await get(other, "/healing/precedents")).body).toMatchObject({ precedents: [], count: 0 });
    expect((await get(other, "/healing/stats")).body).toMatchObject({ total_precedents: 0, success_rate: 0, by_category: {} });
    const matched = await diagnose(other, { error_message: "HTTP 503", tool_name: "shop_status" });
    expect(matched.body.precedents.matched).toBe(0);
  });
});

describe("promote", () => {
  const promote = (ws: TestWorkspace, id: string, body: unknown) => call(server, "POST", `/api/v1/svc/intelligence/${id}/promote`, { key: ws.key, body });

  it("memory: the question and its answer become a memory item, once", async () => {
    const ws = await shopWorkspace({ memory: ["Refund policy: customers can get a full refund within 30 days of delivery."] });
    const reply = await ask(ws, "How long do customers have for a full refund?");
    expect(reply.body.type).toBe("direct");
    const promoted = await promote(ws, reply.body.id, { kind: "memory" });
    expect(promoted.status, promoted.text).toBe(201);
    expect(promoted.body).toMatchObject({ kind: "memory", status: "promoted", source_trace_id: reply.body.trace_id, intent_id: reply.body.id, target: { type: "memory" } });
    const item = await get(ws, `/memory/${promoted.body.id}`);
    expect(item.status).toBe(200);
    expect(item.body).toMatchObject({ type: "reference", tags: expect.arrayContaining(["promoted"]), content: { question: "How long do customers have for a full refund?", source_trace_id: reply.body.trace_id } });
    expect(item.body.content.text).toContain(reply.body.message.content);
    // Again (by trace id): the first promotion, no second item.
    const again = await promote(ws, reply.body.trace_id, { kind: "memory" });
    expect(again.status).toBe(200);
    expect(again.body).toMatchObject({ id: promoted.body.id, status: "already_promoted" });
  });

  it("procedure: an execution's tool and argument template; memory of an action is an episode", async () => {
    const ws = await shopWorkspace();
    const { reply } = await run(ws, "Refund order A-80 for $3");
    const promoted = await promote(ws, reply.id, { kind: "procedure", name: "small refund" });
    expect(promoted.status, promoted.text).toBe(201);
    expect(promoted.body).toMatchObject({ kind: "procedure", status: "promoted", tool_name: "refund_order", tool_sequence: ["refund_order"] });
    const item = (await get(ws, `/memory/${promoted.body.id}`)).body;
    expect(item).toMatchObject({
      type: "precedent",
      tags: expect.arrayContaining(["procedure", "refund_order"]),
      content: {
        procedure: {
          name: "small refund",
          tool_sequence: ["refund_order"],
          steps: [{ tool: "refund_order", arguments_template: { order_id: "{{order_id}}", amount: "{{amount}}" }, example_arguments: { order_id: "A-80", amount: 3 } }],
        },
      },
    });
    const memory = await promote(ws, reply.id, { kind: "memory" });
    expect(memory.status).toBe(201);
    const episode = (await get(ws, `/memory/${memory.body.id}`)).body;
    expect(episode.type).toBe("episode");
    expect(episode.content.text).toContain("refund_order");
    expect(episode.content.outcome).toContain("completed");
  });

  it("healing: a precedent from the record's failed execution", async () => {
    const ws = await shopWorkspace();
    shop().broken = true;
    const { reply, execution } = await run(ws, "Check the shop status");
    expect(execution.status).toBe("failed");
    const promoted = await promote(ws, reply.id, { kind: "healing" });
    expect(promoted.status, promoted.text).toBe(201);
    expect(promoted.body).toMatchObject({ kind: "healing", status: "promoted", tool_name: "shop_status", target: { type: "precedent" } });
    // The runner recorded the failure when the execution ended: that precedent, not a second one.
    const precedents = (await get(ws, "/healing/precedents?tool_name=shop_status")).body.precedents;
    expect(precedents).toHaveLength(1);
    expect(precedents[0]).toMatchObject({ id: promoted.body.id, source: "execution", success: false, error_category: "external", execution_id: execution.id });
    expect((await promote(ws, reply.id, { kind: "healing" })).body).toMatchObject({ id: promoted.body.id, status: "already_promoted" });
  });

  it("healing: an execution without a recorded precedent (older than precedents) gets one made from it", async () => {
    const ws = await shopWorkspace();
    shop().broken = true;
    const { reply, execution } = await run(ws, "Check the shop status");
    await query(server, sql`delete from healing_precedents where workspace_id = ${ws.id}`);
    const promoted = await promote(ws, reply.id, { kind: "healing" });
    expect(promoted.status, promoted.text).toBe(201);
    const precedents = (await get(ws, "/healing/precedents")).body.precedents;
    expect(precedents).toHaveLength(1);
    expect(precedents[0]).toMatchObject({ id: promoted.body.id, source: "promoted", success: false, error_category: "external", trace_id: reply.trace_id, execution_id: execution.id, tool_name: "shop_status" });
    expect(precedents[0].what_failed).toContain("HTTP 503");
  });

  it("errors: unknown record 404, bad kind 400, nothing to heal or no procedure 400, another workspace's record 404", async () => {
    const ws = await shopWorkspace({ memory: ["Refund policy: customers can get a full refund within 30 days of delivery."] });
    const reply = await ask(ws, "How long do customers have for a full refund?");
    expectError(await promote(ws, "int_doesnotexist", { kind: "memory" }), 404, "intelligence_not_found");
    expectError(await promote(ws, reply.body.id, { kind: "wisdom" }), 400, "invalid_request");
    expectError(await promote(ws, reply.body.id, {}), 400, "invalid_request");
    expectError(await promote(ws, reply.body.id, { kind: "healing" }), 400, "invalid_request");
    expectError(await promote(ws, reply.body.id, { kind: "procedure" }), 400, "invalid_request");
    const other = await newWorkspace(server);
    expectError(await promote(other, reply.body.id, { kind: "memory" }), 404, "intelligence_not_found");
  });
});
