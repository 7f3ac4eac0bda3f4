// OpenAPI import against a real local HTTPS service (self-signed certificate trusted through
// SVC_OUTBOUND_CA_FILE, loopback opened through SVC_OUTBOUND_ALLOW_HOSTS), and the address rules that hold
// without the allow-list.
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { stringify } from "yaml";
import { call, expectError, newWorkspace, query, startServer, useServer, type Reply, type TestServer, type TestWorkspace, capturedLogger, invokeTool } from "./helpers/server.ts";
import { SHOP_API_KEY, SHOP_SPEC, SHOP_TOKEN, SHOP_USER, useShopApi } from "./helpers/shop-api.ts";
import { makeCertificate } from "./helpers/tls.ts";

const tls = makeCertificate();
const shop = useShopApi(tls);

// The main server may reach 127.0.0.1 (the shop); everything it logs is kept to look for secrets.
const captured = capturedLogger();
let server: TestServer;
beforeAll(async () => {
  server = await startServer(
    { SVC_LOG_LEVEL: "trace", SVC_OUTBOUND_ALLOW_HOSTS: "127.0.0.1", SVC_OUTBOUND_CA_FILE: tls.certFile, SVC_OUTBOUND_TIMEOUT_MS: "1500" },
    { logger: captured.logger },
  );
});
afterAll(async () => {
  await server?.close();
});
// No allow-list: loopback and private addresses are refused.
const guarded = useServer({ SVC_OUTBOUND_CA_FILE: tls.certFile });
// Only 127.0.0.2 allowed: a redirect from there to 127.0.0.1 must still be refused.
const onlySecond = useServer({ SVC_OUTBOUND_ALLOW_HOSTS: "127.0.0.2", SVC_OUTBOUND_CA_FILE: tls.certFile });

const OPENAPI = "/api/v1/svc/connections/openapi";

async function credential(ws: TestWorkspace, keyData: Record<string, string>): Promise<string> {
  const created = await call(server, "POST", "/api/v1/svc/credentials", { key: ws.key, body: { provider: "shop", name: `shop-${Object.keys(keyData).join("-")}`, key_data: keyData } });
  expect(created.status).toBe(201);
  return created.body.id;
}

async function importShop(ws: TestWorkspace, extra: Record<string, unknown> = {}): Promise<Reply> {
  const reply = await call(server, "POST", OPENAPI, { key: ws.key, body: { name: "shop", spec_url: `${shop().url}/openapi.yaml`, ...extra } });
  expect(reply.status, reply.text).toBe(201);
  return reply;
}

const invoke = (ws: TestWorkspace, name: string, args: unknown, target: { url: string } = server) => invokeTool(target, ws.key, name, args);

