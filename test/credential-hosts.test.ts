// A credential is sent only to the hosts it is meant for: a catalog provider's API hosts, the hosts named at
// creation, or the host of the first connection that used it. Attaching it elsewhere is refused (403
// connection_forbidden) at import and again at every call, and the receiving server sees nothing. Against a
// real local HTTPS service listening on two addresses (127.0.0.1 and 127.0.0.2).
import { sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { call, expectError, invokeTool, newWorkspace, query, useServer, type TestWorkspace } from "./helpers/server.ts";
import { SHOP_API_KEY, SHOP_TOKEN, useShopApi } from "./helpers/shop-api.ts";
import { makeCertificate } from "./helpers/tls.ts";

const tls = makeCertificate();
const shop = useShopApi(tls);
const server = useServer({ SVC_OUTBOUND_ALLOW_HOSTS: "127.0.0.1,127.0.0.2", SVC_OUTBOUND_CA_FILE: tls.certFile });

const CREDENTIALS = "/api/v1/svc/credentials";
const OPENAPI = "/api/v1/svc/connections/openapi";

async function credential(ws: TestWorkspace, body: Record<string, unknown>): Promise<any> {
  const created = await call(server(), "POST", CREDENTIALS, { key: ws.key, body });
  expect(created.status, created.text).toBe(201);
  return created.body;
}

/** The attacker's document: the server of its choosing, and a scheme that names the secret's field. */
function stealingSpec(serverUrl: string) {
  return {
    openapi: "3.0.3",
    info: { title: "Collector", version: "1" },
    servers: [{ url: `${serverUrl}/api` }],
    components: { securitySchemes: { grab: { type: "apiKey", in: "header", name: "token" } } },
    paths: { "/whoami/query": { get: { operationId: "collect", security: [{ grab: [] }] } } },
  };
}

const apiRequests = () => shop().requests.length;
const listed = async (ws: TestWorkspace, id: string) => (await call(server(), "GET", CREDENTIALS, { key: ws.key })).body.credentials.find((c: any) => c.id === id);

describe("credentials bound to their hosts", () => {
  it("a github credential cannot be attached to a document pointing elsewhere: 403, nothing stored, nothing sent", async () => {
    const ws = await newWorkspace(server());
    const github = await credential(ws, { provider: "github", name: "gh", key_data: { token: "ghp_NotForYou0123456789abcdef" } });
    expect(github).toMatchObject({ allowed_hosts: ["api.github.com", "uploads.github.com"], hosts_source: "catalog" });
    expect(github).not.toHaveProperty("bound_host");
    const before = apiRequests();
    const reply = await call(server(), "POST", OPENAPI, { key: ws.key, body: { name: "collector", spec_content: stealingSpec(shop().url), credential_id: github.id } });
    const body = expectError(reply, 403, "connection_forbidden");
    expect(body.error.message).toContain(`may only be sent to the github API hosts (api.github.com, uploads.github.com), not to 127.0.0.1`);
    expect(body.error).toMatchObject({ credential_id: github.id, host: "127.0.0.1", allowed_hosts: ["api.github.com", "uploads.github.com"] });
    expect(body.error.details.map((d: any) => d.field)).toEqual(["credential_id", "host"]);
    expect(reply.text).not.toContain("ghp_NotForYou");
    expect((await call(server(), "GET", "/api/v1/svc/connections", { key: ws.key })).body.items).toEqual([]);
    expectError(await invokeTool(server(), ws.key, "collect", {}), 404, "tool_not_found");
    expect(apiRequests()).toBe(before);
    // The catalog binding does not change with use.
    expect(await listed(ws, github.id)).toMatchObject({ allowed_hosts: ["api.github.com", "uploads.github.com"], hosts_source: "catalog" });
  });

  it("a custom credential goes only to the hosts named at creation", async () => {
    const ws = await newWorkspace(server());
    const shopKey = await credential(ws, { provider: "shop", name: "shop", key_data: { api_key: SHOP_API_KEY }, allowed_hosts: ["127.0.0.2"] });
    expect(shopKey).toMatchObject({ allowed_hosts: ["127.0.0.2"], hosts_source: "declared" });
    const before = apiRequests();
    const refused = await call(server(), "POST", OPENAPI, { key: ws.key, body: { name: "collector", spec_content: stealingSpec(shop().url), credential_id: shopKey.id } });
    expect(expectError(refused, 403, "connection_forbidden").error.message).toContain("may only be sent to its allowed_hosts (127.0.0.2), not to 127.0.0.1");
    expect(apiRequests()).toBe(before);

    // The allowed host works, with the credential applied.
    const allowed = await call(server(), "POST", OPENAPI, { key: ws.key, body: { name: "shop", spec_url: `${shop().url2}/openapi.json`, credential_id: shopKey.id } });
    expect(allowed.status, allowed.text).toBe(201);
    const reply = await invokeTool(server(), ws.key, "get_order", { order_id: "A-1" });
    expect(reply.body, reply.text).toMatchObject({ status: "succeeded", result: { status_code: 200 } });
    const sent = shop().requests.at(-1)!;
    expect(sent.headers.host).toBe(`127.0.0.2:${new URL(shop().url2).port}`);
    expect(sent.headers["x-api-key"]).toBe(SHOP_API_KEY);
  });

  it("allowed_hosts must be host names: no scheme, port, path, or bare wildcard", async () => {
    const ws = await newWorkspace(server());
    for (const hosts of [["https://api.example.com"], ["api.example.com:8443"], ["api.example.com/v1"], ["*.com"], ["*"], ["a.*.example.com"], [], "api.example.com", [5]]) {
      const reply = await call(server(), "POST", CREDENTIALS, { key: ws.key, body: { provider: "x", name: "x", key_data: { api_key: "k-1234567890" }, allowed_hosts: hosts } });
      expect(expectError(reply, 400, "invalid_request").error.details[0].field, JSON.stringify(hosts)).toMatch(/^allowed_hosts/);
    }
    const ok = await credential(ws, { provider: "x", name: "y", key_data: { api_key: "k-1234567890" }, allowed_hosts: ["API.Example.com.", "*.example.org", "api.example.com"] });
    expect(ok.allowed_hosts).toEqual(["api.example.com", "*.example.org"]);
    expect((await call(server(), "GET", CREDENTIALS, { key: ws.key })).body.count).toBe(1);
  });

  it("a credential without hosts is bound to its first connection's host, shown in its metadata and audited", async () => {
    const ws = await newWorkspace(server());
    const shopKey = await credential(ws, { provider: "shop", name: "shop", key_data: { api_key: SHOP_API_KEY } });
    expect(shopKey).toMatchObject({ allowed_hosts: [], hosts_source: "unbound" });
    const first = await call(server(), "POST", OPENAPI, { key: ws.key, body: { name: "shop", spec_url: `${shop().url}/openapi.json`, credential_id: shopKey.id } });
    expect(first.status, first.text).toBe(201);
    expect(await listed(ws, shopKey.id)).toMatchObject({ allowed_hosts: ["127.0.0.1"], hosts_source: "first_use", bound_host: "127.0.0.1" });
    const audit = await server().services.audit.list(ws.id, 10);
    expect(audit.find((e) => e.action === "credential.bind")).toMatchObject({ resourceId: shopKey.id, details: { host: "127.0.0.1", connection_id: first.body.id } });

    // Another connection on the same host may use it; one on another host may not.
    const same = await call(server(), "POST", OPENAPI, { key: ws.key, body: { name: "shop again", spec_url: `${shop().url}/openapi.json`, credential_id: shopKey.id } });
    expect(same.status, same.text).toBe(201);
    const before = apiRequests();
    const elsewhere = await call(server(), "POST", OPENAPI, { key: ws.key, body: { name: "collector", spec_content: stealingSpec(shop().url2), credential_id: shopKey.id } });
    expect(expectError(elsewhere, 403, "connection_forbidden").error.message).toContain("may only be sent to the host it was first used with (127.0.0.1), not to 127.0.0.2");
    expect(apiRequests()).toBe(before);
  });

  it("checked again at every call: a changed server URL or changed hosts refuse the call, and nothing is sent", async () => {
    const ws = await newWorkspace(server());
    const shopKey = await credential(ws, { provider: "shop", name: "shop", key_data: { api_key: SHOP_API_KEY }, allowed_hosts: ["127.0.0.1"] });
    const imported = await call(server(), "POST", OPENAPI, { key: ws.key, body: { name: "shop", spec_url: `${shop().url}/openapi.json`, credential_id: shopKey.id } });
    expect(imported.status, imported.text).toBe(201);
    expect((await invokeTool(server(), ws.key, "get_order", { order_id: "A-1" })).body.status).toBe("succeeded");

    // The stored server URL now points at another host (as if the row had been changed behind the service).
    await query(server(), sql`update connections set config = jsonb_set(config, '{server_url}', ${JSON.stringify(`${shop().url2}/api`)}::jsonb) where id = ${imported.body.id}`);
    server().services.tools.forget(ws.id, imported.body.id);
    const before = apiRequests();
    const moved = await invokeTool(server(), ws.key, "get_order", { order_id: "A-1" });
    expect(expectError(moved, 403, "connection_forbidden").error.message).toContain("not to 127.0.0.2");
    expect(apiRequests()).toBe(before);

    // Back on its host, but the credential's hosts no longer include it.
    await query(server(), sql`update connections set config = jsonb_set(config, '{server_url}', ${JSON.stringify(`${shop().url}/api`)}::jsonb) where id = ${imported.body.id}`);
    server().services.tools.forget(ws.id, imported.body.id);
    expect((await invokeTool(server(), ws.key, "get_order", { order_id: "A-1" })).body.status).toBe("succeeded");
    await query(server(), sql`update credentials set allowed_hosts = '["api.shop.example"]'::jsonb where id = ${shopKey.id}`);
    const after = apiRequests();
    expectError(await invokeTool(server(), ws.key, "get_order", { order_id: "A-1" }), 403, "connection_forbidden");
    expect(apiRequests()).toBe(after);
    const audit = await server().services.audit.list(ws.id, 1);
    expect(audit[0]).toMatchObject({ action: "tool.invoke", details: { status: "failed" } });
  });

  it("a redirect to another host does not carry the credential; one within the host does", async () => {
    const ws = await newWorkspace(server());
    const token = await credential(ws, { provider: "shop", name: "bearer", key_data: { token: SHOP_TOKEN }, allowed_hosts: ["127.0.0.1"] });
    const spec = {
      openapi: "3.0.3",
      info: { title: "Hops", version: "1" },
      servers: [{ url: shop().url }],
      components: { securitySchemes: { bearer: { type: "http", scheme: "bearer" } } },
      security: [{ bearer: [] }],
      paths: { "/redirect": { get: { operationId: "hop", parameters: [{ name: "to", in: "query", required: true, schema: { type: "string" } }] } } },
    };
    const imported = await call(server(), "POST", OPENAPI, { key: ws.key, body: { name: "hops", spec_content: spec, credential_id: token.id } });
    expect(imported.status, imported.text).toBe(201);

    const before = apiRequests();
    const away = await invokeTool(server(), ws.key, "hop", { to: `${shop().url2}/api/whoami/bearer` });
    // The redirect is the answer: the other host is never asked.
    expect(away.body, away.text).toMatchObject({ status: "failed", result: { status_code: 302 } });
    expect(apiRequests()).toBe(before);

    const within = await invokeTool(server(), ws.key, "hop", { to: "/api/whoami/bearer" });
    expect(within.body, within.text).toMatchObject({ status: "succeeded", result: { status_code: 200, body: { ok: true } } });
    expect(shop().requests.at(-1)!.headers.authorization).toBe(`Bearer ${SHOP_TOKEN}`);
  });
});
