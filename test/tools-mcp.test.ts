// MCP registration against real MCP servers built with the SDK (Streamable HTTP and SSE), on loopback opened
// through SVC_OUTBOUND_ALLOW_HOSTS: tools listed and called, sessions reused and closed, headers sealed.
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { MCP_TOKEN, useMcpServers } from "./helpers/mcp-servers.ts";
import { call, expectError, newWorkspace, query, startServer, useServer, type Reply, type TestServer, type TestWorkspace, capturedLogger, invokeTool } from "./helpers/server.ts";

const mcp = useMcpServers();

const captured = capturedLogger();
let server: TestServer;
beforeAll(async () => {
  server = await startServer({ SVC_LOG_LEVEL: "trace", SVC_OUTBOUND_ALLOW_HOSTS: "127.0.0.1" }, { logger: captured.logger });
});
afterAll(async () => {
  await server?.close();
});
// Sessions idle for 300 ms close.
const idle = useServer({ SVC_OUTBOUND_ALLOW_HOSTS: "127.0.0.1", SVC_MCP_IDLE_MS: "300" });
// No allow-list.
const guarded = useServer();

const MCP = "/api/v1/svc/connections/mcp";
const auth = { authorization: `Bearer ${MCP_TOKEN}` };

async function register(ws: TestWorkspace, body: Record<string, unknown> = {}, target: TestServer = server): Promise<Reply> {
  const reply = await call(target, "POST", MCP, { key: ws.key, body: { name: "orders", url: mcp().httpUrl, headers: auth, ...body } });
  expect(reply.status, reply.text).toBe(201);
  return reply;
}

const invoke = (ws: TestWorkspace, name: string, args: unknown, target: { url: string } = server) => invokeTool(target, ws.key, name, args);