describe("importing an OpenAPI document", () => {
  it("by spec_url (YAML): one tool per operation, with its description and one JSON Schema of its arguments", async () => {
    const ws = await newWorkspace(server);
    const cred = await credential(ws, { api_key: SHOP_API_KEY });
    const reply = await importShop(ws, { credential_id: cred });
    expect(reply.body).toMatchObject({ name: "shop", type: "openapi", status: "connected", tools_generated: 8, tools_registered: 7, spec_url: `${shop().url}/openapi.yaml` });
    expect(reply.body.id).toMatch(/^con_/);
    expect(reply.body.functions).toEqual(["get_order", "refund_order", "post_categories", "whoami_bearer", "whoami_basic", "whoami_query", "shop_status"]);
    expect(reply.body.skipped).toEqual([{ operation: "POST /upload", reason: expect.stringContaining("multipart/form-data") }]);

    const tools = await call(server, "GET", "/api/v1/svc/tools", { key: ws.key });
    expect(tools.status).toBe(200);
    expect(Object.keys(tools.body)).toEqual(["object", "data"]);
    expect(tools.body.object).toBe("list");
    expect(tools.body.data).toHaveLength(7);
    for (const entry of tools.body.data) {
      expect(Object.keys(entry)).toEqual(["type", "function"]);
      expect(entry.type).toBe("function");
      expect(Object.keys(entry.function)).toEqual(["name", "description", "parameters"]);
      expect(entry.function.name).toMatch(/^[a-zA-Z0-9_-]{1,64}$/);
      expect(entry.function.parameters.type).toBe("object");
    }
    const byName = Object.fromEntries(tools.body.data.map((d: any) => [d.function.name, d.function]));
    expect(byName.get_order).toEqual({
      name: "get_order",
      description: "Look up an order",
      parameters: {
        type: "object",
        properties: { order_id: { type: "string", minLength: 1, description: "The order's id" }, expand: { type: "boolean" } },
        required: ["order_id"],
        additionalProperties: false,
      },
    });
    // An object body's fields beside the parameters; $ref inlined; read-only, nullable and boolean exclusiveMinimum translated.
    expect(byName.refund_order.parameters).toEqual({
      type: "object",
      required: ["order_id", "amount"],
      properties: { order_id: { type: "string" }, amount: { type: "number", exclusiveMinimum: 0 }, reason: { type: ["string", "null"] } },
      additionalProperties: false,
    });
    // A recursive schema is cut where it repeats.
    expect(byName.post_categories.description).toBe("Create a category");
    expect(byName.post_categories.parameters.properties.children.items.description).toContain("recursive");
  });

  it("calls the real service with the credential applied (API key header), and answers what the service said", async () => {
    const ws = await newWorkspace(server);
    await importShop(ws, { credential_id: await credential(ws, { api_key: SHOP_API_KEY }) });
    const before = shop().requests.length;
    const reply = await invoke(ws, "get_order", { order_id: "A/1 ?", expand: true });
    expect(reply.status, reply.text).toBe(200);
    expect(reply.headers.get("x-svc-gate")).toBe("ok");
    expect(reply.body).toMatchObject({
      tool: "get_order",
      status: "succeeded",
      result: { status_code: 200, body: { id: "A/1 ?", status: "shipped", total: 42.5, items: [{ sku: "A-1", qty: 2 }] } },
    });
    expect(reply.body.duration_ms).toEqual(expect.any(Number));
    const sent = shop().requests.slice(before);
    expect(sent).toHaveLength(1);
    expect(sent[0]).toMatchObject({ method: "GET", path: "/api/orders/A%2F1%20%3F", query: { expand: "true" } });
    expect(sent[0]!.headers["x-api-key"]).toBe(SHOP_API_KEY);

    const refund = await invoke(ws, "refund_order", { order_id: "A-1", amount: 12.5, reason: null });
    expect(refund.body).toMatchObject({ status: "succeeded", result: { status_code: 201, body: { refund_id: "rf_1", order_id: "A-1", amount: 12.5 } } });
    const posted = shop().requests.at(-1)!;
    expect(posted).toMatchObject({ method: "POST", path: "/api/refunds" });
    expect(posted.headers["content-type"]).toBe("application/json");
    expect(JSON.parse(posted.body)).toEqual({ order_id: "A-1", amount: 12.5, reason: null });
    // Arguments may also come as the JSON text of an OpenAI tool call.
    const asText = await call(server, "POST", "/api/v1/svc/tools/get_order/invoke", { key: ws.key, body: { arguments: JSON.stringify({ order_id: "B-2" }) } });
    expect(asText.body).toMatchObject({ status: "succeeded", result: { body: { id: "B-2" } } });
  });

  it("applies bearer, basic and query API keys as each operation's security scheme says", async () => {
    const ws = await newWorkspace(server);
    await importShop(ws, { credential_id: await credential(ws, { token: SHOP_TOKEN }) });
    expect((await invoke(ws, "whoami_bearer", {})).body).toMatchObject({ status: "succeeded", result: { status_code: 200 } });
    expect(shop().requests.at(-1)!.headers.authorization).toBe(`Bearer ${SHOP_TOKEN}`);

    const basic = await newWorkspace(server);
    await call(server, "POST", OPENAPI, { key: basic.key, body: { name: "shop", specUrl: `${shop().url}/openapi.json`, credentialId: await credential(basic, SHOP_USER) } });
    expect((await invoke(basic, "whoami_basic", {})).body).toMatchObject({ status: "succeeded", result: { body: { user: "clerk" } } });

    const queryKey = await newWorkspace(server);
    await importShop(queryKey, { credential_id: await credential(queryKey, { api_key: SHOP_API_KEY }) });
    expect((await invoke(queryKey, "whoami_query", {})).body).toMatchObject({ status: "succeeded", result: { body: { ok: true } } });
    // Without a credential the service answers 401: a failed call, not a broken connection.
    const none = await newWorkspace(server);
    await importShop(none);
    const refused = await invoke(none, "get_order", { order_id: "A-1" });
    expect(refused.body).toMatchObject({ status: "failed", result: { status_code: 401 } });
    expect(shop().requests.at(-1)!.headers["x-api-key"]).toBeUndefined();
  });

  it("accepts spec_content as an object or as YAML text (servers then absolute), and follows redirects to the document", async () => {
    const ws = await newWorkspace(server);
    const absolute = { ...SHOP_SPEC, servers: [{ url: `${shop().url}/api` }] };
    const asObject = await call(server, "POST", OPENAPI, { key: ws.key, body: { name: "inline", spec_content: absolute } });
    expect(asObject.status, asObject.text).toBe(201);
    expect(asObject.body.spec_url).toBeUndefined();
    expect(asObject.body.tools_registered).toBe(7);

    const other = await newWorkspace(server);
    const asYaml = await call(server, "POST", OPENAPI, { key: other.key, body: { name: "yaml", specContent: stringify(absolute) } });
    expect(asYaml.status, asYaml.text).toBe(201);
    expect((await invoke(other, "shop_status", {})).status).toBe(200);
    // A tool without arguments may be called with no body at all (clients send none on action POSTs).
    const bare = await call(server, "POST", "/api/v1/svc/tools/shop_status/invoke", { key: other.key, rawBody: "", headers: { "content-type": "application/json" } });
    expect(bare.status, bare.text).toBe(200);

    const third = await newWorkspace(server);
    const redirected = await call(server, "POST", OPENAPI, { key: third.key, body: { name: "moved", spec_url: `${shop().url}/redirect?to=/openapi.json` } });
    expect(redirected.status, redirected.text).toBe(201);
  });

  it("de-duplicates tool names within the workspace; validates arguments before any call", async () => {
    const ws = await newWorkspace(server);
    await importShop(ws);
    const second = await importShop(ws);
    expect(second.body.functions).toContain("get_order_2");
    const names = (await call(server, "GET", "/api/v1/svc/tools", { key: ws.key })).body.data.map((d: any) => d.function.name);
    expect(new Set(names).size).toBe(14);

    const before = shop().requests.length;
    const missing = expectError(await invoke(ws, "get_order", {}), 400, "tool_arguments_invalid");
    expect(missing.error.details).toEqual([{ field: "arguments.order_id", message: "is required" }]);
    const wrong = expectError(await invoke(ws, "get_order", { order_id: "A-1", expand: "yes", color: "red" }), 400, "tool_arguments_invalid");
    expect(wrong.error.details).toEqual(
      expect.arrayContaining([
        { field: "arguments.expand", message: "must be boolean" },
        { field: "arguments.color", message: "is not a known field" },
      ]),
    );
    expectError(await invoke(ws, "refund_order", { order_id: "A-1", amount: 0 }), 400, "tool_arguments_invalid");
    expectError(await invoke(ws, "get_order", [1, 2]), 400, "invalid_request");
    expectError(await call(server, "POST", "/api/v1/svc/tools/get_order/invoke", { key: ws.key, body: { arguments: "{not json" } }), 400, "tool_arguments_invalid");
    expect(reply404(await invoke(ws, "no_such_tool", {}))).toBe(true);
    expect(shop().requests.length).toBe(before);
  });

  it("the contract's errors: http URL 400, fetch 500, parse 500, missing fields 500, generation 500, unknown credential 404", async () => {
    const ws = await newWorkspace(server);
    const post = (body: Record<string, unknown>) => call(server, "POST", OPENAPI, { key: ws.key, body: { name: "x", ...body } });
    expectError(await post({ spec_url: `http://127.0.0.1:1/openapi.json` }), 400, "openapi_invalid_url");
    expectError(await post({ spec_url: "not a url" }), 400, "openapi_invalid_url");
    expectError(await post({}), 400, "invalid_request");
    expectError(await call(server, "POST", OPENAPI, { key: ws.key, body: { spec_url: `${shop().url}/openapi.json` } }), 400, "invalid_request");
    expect(expectError(await post({ spec_url: `${shop().url}/missing` }), 500, "openapi_fetch_failed").error.message).toContain("HTTP 404");
    expect(expectError(await post({ spec_url: `${shop().url}/huge` }), 500, "openapi_fetch_failed").error.message).toContain("more than");
    expect(expectError(await post({ spec_url: `${shop().url}/slow` }), 500, "openapi_fetch_failed").error.message).toContain("did not answer");
    expect(expectError(await post({ spec_url: "https://127.0.0.1:1/x" }), 500, "openapi_fetch_failed").error.message).toContain("refused");
    expectError(await post({ spec_url: `${shop().url}/not-a-document` }), 500, "openapi_read_failed");
    expectError(await post({ spec_url: `${shop().url}/html` }), 500, "openapi_read_failed");
    expectError(await post({ spec_content: "{ broken json" }), 500, "openapi_read_failed");
    const noPaths = expectError(await post({ spec_url: `${shop().url}/no-paths` }), 500, "openapi_invalid_spec");
    expect(noPaths.error.details).toEqual([{ field: "paths", message: "is required (an object)" }]);
    expect(expectError(await post({ spec_url: `${shop().url}/swagger` }), 500, "openapi_invalid_spec").error.message).toContain("Swagger");
    // A relative server with nothing to resolve it against; an unresolvable $ref; no operations.
    expectError(await post({ spec_content: SHOP_SPEC }), 500, "openapi_generation_failed");
    const badRef = { ...SHOP_SPEC, servers: [{ url: "https://api.example.com" }], paths: { "/x": { get: { parameters: [{ $ref: "#/components/parameters/Nope" }] } } } };
    expect(expectError(await post({ spec_content: badRef }), 500, "openapi_generation_failed").error.message).toContain("#/components/parameters/Nope");
    expectError(await post({ spec_content: { openapi: "3.1.0", info: { title: "x", version: "1" }, servers: [{ url: "https://api.example.com" }], paths: {} } }), 500, "openapi_generation_failed");
    expectError(await post({ spec_content: { ...SHOP_SPEC, servers: [{ url: "http://api.example.com" }] } }), 500, "openapi_generation_failed");
    const unknown = expectError(await post({ spec_url: `${shop().url}/openapi.json`, credential_id: "cred_nope" }), 404, "credential_not_found");
    expect(unknown.error.details).toEqual([{ field: "credential_id", message: "is not a credential of this workspace" }]);
    expect((await call(server, "GET", "/api/v1/svc/connections", { key: ws.key })).body.count).toBe(0);
  });
});

