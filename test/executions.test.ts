// Executions over real HTTP: steps run against the real local HTTPS OpenAPI service (the shop), a tiny HTTPS
// service that fails on purpose (503s, 429 with Retry-After, 500s, 401, slow answers), and a real MCP
// server. Executions are created through the service (the intent endpoint that will create them is built
// separately); everything else goes through the routes.
import { createServer, type Server } from "node:https";
import type { AddressInfo } from "node:net";
import { sql } from "drizzle-orm";
import { createParser } from "eventsource-parser";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Actor } from "../src/events/audit.ts";
import type { ExecutionStepPlan } from "../src/modules/executions/service.ts";
import { MCP_TOKEN, useMcpServers } from "./helpers/mcp-servers.ts";
import { call, expectError, newWorkspace, onPostgres, query, startServer, type TestServer, type TestWorkspace } from "./helpers/server.ts";
import { SHOP_API_KEY, useShopApi } from "./helpers/shop-api.ts";
import { makeCertificate, type TestCertificate } from "./helpers/tls.ts";

const tls = makeCertificate();
const shop = useShopApi(tls);
const mcp = useMcpServers();

// ---- a tiny HTTPS service that misbehaves on request ----

const SECRET_PASSWORD = "hunter2-very-secret";

const FLAKY_SPEC = {
  openapi: "3.0.3",
  info: { title: "Flaky", version: "1.0" },
  servers: [{ url: "/api" }],
  paths: {
    "/flaky/{key}": {
      get: {
        operationId: "flaky_read",
        summary: "Answers 503 the first `fail` times for a key, then 200",
        parameters: [
          { name: "key", in: "path", required: true, schema: { type: "string" } },
          { name: "fail", in: "query", schema: { type: "integer" } },
        ],
      },
    },
    "/limited/{key}": {
      get: { operationId: "limited_read", summary: "Answers 429 with Retry-After: 1 once per key, then 200", parameters: [{ name: "key", in: "path", required: true, schema: { type: "string" } }] },
    },
    "/broken": { get: { operationId: "always_broken", summary: "Always answers 500" } },
    "/secure": { get: { operationId: "needs_auth", summary: "Always answers 401" } },
    "/slow/{key}": {
      get: {
        operationId: "slow_read",
        summary: "Answers after `ms` milliseconds",
        parameters: [
          { name: "key", in: "path", required: true, schema: { type: "string" } },
          { name: "ms", in: "query", schema: { type: "integer" } },
        ],
      },
    },
    "/sign-in": {
      post: {
        operationId: "sign_in",
        summary: "Checks a user's password",
        requestBody: {
          required: true,
          content: { "application/json": { schema: { type: "object", required: ["username", "password"], properties: { username: { type: "string" }, password: { type: "string" } } } } },
        },
      },
    },
  },
};

interface Flaky {
  url: string;
  requests: { method: string; path: string; at: number; body: string }[];
}