describe("registering an MCP server", () => {
  it("Streamable HTTP (default): lists its tools, registers them as functions, and calls them on one reused session", async () => {
    const ws = await newWorkspace(server);
    const opened = mcp().sessionsOpened;
    const reply = await register(ws);
    expect(reply.body).toMatchObject({ name: "orders", type: "mcp", status: "connected", transport: "http", url: mcp().httpUrl, tools_registered: 4 });
    expect(reply.body.id).toMatch(/^con_/);
    expect(reply.body.functions).toEqual(["add_numbers", "lookup_order", "orders_search", "flaky_refund"]);

    const tools = await call(server, "GET", "/api/v1/svc/tools", { key: ws.key });
    const add = tools.body.data.find((d: any) => d.function.name === "add_numbers");
    expect(add).toEqual({
      type: "function",
      function: { name: "add_numbers", description: "Add two numbers", parameters: expect.objectContaining({ type: "object", properties: { a: { type: "number" }, b: { type: "number" } }, required: ["a", "b"] }) },
    });
    expect(add.function.parameters.$schema).toBeUndefined();

    const sum = await invoke(ws, "add_numbers", { a: 2, b: 3.5 });
    expect(sum.status, sum.text).toBe(200);
    expect(sum.headers.get("x-svc-gate")).toBe("ok");
    expect(sum.body).toMatchObject({ tool: "add_numbers", status: "succeeded", result: { content: [{ type: "text", text: "5.5" }], structured_content: { sum: 5.5 }, is_error: false } });
    const order = await invoke(ws, "lookup_order", { order_id: "A-7" });
    expect(JSON.parse(order.body.result.content[0].text)).toEqual({ order_id: "A-7", status: "shipped" });
    // Renamed for this workspace (dots are not allowed in function names), called by its own name on the server.
    const search = await invoke(ws, "orders_search", { query: "late" });
    expect(search.body.result.content[0].text).toBe("found 2 orders for late");
    expect(mcp().toolCalls.at(-1)).toEqual({ name: "orders.search", args: { query: "late" } });
    // The registration's session was kept and reused for every call.
    expect(mcp().sessionsOpened).toBe(opened + 1);
    expect(server.services.tools.openSessions()).toContain(reply.body.id);
  });

  it("validates arguments before any call reaches the server", async () => {
    const ws = await newWorkspace(server);
    await register(ws);
    const calls = mcp().toolCalls.length;
    const bad = expectError(await invoke(ws, "add_numbers", { a: "two", b: 3 }), 400, "tool_arguments_invalid");
    expect(bad.error.details).toEqual([{ field: "arguments.a", message: "must be number" }]);
    expectError(await invoke(ws, "lookup_order", {}), 400, "tool_arguments_invalid");
    expect(mcp().toolCalls.length).toBe(calls);
  });

  it("SSE transport: registers and calls the same way", async () => {
    const ws = await newWorkspace(server);
    const reply = await register(ws, { url: mcp().sseUrl, transport: "sse" });
    expect(reply.body).toMatchObject({ transport: "sse", url: mcp().sseUrl, tools_registered: 4 });
    expect((await invoke(ws, "add_numbers", { a: 40, b: 2 })).body).toMatchObject({ status: "succeeded", result: { content: [{ text: "42" }] } });
    const list = await call(server, "GET", "/api/v1/svc/connections", { key: ws.key });
    expect(list.body.items[0]).toMatchObject({ kind: "mcp", transport: "sse", url: mcp().sseUrl, status: "connected" });
    expect(list.body.connections.find((g: any) => g.capability === "add_numbers").pathways[0]).toMatchObject({ connector: "mcp", transport: "sse", health: "healthy" });
  });

  it("failures: 500 mcp_registration_failed (wrong token, nothing listening, not MCP); 400 for stdio, bad headers, bad URLs", async () => {
    const ws = await newWorkspace(server);
    const post = (body: Record<string, unknown>) => call(server, "POST", MCP, { key: ws.key, body: { name: "x", url: mcp().httpUrl, ...body } });
    const wrong = expectError(await post({ headers: { authorization: "Bearer wrong-token-a1b2c3d4e5" } }), 500, "mcp_registration_failed");
    expect(wrong.error.message).toContain("401");
    expect(JSON.stringify(wrong)).not.toContain("wrong-token-a1b2c3d4e5");
    expectError(await post({ url: "http://127.0.0.1:1/mcp" }), 500, "mcp_registration_failed");
    expectError(await post({ url: `${new URL(mcp().httpUrl).origin}/nothing`, headers: auth }), 500, "mcp_registration_failed");
    expectError(await post({ transport: "stdio" }), 400, "invalid_request");
    expectError(await post({ headers: { "bad header": "x" } }), 400, "invalid_request");
    expectError(await post({ headers: { "mcp-session-id": "x" } }), 400, "invalid_request");
    expectError(await post({ url: "not a url" }), 400, "invalid_request");
    expectError(await post({ url: "ftp://127.0.0.1/mcp" }), 400, "invalid_request");
    expect((await call(server, "GET", "/api/v1/svc/connections", { key: ws.key })).body.count).toBe(0);
  });

  it("without the allow-list: plain HTTP is refused (400) and loopback, private and metadata addresses fail (500, not allowed)", async () => {
    const ws = await newWorkspace(guarded());
    const port = new URL(mcp().httpUrl).port;
    expectError(await call(guarded(), "POST", MCP, { key: ws.key, body: { name: "x", url: mcp().httpUrl, headers: auth } }), 400, "invalid_request");
    for (const url of [`https://127.0.0.1:${port}/mcp`, `https://localhost:${port}/mcp`, "https://10.1.2.3/mcp", "https://169.254.169.254/mcp", `https://[::1]:${port}/mcp`]) {
      const reply = await call(guarded(), "POST", MCP, { key: ws.key, body: { name: "x", url, headers: auth } });
      expect(expectError(reply, 500, "mcp_registration_failed").error.message, url).toMatch(/The address .* is not allowed/);
    }
  });
});