function reply404(reply: Reply): boolean {
  expectError(reply, 404, "tool_not_found");
  return true;
}

describe("outbound address rules (no allow-list)", () => {
  it("refuses loopback, localhost, private, metadata and IPv6 loopback addresses: 500 openapi_fetch_failed saying the address is not allowed", async () => {
    const ws = await newWorkspace(guarded());
    const port = new URL(shop().url).port;
    for (const url of [
      `https://127.0.0.1:${port}/openapi.json`,
      `https://localhost:${port}/openapi.json`,
      "https://10.0.0.1/openapi.json",
      "https://169.254.169.254/latest/meta-data/",
      `https://[::1]:${port}/openapi.json`,
      `https://[::ffff:127.0.0.1]:${port}/openapi.json`,
      `https://[::ffff:0:7f00:1]:${port}/openapi.json`,
      `https://[64:ff9b::7f00:1]:${port}/openapi.json`,
      "https://192.168.1.1/openapi.json",
      "https://100.64.0.1/openapi.json",
      "https://[fd00::1]/openapi.json",
    ]) {
      const reply = await call(guarded(), "POST", OPENAPI, { key: ws.key, body: { name: "x", spec_url: url } });
      const body = expectError(reply, 500, "openapi_fetch_failed");
      expect(body.error.message, url).toMatch(/The address .* is not allowed/);
    }
    expectError(await call(guarded(), "POST", OPENAPI, { key: ws.key, body: { name: "x", spec_url: `http://127.0.0.1:${port}/openapi.json` } }), 400, "openapi_invalid_url");
  });

  it("re-checks every redirect: an allowed host redirecting to loopback is refused", async () => {
    const ws = await newWorkspace(onlySecond());
    const target = `${shop().url}/openapi.json`;
    const reply = await call(onlySecond(), "POST", OPENAPI, { key: ws.key, body: { name: "x", spec_url: `${shop().url2}/redirect?to=${encodeURIComponent(target)}` } });
    expect(expectError(reply, 500, "openapi_fetch_failed").error.message).toContain("The address 127.0.0.1 is not allowed (loopback)");
    // The allowed host itself works, and its tools call it.
    const direct = await call(onlySecond(), "POST", OPENAPI, { key: ws.key, body: { name: "x", spec_url: `${shop().url2}/openapi.json` } });
    expect(direct.status, direct.text).toBe(201);
    expect((await invoke(ws, "shop_status", {}, onlySecond())).body.result.status_code).toBe(503);
    // A redirect to http is refused too (documents and tools travel over HTTPS only).
    const toHttp = await call(onlySecond(), "POST", OPENAPI, { key: ws.key, body: { name: "x", spec_url: `${shop().url2}/redirect?to=${encodeURIComponent("http://127.0.0.2/openapi.json")}` } });
    expect(expectError(toHttp, 500, "openapi_fetch_failed").error.message).toContain("only https");
  });
});