function useFlakyApi(certificate: TestCertificate): () => Flaky {
  const state: Flaky = { url: "", requests: [] };
  const calls = new Map<string, number>();
  let server: Server | undefined;
  beforeAll(async () => {
    server = createServer({ cert: certificate.cert, key: certificate.key }, (req, res) => {
      const chunks: Buffer[] = [];
      req.on("data", (c: Buffer) => chunks.push(c));
      req.on("end", () => {
        const url = new URL(req.url ?? "/", "https://flaky.local");
        const body = Buffer.concat(chunks).toString("utf8");
        const send = (status: number, payload: unknown, headers: Record<string, string> = {}) => {
          res.writeHead(status, { "content-type": "application/json", ...headers });
          res.end(JSON.stringify(payload));
        };
        if (url.pathname === "/openapi.json") return send(200, FLAKY_SPEC);
        state.requests.push({ method: req.method ?? "", path: url.pathname, at: Date.now(), body });
        const parts = url.pathname.split("/").filter(Boolean);
        const count = (key: string) => {
          const n = (calls.get(key) ?? 0) + 1;
          calls.set(key, n);
          return n;
        };
        if (parts[1] === "flaky") {
          const n = count(`flaky:${parts[2]}`);
          return n <= Number(url.searchParams.get("fail") ?? 0) ? send(503, { error: "try later" }) : send(200, { key: parts[2], calls: n });
        }
        if (parts[1] === "limited") {
          const n = count(`limited:${parts[2]}`);
          return n === 1 ? send(429, { error: "slow down" }, { "retry-after": "1" }) : send(200, { key: parts[2], calls: n });
        }
        if (parts[1] === "broken") return send(500, { error: "boom" });
        if (parts[1] === "secure") return send(401, { error: "who are you" });
        if (parts[1] === "slow") {
          setTimeout(() => send(200, { key: parts[2] }), Number(url.searchParams.get("ms") ?? 0)).unref();
          return;
        }
        if (parts[1] === "sign-in") {
          const parsed = JSON.parse(body || "{}") as { username?: string; password?: string };
          return send(200, { user: parsed.username, ok: parsed.password === SECRET_PASSWORD });
        }
        send(404, { error: "not found" });
      });
    });
    await new Promise<void>((resolve) => server!.listen(0, "127.0.0.1", resolve));
    state.url = `https://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    server?.closeAllConnections();
    await new Promise((resolve) => server?.close(resolve));
  });
  return () => state;
}

const flaky = useFlakyApi(tls);

// Fast retries (20 ms, 40 ms, 80 ms), a Retry-After capped at 1.5 s, pings every 100 ms.
const ENV = {
  SVC_OUTBOUND_ALLOW_HOSTS: "127.0.0.1",
  SVC_OUTBOUND_CA_FILE: tls.certFile,
  SVC_OUTBOUND_TIMEOUT_MS: "3000",
  SVC_EXECUTION_RETRY_BASE_MS: "20",
  SVC_EXECUTION_RETRY_AFTER_CAP_MS: "1500",
  SVC_SSE_PING_MS: "100",
};
let server: TestServer;
// A second process on the same database (streams and escalation resolutions cross between them).
let other: TestServer;
beforeAll(async () => {
  server = await startServer(ENV);
  other = await startServer(ENV);
});
afterAll(async () => {
  await other?.close();
  await server?.close();
});

// ---- helpers ----

const actorOf = (ws: TestWorkspace): Actor => ({ workspaceId: ws.id, type: "key", id: ws.keyId });
const EXECUTIONS = "/api/v1/svc/executions";

/** A workspace with the shop (API key credential), the flaky service and the MCP server connected. */
async function connectedWorkspace(): Promise<TestWorkspace> {
  const ws = await newWorkspace(server);
  const credential = await call(server, "POST", "/api/v1/svc/credentials", { key: ws.key, body: { provider: "shop", name: "shop", key_data: { api_key: SHOP_API_KEY } } });
  expect(credential.status, credential.text).toBe(201);
  const imported = await call(server, "POST", "/api/v1/svc/connections/openapi", { key: ws.key, body: { name: "shop", spec_url: `${shop().url}/openapi.json`, credential_id: credential.body.id } });
  expect(imported.status, imported.text).toBe(201);
  const flakyImport = await call(server, "POST", "/api/v1/svc/connections/openapi", { key: ws.key, body: { name: "flaky", spec_url: `${flaky().url}/openapi.json` } });
  expect(flakyImport.status, flakyImport.text).toBe(201);
  const registered = await call(server, "POST", "/api/v1/svc/connections/mcp", { key: ws.key, body: { name: "orders", url: mcp().httpUrl, headers: { authorization: `Bearer ${MCP_TOKEN}` } } });
  expect(registered.status, registered.text).toBe(201);
  return ws;
}

async function create(ws: TestWorkspace, steps: ExecutionStepPlan[], extra: { status?: "ready" | "awaiting_approval"; escalationId?: string; domain?: string } = {}): Promise<string> {
  const row = await server.services.executions.create(actorOf(ws), { steps, status: extra.status ?? "ready", intentId: "int_test", ...extra });
  expect(row.id).toMatch(/^exe_/);
  return row.id;
}

const get = (ws: TestWorkspace, id: string, target: TestServer = server) => call(target, "GET", `${EXECUTIONS}/${id}`, { key: ws.key });
const confirm = (ws: TestWorkspace, id: string) => call(server, "POST", `${EXECUTIONS}/${id}/confirm`, { key: ws.key });
const cancel = (ws: TestWorkspace, id: string) => call(server, "POST", `${EXECUTIONS}/${id}/cancel`, { key: ws.key });
const finished = (ws: TestWorkspace, id: string) => server.services.executions.waitFor(ws.id, id, 15_000);
const resolve = (ws: TestWorkspace, escalationId: string, decision: string) => call(server, "POST", `/api/v1/svc/escalations/${escalationId}/resolve`, { key: ws.key, body: { decision } });

/** Waits for the end and checks the status (the whole row in the message when it differs). */
async function expectEnd(ws: TestWorkspace, id: string, status: string): Promise<void> {
  const row = await finished(ws, id);
  expect(row.status, JSON.stringify({ error: row.error, diagnosis: row.diagnosis, steps: row.steps })).toBe(status);
}

/** Polls GET until `until` holds (the run is in the background). */
async function poll(ws: TestWorkspace, id: string, until: (body: any) => boolean, timeoutMs = 10_000): Promise<any> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const reply = await get(ws, id);
    expect(reply.status, reply.text).toBe(200);
    if (until(reply.body)) return reply.body;
    if (Date.now() > deadline) throw new Error(`condition not reached: ${reply.text}`);
    await new Promise((r) => setTimeout(r, 25));
  }
}

async function activePolicy(ws: TestWorkspace, body: Record<string, unknown>): Promise<{ id: string; name: string }> {
  const created = await call(server, "POST", "/api/v1/svc/policies", { key: ws.key, body });
  expect(created.status, created.text).toBe(201);
  const confirmed = await call(server, "POST", `/api/v1/svc/policies/${created.body.id}/confirm`, { key: ws.key, body: { version: created.body.version } });
  expect(confirmed.status, confirmed.text).toBe(200);
  return created.body;
}

interface Stream {
  status: number;
  headers: Headers;
  /** Every event (name and parsed data) and the number of comments, once the server ends the stream. */
  done: Promise<{ events: { event: string | undefined; data: any }[]; comments: string[] }>;
}

/** Opens GET /executions/{id}/stream and reads it with eventsource-parser until the server ends it. */
async function openStream(ws: TestWorkspace, id: string, target: TestServer = server): Promise<Stream> {
  const response = await fetch(`${target.url}${EXECUTIONS}/${id}/stream`, { headers: { authorization: `Bearer ${ws.key}`, accept: "text/event-stream" }, signal: AbortSignal.timeout(20_000) });
  const done = (async () => {
    const events: { event: string | undefined; data: any }[] = [];
    const comments: string[] = [];
    const parser = createParser({ onEvent: (message) => events.push({ event: message.event, data: JSON.parse(message.data) }), onComment: (comment) => comments.push(comment) });
    const decoder = new TextDecoder();
    for await (const chunk of response.body as unknown as AsyncIterable<Uint8Array>) parser.feed(decoder.decode(chunk, { stream: true }));
    return { events, comments };
  })();
  return { status: response.status, headers: response.headers, done };
}

const names = (events: { event: string | undefined; data: any }[]) => events.map((e) => (typeof e.data.step === "number" ? `${e.event}:${e.data.step}` : e.event));

// ---- tests ----

describe("running an execution", () => {
  it("confirm runs a two-step execution (the OpenAPI service, then an MCP tool) and completes with results", async () => {
    const ws = await connectedWorkspace();
    const shopBefore = shop().requests.length;
    const id = await create(ws, [
      { tool: "get_order", arguments: { order_id: "A-1" } },
      { tool: "add_numbers", arguments: { a: 2, b: 3 } },
    ]);
    const ready = await get(ws, id);
    expect(ready.status).toBe(200);
    expect(ready.body).toMatchObject({ id, status: "ready", progress: 0, result: null, error: null, diagnosis: null, escalation_id: null, intent_id: "int_test", started_at: null, finished_at: null });
    expect(ready.body.steps.map((s: any) => s.status)).toEqual(["pending", "pending"]);
    expect(shop().requests.length).toBe(shopBefore);

    const confirmed = await confirm(ws, id);
    expect(confirmed.status, confirmed.text).toBe(200);
    expect(confirmed.body.status).toBe("running");
    expect(confirmed.body.started_at).toEqual(expect.any(String));

    await expectEnd(ws, id, "completed");
    const done = await get(ws, id);
    expect(done.body).toMatchObject({ status: "completed", progress: 1, error: null, diagnosis: null });
    expect(Date.parse(done.body.finished_at)).toBeGreaterThanOrEqual(Date.parse(done.body.started_at));
    const [order, sum] = done.body.steps;
    expect(order).toMatchObject({ index: 0, tool: "get_order", arguments: { order_id: "A-1" }, status: "succeeded", attempts: 1, error: null, result: { status_code: 200, body: { id: "A-1", status: "shipped" } } });
    expect(sum).toMatchObject({ index: 1, tool: "add_numbers", status: "succeeded", attempts: 1, result: { structured_content: { sum: 5 }, is_error: false } });
    expect(order.started_at).toEqual(expect.any(String));
    expect(order.finished_at).toEqual(expect.any(String));
    expect(done.body.result).toEqual({ output: sum.result, steps: [order.result, sum.result] });
    // Really called: the shop with the credential, the MCP server with the arguments.
    const sent = shop().requests.slice(shopBefore);
    expect(sent).toHaveLength(1);
    expect(sent[0]).toMatchObject({ method: "GET", path: "/api/orders/A-1" });
    expect(sent[0]!.headers["x-api-key"]).toBe(SHOP_API_KEY);
    expect(mcp().toolCalls.at(-1)).toEqual({ name: "add_numbers", args: { a: 2, b: 3 } });

    // One audit entry per change, and the tool calls through the tools' own path.
    const actions = (await server.services.audit.list(ws.id, 50)).map((e) => `${e.action}:${e.resourceId}`);
    for (const expected of [`execution.create:${id}`, `execution.start:${id}`, "tool.invoke:get_order", "tool.invoke:add_numbers", `execution.complete:${id}`]) expect(actions).toContain(expected);
    const invoke = (await server.services.audit.list(ws.id, 50)).find((e) => e.action === "tool.invoke" && e.resourceId === "add_numbers")!;
    expect(invoke.details).toMatchObject({ execution_id: id, step: 1, attempt: 1, decision: "approved", status: "succeeded", argument_names: ["a", "b"] });
  });

  it("GET shows progress while it runs, and arguments with secret-looking values withheld (the real ones are sent)", async () => {
    const ws = await connectedWorkspace();
    const id = await create(ws, [
      { tool: "sign_in", arguments: { username: "ann", password: SECRET_PASSWORD } },
      { tool: "slow_read", arguments: { key: "p1", ms: 700 } },
    ]);
    const shown = await get(ws, id);
    expect(shown.body.steps[0].arguments).toEqual({ username: "ann", password: "[redacted]" });
    expect(shown.text).not.toContain(SECRET_PASSWORD);
    // Not stored in clear either.
    const [stored] = await query(server, sql`select steps::text as steps from executions where id = ${id}`);
    expect(stored.steps).not.toContain(SECRET_PASSWORD);

    expect((await confirm(ws, id)).status).toBe(200);
    const midway = await poll(ws, id, (b) => b.steps[1].status === "running");
    expect(midway).toMatchObject({ status: "running", progress: 0.5, finished_at: null });
    expect(midway.steps[0]).toMatchObject({ status: "succeeded", attempts: 1, result: { status_code: 200, body: { user: "ann", ok: true } } });
    expect(midway.steps[1]).toMatchObject({ status: "running", started_at: expect.any(String), finished_at: null });
    await expectEnd(ws, id, "completed");
    const signIn = flaky().requests.find((r) => r.path === "/api/sign-in" && r.body.includes("ann"))!;
    expect(JSON.parse(signIn.body)).toEqual({ username: "ann", password: SECRET_PASSWORD });
    expect((await get(ws, id)).text).not.toContain(SECRET_PASSWORD);
  });

  it("the stream delivers the step events, pings, then mission_complete, and ends; opened afterwards it sends the terminal event at once", async () => {
    const ws = await connectedWorkspace();
    const id = await create(ws, [
      { tool: "get_order", arguments: { order_id: "S-1" } },
      { tool: "slow_read", arguments: { key: "s1", ms: 350 } },
    ]);
    const stream = await openStream(ws, id);
    expect(stream.status).toBe(200);
    expect(stream.headers.get("content-type")).toMatch(/^text\/event-stream/);
    expect(stream.headers.get("x-svc-trace-id")).toMatch(/^[0-9a-f]{32}$/);
    expect((await confirm(ws, id)).status).toBe(200);
    const { events, comments } = await stream.done;
    expect(names(events)).toEqual(["step_started:0", "step_completed:0", "step_started:1", "step_completed:1", "execution_steps_complete", "mission_complete"]);
    for (const event of events) expect(event.data).toMatchObject({ type: event.event, execution_id: id });
    expect(events[1]!.data).toMatchObject({ tool: "get_order", status: "succeeded", attempts: 1, progress: 0.5 });
    expect(events.at(-1)!.data).toMatchObject({ status: "completed", progress: 1, error: null, result: { output: { status_code: 200, body: { key: "s1" } } } });
    // The slow step outlasts the 100 ms ping interval.
    expect(comments.filter((c) => c.trim() === "ping").length).toBeGreaterThanOrEqual(1);

    const late = await openStream(ws, id);
    const after = await late.done;
    expect(names(after.events)).toEqual(["mission_complete"]);
  });

  it("a stream opened mid-run first sends the step events it missed", async () => {
    const ws = await connectedWorkspace();
    const id = await create(ws, [
      { tool: "get_order", arguments: { order_id: "M-1" } },
      { tool: "slow_read", arguments: { key: "m1", ms: 400 } },
    ]);
    expect((await confirm(ws, id)).status).toBe(200);
    await poll(ws, id, (b) => b.steps[1].status === "running");
    const stream = await openStream(ws, id);
    const { events } = await stream.done;
    expect(names(events)).toEqual(["step_started:0", "step_completed:0", "step_started:1", "step_completed:1", "execution_steps_complete", "mission_complete"]);
  });

  it("a stream served by another process hears an execution run by this one", async () => {
    const ws = await connectedWorkspace();
    const id = await create(ws, [
      { tool: "slow_read", arguments: { key: "x1", ms: 150 } },
      { tool: "add_numbers", arguments: { a: 1, b: 1 } },
    ]);
    const stream = await openStream(ws, id, other);
    expect(stream.status).toBe(200);
    expect((await confirm(ws, id)).status).toBe(200);
    const { events } = await stream.done;
    expect(names(events)).toEqual(["step_started:0", "step_completed:0", "step_started:1", "step_completed:1", "execution_steps_complete", "mission_complete"]);
    expect((await get(ws, id, other)).body.status).toBe("completed");
  });
});

describe("governance at run time", () => {
  it("a policy confirmed after the execution was planned blocks the step: failed, diagnosis, escalation, nothing sent", async () => {
    const ws = await connectedWorkspace();
    const id = await create(ws, [{ tool: "refund_order", arguments: { order_id: "A-1", amount: 900 } }], { domain: "finance" });
    const policy = await activePolicy(ws, { name: "no big refunds", rule: "Block refunds over $500" });
    const before = shop().requests.length;
    const stream = await openStream(ws, id);
    expect((await confirm(ws, id)).status).toBe(200);
    await expectEnd(ws, id, "failed");
    expect(shop().requests.length).toBe(before);

    const failed = (await get(ws, id)).body;
    expect(failed).toMatchObject({ status: "failed", progress: 0, error: expect.stringContaining("no big refunds") });
    expect(failed.error).toContain(policy.id);
    expect(failed.steps[0]).toMatchObject({ status: "failed", attempts: 0, started_at: null });
    expect(failed.diagnosis).toMatchObject({ error_category: "policy", recovery_strategy: "human_handoff", can_retry: false, needs_human: true, tool_name: "refund_order", step: 0, confidence: 1 });
    expect(failed.escalation_id).toMatch(/^esc_/);
    const escalation = await call(server, "GET", `/api/v1/svc/escalations/${failed.escalation_id}`, { key: ws.key });
    expect(escalation.body).toMatchObject({ status: "pending", category: "execution", tool_name: "refund_order", execution_id: id, policy_id: policy.id, reason: failed.error });
    expect(escalation.body.human_prompt).toContain(id);

    const { events } = await stream.done;
    expect(names(events)).toEqual(["step_failed:0", "mission_blocked"]);
    expect(events.at(-1)!.data).toMatchObject({ status: "failed", diagnosis: { error_category: "policy" }, escalation_id: failed.escalation_id });
    const audit = (await server.services.audit.list(ws.id, 20)).find((e) => e.action === "execution.fail");
    expect(audit?.details).toMatchObject({ step: 0, tool: "refund_order", error_category: "policy", escalation_id: failed.escalation_id });
  });

  it("arguments are validated again at run time: invalid ones fail the step with the details, nothing is sent, no escalation", async () => {
    const ws = await connectedWorkspace();
    const before = shop().requests.length;
    const id = await create(ws, [{ tool: "refund_order", arguments: { order_id: "A-1", amount: "lots" } }]);
    expect((await confirm(ws, id)).status).toBe(200);
    const done = await finished(ws, id);
    expect(done.status).toBe("failed");
    const body = (await get(ws, id)).body;
    expect(body.error).toContain("arguments.amount");
    expect(body.diagnosis).toMatchObject({ error_category: "validation", recovery_strategy: "repair", needs_re_decide: true, needs_human: false, can_retry: false });
    expect(body.escalation_id).toBeNull();
    expect(shop().requests.length).toBe(before);
  });

  it("a step that needs approval at run time pauses as awaiting_approval; resolving its escalation with auto runs it once", async () => {
    const ws = await connectedWorkspace();
    await activePolicy(ws, { name: "approve big refunds", rule: "Require approval for refunds over $500" });
    const before = shop().requests.length;
    const id = await create(ws, [
      { tool: "get_order", arguments: { order_id: "A-1" } },
      { tool: "refund_order", arguments: { order_id: "A-1", amount: 900 } },
    ]);
    expect((await confirm(ws, id)).status).toBe(200);
    const paused = await poll(ws, id, (b) => b.status === "awaiting_approval");
    expect(paused).toMatchObject({ progress: 0.5, escalation_id: expect.stringMatching(/^esc_/) });
    expect(paused.steps[0].status).toBe("succeeded");
    expect(paused.steps[1]).toMatchObject({ status: "pending", escalation_id: paused.escalation_id, attempts: 0 });
    expect(shop().requests.length).toBe(before + 1);
    expectError(await confirm(ws, id), 409, "execution_not_ready");

    expect((await resolve(ws, paused.escalation_id, "auto")).status).toBe(200);
    await expectEnd(ws, id, "completed");
    const done = (await get(ws, id)).body;
    expect(done.steps[1]).toMatchObject({ status: "succeeded", result: { status_code: 201, body: { refund_id: "rf_1", amount: 900 } } });
    expect(shop().requests.length).toBe(before + 2);
    // The approved run opened no second escalation.
    const pending = await call(server, "GET", "/api/v1/svc/escalations?status=pending", { key: ws.key });
    expect(pending.body.total).toBe(0);
  });
});

describe("retries and diagnosis", () => {
  it("a flaky upstream (503 twice, then 200) is retried and succeeds", async () => {
    const ws = await connectedWorkspace();
    const id = await create(ws, [{ tool: "flaky_read", arguments: { key: "f1", fail: 2 } }]);
    expect((await confirm(ws, id)).status).toBe(200);
    await expectEnd(ws, id, "completed");
    const body = (await get(ws, id)).body;
    expect(body.steps[0]).toMatchObject({ status: "succeeded", attempts: 3, error: null, result: { status_code: 200, body: { key: "f1", calls: 3 } } });
    expect(flaky().requests.filter((r) => r.path === "/api/flaky/f1")).toHaveLength(3);
  });

  it("a 429 is retried after its Retry-After", async () => {
    const ws = await connectedWorkspace();
    const id = await create(ws, [{ tool: "limited_read", arguments: { key: "l1" } }]);
    expect((await confirm(ws, id)).status).toBe(200);
    await expectEnd(ws, id, "completed");
    expect((await get(ws, id)).body.steps[0]).toMatchObject({ status: "succeeded", attempts: 2 });
    const calls = flaky().requests.filter((r) => r.path === "/api/limited/l1");
    expect(calls).toHaveLength(2);
    expect(calls[1]!.at - calls[0]!.at).toBeGreaterThanOrEqual(900);
  });

  it("permanent 500s exhaust the retries: failed after a first step succeeded (mission_partial), diagnosis, escalation opened", async () => {
    const ws = await connectedWorkspace();
    const id = await create(ws, [
      { tool: "get_order", arguments: { order_id: "A-1" } },
      { tool: "always_broken", arguments: {} },
      { tool: "add_numbers", arguments: { a: 1, b: 2 } },
    ]);
    const before = flaky().requests.filter((r) => r.path === "/api/broken").length;
    const stream = await openStream(ws, id);
    expect((await confirm(ws, id)).status).toBe(200);
    await expectEnd(ws, id, "failed");
    expect(flaky().requests.filter((r) => r.path === "/api/broken").length - before).toBe(4);
    const body = (await get(ws, id)).body;
    expect(body).toMatchObject({ status: "failed", progress: 0.3333, error: expect.stringContaining("after 4 attempts") });
    expect(body.steps.map((s: any) => s.status)).toEqual(["succeeded", "failed", "skipped"]);
    expect(body.steps[1]).toMatchObject({ attempts: 4, result: { status_code: 500 } });
    expect(body.diagnosis).toMatchObject({
      error_category: "external",
      status_code: 500,
      recovery_strategy: "human_handoff",
      can_retry: true,
      needs_human: true,
      tool_name: "always_broken",
      step: 1,
      attempts: 4,
      retry_delay_ms: 20,
    });
    expect(body.diagnosis.root_cause).toContain("retries are exhausted");
    expect(body.result).toEqual({ output: body.steps[0].result, steps: [body.steps[0].result, body.steps[1].result, null] });
    const escalation = await call(server, "GET", `/api/v1/svc/escalations/${body.escalation_id}`, { key: ws.key });
    expect(escalation.body).toMatchObject({ status: "pending", category: "execution", tool_name: "always_broken", execution_id: id, severity: "high" });
    const { events } = await stream.done;
    expect(names(events)).toEqual(["step_started:0", "step_completed:0", "step_started:1", "step_failed:1", "mission_partial"]);
  });

  it("a 401 is not retried: auth diagnosis and an escalation", async () => {
    const ws = await connectedWorkspace();
    const id = await create(ws, [{ tool: "needs_auth", arguments: {} }]);
    expect((await confirm(ws, id)).status).toBe(200);
    await finished(ws, id);
    const body = (await get(ws, id)).body;
    expect(body.steps[0]).toMatchObject({ status: "failed", attempts: 1 });
    expect(body.diagnosis).toMatchObject({ error_category: "auth", status_code: 401, recovery_strategy: "reconfigure", needs_human: true, can_retry: false });
    expect(body.escalation_id).toMatch(/^esc_/);
  });
});

describe("approval through an escalation", () => {
  /** As the intent engine does: governance answers conditional and opens the escalation; the execution waits on it. */
  async function waitingExecution(ws: TestWorkspace, withPolicy = true): Promise<{ id: string; escalationId: string }> {
    if (withPolicy) await activePolicy(ws, { name: "approve big refunds", rule: "Require approval for refunds over $500" });
    const tool = (await server.services.tools.find(ws.id, "refund_order"))!;
    const args = { order_id: "A-9", amount: 900 };
    const verdict = await server.services.governance.govern({ tool: tool.name, arguments: args, description: tool.description, caller: actorOf(ws) });
    expect(verdict.decision).toBe("conditional");
    const id = await create(ws, [{ tool: "refund_order", arguments: args }], { status: "awaiting_approval", escalationId: verdict.escalationId! });
    return { id, escalationId: verdict.escalationId! };
  }

  it("awaiting_approval + resolve auto: runs once (the other process hears it too), no new escalation", async () => {
    const ws = await connectedWorkspace();
    const { id, escalationId } = await waitingExecution(ws);
    expect((await get(ws, id)).body).toMatchObject({ status: "awaiting_approval", escalation_id: escalationId });
    expectError(await confirm(ws, id), 409, "execution_not_ready");
    const before = shop().requests.filter((r) => r.path === "/api/refunds").length;
    expect((await resolve(ws, escalationId, "auto")).status).toBe(200);
    await expectEnd(ws, id, "completed");
    expect((await get(ws, id)).body.steps[0]).toMatchObject({ status: "succeeded", escalation_id: escalationId, result: { status_code: 201 } });
    // Both processes heard the resolution; one ran it.
    await new Promise((r) => setTimeout(r, 300));
    expect(shop().requests.filter((r) => r.path === "/api/refunds").length - before).toBe(1);
    const starts = (await server.services.audit.list(ws.id, 50)).filter((e) => e.action === "execution.start" && e.resourceId === id);
    expect(starts).toHaveLength(1);
    expect(starts[0]!.details).toMatchObject({ via: "escalation", escalation_id: escalationId, decision: "auto" });
    expect(starts[0]!.actorId).toBe(ws.keyId);
    expect((await call(server, "GET", "/api/v1/svc/escalations?status=pending", { key: ws.key })).body.total).toBe(0);
  });

  it("a resolution whose process died before applying it is taken over by another process, once", async () => {
    const ws = await connectedWorkspace();
    const { id, escalationId } = await waitingExecution(ws);
    // Decided in the database and announced by a process that is gone: every live process hears it from afar.
    await server.database.db.execute(sql`update escalations set status = 'resolved', decision = 'auto', resolved_at = now(), resolved_by = ${ws.keyId} where id = ${escalationId}`);
    await server.database.notify("svc_escalations", JSON.stringify({ workspace_id: ws.id, id: escalationId, origin: "a-process-that-died" }));
    await new Promise((r) => setTimeout(r, 1_000));
    expect((await get(ws, id)).body.status).toBe("awaiting_approval");
    const started = await poll(ws, id, (b) => b.status !== "awaiting_approval", 10_000);
    // On a shared PostgreSQL, a process of another test file may be the one that took it over.
    if (!onPostgres) {
      expect(started.status).not.toBe("failed");
      await expectEnd(ws, id, "completed");
    }
    await new Promise((r) => setTimeout(r, 300));
    const starts = (await server.services.audit.list(ws.id, 50)).filter((e) => e.action === "execution.start" && e.resourceId === id);
    expect(starts).toHaveLength(1);
    expect(starts[0]!.details).toMatchObject({ via: "escalation", escalation_id: escalationId });
  });

  it("abstain cancels it; clarify_requester and handoff cancel it with their reason; nothing runs", async () => {
    const ws = await connectedWorkspace();
    const before = shop().requests.length;
    let first = true;
    for (const [decision, reason] of [
      ["abstain", "rejected by the approver"],
      ["clarify_requester", "needs clarification from the requester"],
      ["handoff", "handed off to a human"],
    ] as const) {
      const { id, escalationId } = await waitingExecution(ws, first);
      first = false;
      const stream = await openStream(ws, id);
      expect((await resolve(ws, escalationId, decision)).status).toBe(200);
      await expectEnd(ws, id, "cancelled");
      const body = (await get(ws, id)).body;
      expect(body).toMatchObject({ status: "cancelled", error: reason, finished_at: expect.any(String) });
      expect(body.steps[0].status).toBe("skipped");
      expect(names((await stream.done).events)).toEqual(["mission_blocked"]);
      const entry = (await server.services.audit.list(ws.id, 50)).find((e) => e.action === "execution.cancel" && e.resourceId === id);
      expect(entry?.details).toMatchObject({ via: "escalation", decision, escalation_id: escalationId });
    }
    expect(shop().requests.length).toBe(before);
  });

  it("escalate keeps it waiting on a new escalation of higher severity, which can then approve it", async () => {
    const ws = await connectedWorkspace();
    const { id, escalationId } = await waitingExecution(ws);
    expect((await resolve(ws, escalationId, "escalate")).status).toBe(200);
    const moved = await poll(ws, id, (b) => b.escalation_id !== null && b.escalation_id !== escalationId);
    expect(moved.status).toBe("awaiting_approval");
    const next = await call(server, "GET", `/api/v1/svc/escalations/${moved.escalation_id}`, { key: ws.key });
    expect(next.body).toMatchObject({ status: "pending", severity: "high", execution_id: id, tool_name: "refund_order" });
    // Exactly one new escalation although two processes heard the decision.
    await new Promise((r) => setTimeout(r, 300));
    expect((await call(server, "GET", "/api/v1/svc/escalations?status=pending", { key: ws.key })).body.total).toBe(1);
    expect((await resolve(ws, moved.escalation_id, "auto_complete")).status).toBe(200);
    await expectEnd(ws, id, "completed");
  });
});

describe("cancel, errors and isolation", () => {
  it("cancel: a ready one at once (409 afterwards); a running one stops before its next step", async () => {
    const ws = await connectedWorkspace();
    const id = await create(ws, [{ tool: "get_order", arguments: { order_id: "A-1" } }]);
    const cancelled = await cancel(ws, id);
    expect(cancelled.status, cancelled.text).toBe(200);
    expect(cancelled.body).toMatchObject({ status: "cancelled", error: "cancelled by the caller", finished_at: expect.any(String) });
    expect(cancelled.body.steps[0].status).toBe("skipped");
    expectError(await cancel(ws, id), 409, "execution_finished");
    expectError(await confirm(ws, id), 409, "execution_not_ready");

    const running = await create(ws, [
      { tool: "slow_read", arguments: { key: "c1", ms: 500 } },
      { tool: "flaky_read", arguments: { key: "c2" } },
    ]);
    const stream = await openStream(ws, running);
    expect((await confirm(ws, running)).status).toBe(200);
    await poll(ws, running, (b) => b.steps[0].status === "running");
    const stopped = await cancel(ws, running);
    expect(stopped.body.status).toBe("cancelled");
    expect(names((await stream.done).events)).toEqual(["step_started:0", "mission_blocked"]);
    const settled = await poll(ws, running, (b) => b.steps[0].status === "succeeded" && b.steps[1].status === "skipped");
    expect(settled.status).toBe("cancelled");
    await new Promise((r) => setTimeout(r, 200));
    expect(flaky().requests.filter((r) => r.path === "/api/flaky/c2")).toHaveLength(0);
    expect((await server.services.audit.list(ws.id, 50)).filter((e) => e.action === "execution.cancel").map((e) => e.resourceId)).toEqual([running, id]);
  });

  it("unknown ids: 404 execution_not_found with the canonical body on every route", async () => {
    const ws = await newWorkspace(server);
    expectError(await get(ws, "exe_nope"), 404, "execution_not_found");
    expectError(await confirm(ws, "exe_nope"), 404, "execution_not_found");
    expectError(await cancel(ws, "exe_nope"), 404, "execution_not_found");
    expectError(await call(server, "GET", `${EXECUTIONS}/exe_nope/stream`, { key: ws.key }), 404, "execution_not_found");
  });

  it("another workspace's key sees nothing and can neither confirm nor cancel", async () => {
    const a = await connectedWorkspace();
    const b = await newWorkspace(server);
    const id = await create(a, [{ tool: "get_order", arguments: { order_id: "A-1" } }]);
    expectError(await get(b, id), 404, "execution_not_found");
    expectError(await call(server, "POST", `${EXECUTIONS}/${id}/confirm`, { key: b.key }), 404, "execution_not_found");
    expectError(await call(server, "POST", `${EXECUTIONS}/${id}/cancel`, { key: b.key }), 404, "execution_not_found");
    expectError(await call(server, "GET", `${EXECUTIONS}/${id}/stream`, { key: b.key }), 404, "execution_not_found");
    expect((await get(a, id)).body.status).toBe("ready");
    await expect(server.services.executions.get(b.id, id)).rejects.toMatchObject({ code: "execution_not_found" });
  });
});