describe("MCP connections", () => {
  it("tools reporting isError are failed calls; three of them make the connection degraded; a success heals it", async () => {
    const ws = await newWorkspace(server);
    const id = (await register(ws)).body.id;
    for (let i = 0; i < 3; i++) {
      const reply = await invoke(ws, "flaky_refund", {});
      expect(reply.status).toBe(200);
      expect(reply.body).toMatchObject({ status: "failed", result: { content: [{ text: "refund backend unavailable" }], is_error: true } });
    }
    expect(server.services.connections.health(ws.id, id).status).toBe("degraded");
    const caps = await call(server, "GET", "/api/v1/svc/capabilities", { key: ws.key });
    expect(caps.body.available.find((c: any) => c.name === "add_numbers")).toMatchObject({ source: "mcp", health: "degraded" });
    expect((await call(server, "GET", "/api/v1/svc/health", { key: ws.key })).body.connections).toEqual({ total: 1, healthy: 0 });
    await invoke(ws, "add_numbers", { a: 1, b: 1 });
    expect(server.services.connections.health(ws.id, id).status).toBe("healthy");
  });

  it("DELETE closes the session and removes the tools; other workspaces see, call and delete nothing", async () => {
    const a = await newWorkspace(server);
    const b = await newWorkspace(server);
    const id = (await register(a)).body.id;
    expect((await call(server, "GET", "/api/v1/svc/tools", { key: b.key })).body.data).toEqual([]);
    expectError(await invoke(b, "add_numbers", { a: 1, b: 2 }), 404, "tool_not_found");
    expectError(await call(server, "DELETE", `/api/v1/svc/connections/${id}`, { key: b.key }), 404, "connection_not_found");
    expect((await call(server, "GET", "/api/v1/svc/connections", { key: b.key })).body.count).toBe(0);

    const closed = mcp().sessionsClosed;
    expect(server.services.tools.openSessions()).toContain(id);
    expect((await call(server, "DELETE", `/api/v1/svc/connections/${id}`, { key: a.key })).body).toEqual({ id, status: "deleted" });
    await vi.waitFor(() => expect(mcp().sessionsClosed).toBeGreaterThan(closed), { timeout: 5_000 });
    expect(server.services.tools.openSessions()).not.toContain(id);
    expectError(await invoke(a, "add_numbers", { a: 1, b: 2 }), 404, "tool_not_found");
    expect((await call(server, "GET", "/api/v1/svc/tools", { key: a.key })).body.data).toEqual([]);
  });

  it("a session the server no longer knows (404) is reopened and the call made once", async () => {
    const ws = await newWorkspace(server);
    await register(ws);
    const opened = mcp().sessionsOpened;
    const calls = mcp().toolCalls.length;
    mcp().forgetSessions();
    const reply = await invoke(ws, "add_numbers", { a: 3, b: 4 });
    expect(reply.body).toMatchObject({ status: "succeeded", result: { content: [{ text: "7" }] } });
    expect(mcp().sessionsOpened).toBe(opened + 1);
    expect(mcp().toolCalls.length).toBe(calls + 1);
  });

  it("an idle session closes after SVC_MCP_IDLE_MS and reopens on the next call", async () => {
    const ws = await newWorkspace(idle());
    const id = (await register(ws, {}, idle())).body.id;
    expect((await invoke(ws, "add_numbers", { a: 1, b: 2 }, idle())).body.status).toBe("succeeded");
    const opened = mcp().sessionsOpened;
    await vi.waitFor(() => expect(idle().services.tools.openSessions()).not.toContain(id), { timeout: 5_000 });
    const again = await invoke(ws, "add_numbers", { a: 2, b: 2 }, idle());
    expect(again.body).toMatchObject({ status: "succeeded", result: { content: [{ text: "4" }] } });
    expect(mcp().sessionsOpened).toBe(opened + 1);
    expect(idle().services.tools.openSessions()).toContain(id);
  });

  it("keeps header values sealed: never in responses, audit entries, the stored config or logs", async () => {
    const ws = await newWorkspace(server);
    const texts: string[] = [];
    const registered = await register(ws, { headers: { ...auth, "x-tenant": "tenant-secret-77aa" } });
    texts.push(registered.text);
    texts.push((await invoke(ws, "add_numbers", { a: 1, b: 2 })).text);
    texts.push((await invoke(ws, "flaky_refund", {})).text);
    texts.push((await call(server, "GET", "/api/v1/svc/tools", { key: ws.key })).text);
    texts.push((await call(server, "GET", "/api/v1/svc/connections", { key: ws.key })).text);
    texts.push((await call(server, "GET", "/api/v1/svc/capabilities", { key: ws.key })).text);
    const audit = await query(server, sql`select action, details::text as details from audit_entries where workspace_id = ${ws.id}`);
    expect(audit.find((r) => r.action === "connection.register")?.details).toContain("x-tenant");
    const stored = await query(server, sql`select config::text as config from connections where id = ${registered.body.id}`);
    expect(stored[0].config).toContain("sealed_headers");
    const everything = [...texts, ...audit.map((r) => r.details), stored[0].config, captured.text()].join("\n");
    for (const secret of [MCP_TOKEN, "tenant-secret-77aa"]) expect(everything).not.toContain(secret);
  });
});