describe("OpenAPI connections", () => {
  it("appear in GET /connections and /capabilities; DELETE removes their tools; other workspaces see, call and delete nothing", async () => {
    const a = await newWorkspace(server);
    const b = await newWorkspace(server);
    const imported = await importShop(a, { credential_id: await credential(a, { api_key: SHOP_API_KEY }) });
    const id = imported.body.id;

    const list = await call(server, "GET", "/api/v1/svc/connections", { key: a.key });
    expect(list.body.items).toEqual([expect.objectContaining({ id, kind: "openapi", name: "shop", provider: "openapi:shop", status: "connected", health: "healthy", spec_url: `${shop().url}/openapi.yaml` })]);
    expect(list.body.items[0].capabilities).toContain("get_order");
    expect(list.body.connections.find((g: any) => g.capability === "get_order")).toMatchObject({ status: "healthy", pathways: [{ id, connector: "openapi", transport: "http", health: "healthy" }] });
    const caps = await call(server, "GET", "/api/v1/svc/capabilities", { key: a.key });
    expect(caps.body.available).toContainEqual(expect.objectContaining({ name: "get_order", description: "Look up an order", source: "openapi", health: "healthy", functions: ["get_order"] }));
    const resolved = await call(server, "POST", "/api/v1/svc/connections", { key: a.key, body: { capability: "get_order" } });
    expect(resolved.body).toMatchObject({ type: "prebuilt", detail: { tool_id: id, tool_name: "get_order", connector: "openapi" } });
    await new Promise((r) => setTimeout(r, 20));
    expect((await call(server, "GET", "/api/v1/svc/health", { key: a.key })).body.connections).toEqual({ total: 1, healthy: 1 });

    // Workspace B: nothing of A.
    expect((await call(server, "GET", "/api/v1/svc/tools", { key: b.key })).body).toEqual({ object: "list", data: [] });
    expect((await call(server, "GET", "/api/v1/svc/connections", { key: b.key })).body.count).toBe(0);
    expectError(await invoke(b, "get_order", { order_id: "A-1" }), 404, "tool_not_found");
    expectError(await call(server, "DELETE", `/api/v1/svc/connections/${id}`, { key: b.key }), 404, "connection_not_found");
    expect((await invoke(a, "get_order", { order_id: "A-1" })).body.status).toBe("succeeded");

    const deleted = await call(server, "DELETE", `/api/v1/svc/connections/${id}`, { key: a.key });
    expect(deleted.body).toEqual({ id, status: "deleted" });
    expect((await call(server, "GET", "/api/v1/svc/tools", { key: a.key })).body.data).toEqual([]);
    expectError(await invoke(a, "get_order", { order_id: "A-1" }), 404, "tool_not_found");
    const audit = await server.services.audit.list(a.id, 10);
    // The governance decision is an entry of its own, before the call it allowed.
    expect(audit.map((e) => e.action)).toEqual(["connection.delete", "tool.invoke", "governance.approved", "connection.register", "credential.bind", "credential.create"]);
    expect(audit[1]!.details).toMatchObject({ tool: "get_order", connection_id: id, decision: "approved", status: "succeeded", argument_names: ["order_id"] });
    expect(audit[2]).toMatchObject({ resourceType: "tool", resourceId: "get_order", details: { gate: "run", decision: "approved" } });
  });

  it("another process on the same database picks up new and deleted connections (NOTIFY)", async () => {
    const ws = await newWorkspace(server);
    const other = guarded();
    // The other process has the workspace's (empty) tool set cached.
    expect((await call(other, "GET", "/api/v1/svc/tools", { key: ws.key })).body.data).toEqual([]);
    const spec = { ...SHOP_SPEC, servers: [{ url: `${shop().url}/api` }] };
    const id = (await call(server, "POST", OPENAPI, { key: ws.key, body: { name: "shop", spec_content: spec } })).body.id;
    await vi.waitFor(async () => expect((await call(other, "GET", "/api/v1/svc/tools", { key: ws.key })).body.data).toHaveLength(7), { timeout: 5_000 });
    await call(server, "DELETE", `/api/v1/svc/connections/${id}`, { key: ws.key });
    await vi.waitFor(async () => expect((await call(other, "GET", "/api/v1/svc/tools", { key: ws.key })).body.data).toEqual([]), { timeout: 5_000 });
    expectError(await invoke(ws, "shop_status", {}, other), 404, "tool_not_found");
  });

  it("becomes degraded after 3 of its last 5 calls failed (5xx), shows it everywhere, and recovers on a success", async () => {
    const ws = await newWorkspace(server);
    const id = (await importShop(ws, { credential_id: await credential(ws, { api_key: SHOP_API_KEY }) })).body.id;
    shop().broken = true;
    const failed = await invoke(ws, "shop_status", {});
    expect(failed.status).toBe(200);
    expect(failed.body).toMatchObject({ status: "failed", result: { status_code: 503, body: { error: "maintenance" } } });
    await invoke(ws, "shop_status", {});
    expect(server.services.connections.health(ws.id, id).status).toBe("healthy");
    // A 4xx (no bearer token in this credential) is the caller's problem: the service answered, so it counts as working.
    expect((await invoke(ws, "whoami_bearer", {})).body).toMatchObject({ status: "failed", result: { status_code: 401 } });
    expect(server.services.connections.health(ws.id, id)).toMatchObject({ status: "healthy", recentCalls: 3, recentFailures: 2 });
    await invoke(ws, "shop_status", {});
    expect(server.services.connections.health(ws.id, id)).toMatchObject({ status: "degraded", recentFailures: 3, lastError: "HTTP 503" });

    const list = await call(server, "GET", "/api/v1/svc/connections", { key: ws.key });
    expect(list.body.items[0]).toMatchObject({ id, status: "degraded", health: "degraded" });
    expect(list.body.connections.find((g: any) => g.capability === "shop_status")).toMatchObject({ status: "degraded", pathways: [{ health: "degraded" }] });
    const caps = await call(server, "GET", "/api/v1/svc/capabilities", { key: ws.key });
    expect(caps.body.available.find((c: any) => c.name === "shop_status")).toMatchObject({ health: "degraded", status: "degraded" });
    const health = await call(server, "GET", "/api/v1/svc/health", { key: ws.key });
    expect(health.body.connections).toEqual({ total: 1, healthy: 0 });
    expect(health.body.status).toBe("degraded");

    shop().broken = false;
    expect((await invoke(ws, "shop_status", {})).body.status).toBe("succeeded");
    expect(server.services.connections.health(ws.id, id).status).toBe("healthy");
    expect((await call(server, "GET", "/api/v1/svc/health", { key: ws.key })).body.connections).toEqual({ total: 1, healthy: 1 });
    shop().broken = true;
  });

  it("unreachable servers are failed calls (transport errors count toward degraded)", async () => {
    const ws = await newWorkspace(server);
    const spec = { ...SHOP_SPEC, servers: [{ url: "https://127.0.0.1:1/api" }] };
    const id = (await call(server, "POST", OPENAPI, { key: ws.key, body: { name: "gone", spec_content: spec } })).body.id;
    for (let i = 0; i < 3; i++) {
      const reply = await invoke(ws, "shop_status", {});
      expect(reply.body).toMatchObject({ status: "failed", result: { error: expect.stringContaining("refused the connection") } });
    }
    expect(server.services.connections.health(ws.id, id).status).toBe("degraded");
  });

  it("never shows the credential in responses, audit entries or logs", async () => {
    const ws = await newWorkspace(server);
    const cred = await credential(ws, { api_key: SHOP_API_KEY, token: SHOP_TOKEN, ...SHOP_USER });
    const texts: string[] = [];
    const keep = (reply: Reply) => (texts.push(reply.text), reply);
    const imported = keep(await importShop(ws, { credential_id: cred }));
    keep(await invoke(ws, "get_order", { order_id: "A-1" }));
    keep(await invoke(ws, "whoami_bearer", {}));
    keep(await invoke(ws, "whoami_basic", {}));
    keep(await invoke(ws, "whoami_query", {}));
    keep(await invoke(ws, "shop_status", {}));
    keep(await call(server, "GET", "/api/v1/svc/tools", { key: ws.key }));
    keep(await call(server, "GET", "/api/v1/svc/connections", { key: ws.key }));
    keep(await call(server, "GET", "/api/v1/svc/capabilities", { key: ws.key }));
    // The secrets did travel, to the service they are for.
    expect(shop().requests.some((r) => r.headers.authorization === `Bearer ${SHOP_TOKEN}`)).toBe(true);
    const audit = await query(server, sql`select details::text as details from audit_entries where workspace_id = ${ws.id}`);
    const stored = await query(server, sql`select config::text as config from connections where id = ${imported.body.id}`);
    const everything = [...texts, ...audit.map((r) => r.details), stored[0].config, captured.text()].join("\n");
    for (const secret of [SHOP_API_KEY, SHOP_TOKEN, SHOP_USER.password, Buffer.from(`${SHOP_USER.username}:${SHOP_USER.password}`).toString("base64")]) {
      expect(everything).not.toContain(secret);
    }
  });
});
