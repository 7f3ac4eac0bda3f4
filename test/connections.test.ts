import { describe, expect, it } from "vitest";
import { CATALOG } from "../src/modules/connections/catalog.ts";
import { call, expectError, newWorkspace, useServer } from "./helpers/server.ts";

const server = useServer();
const REQUIRED = ["slack", "gmail", "google_calendar", "outlook", "microsoft_teams", "github", "gitlab", "jira", "linear", "asana", "notion", "google_drive", "salesforce", "hubspot", "zendesk", "intercom", "stripe", "shopify", "twilio", "pagerduty", "datadog", "aws", "postgres", "http"];

describe("connections catalog", () => {
  it("offers at least 25 integrations, including every one the issue names, grouped by category", async () => {
    const ws = await newWorkspace(server());
    const reply = await call(server(), "GET", "/api/v1/svc/connections/catalog", { key: ws.key });
    expect(reply.status).toBe(200);
    const all = reply.body.categories.flatMap((c: { integrations: { id: string }[] }) => c.integrations);
    expect(reply.body.total_available).toBe(all.length);
    expect(all.length).toBeGreaterThanOrEqual(25);
    expect(all.map((i: { id: string }) => i.id)).toEqual(expect.arrayContaining(REQUIRED));
    for (const entry of all) {
      expect(entry).toMatchObject({ status: "available" });
      expect(entry.capabilities.length).toBeGreaterThan(0);
      for (const field of ["id", "name", "description", "category", "auth_type", "provider"]) expect(typeof entry[field]).toBe("string");
    }
    expect(reply.body.installed).toEqual([]);
    expect(new Set(CATALOG.map((c) => c.id)).size).toBe(CATALOG.length);
  });
});

describe("installing integrations", () => {
  it("is pending_auth until a credential for its provider exists, then connected", async () => {
    const ws = await newWorkspace(server());
    const installed = await call(server(), "POST", "/api/v1/svc/connections/install", { key: ws.key, body: { integration_id: "stripe" } });
    expect(installed.status).toBe(201);
    expect(installed.body).toMatchObject({ integration_id: "stripe", provider: "stripe", status: "pending_auth", health: "latent", auth_url: "/api/v1/svc/credentials" });
    expect(installed.body.id).toMatch(/^con_/);
    const again = await call(server(), "POST", "/api/v1/svc/connections/install", { key: ws.key, body: { integration_id: "stripe" } });
    expect(again.status).toBe(200);
    expect(again.body.id).toBe(installed.body.id);

    let caps = await call(server(), "GET", "/api/v1/svc/capabilities", { key: ws.key });
    expect(caps.body.available).toEqual([]);
    expect(caps.body.gaps.map((g: { capability: string }) => g.capability)).toContain("refund payment");
    let health = await call(server(), "GET", "/api/v1/svc/health", { key: ws.key });
    expect(health.body.connections).toEqual({ total: 1, healthy: 0 });
    expect(health.body.status).toBe("degraded");

    const credential = await call(server(), "POST", "/api/v1/svc/credentials", { key: ws.key, body: { provider: "stripe", name: "live", key_data: { api_key: "rk_test_0123456789abcdef" } } });
    expect(credential.status).toBe(201);
    const list = await call(server(), "GET", "/api/v1/svc/connections", { key: ws.key });
    expect(list.body.items).toHaveLength(1);
    expect(list.body.items[0]).toMatchObject({ id: installed.body.id, status: "connected", health: "healthy" });
    const refund = list.body.connections.find((g: { capability: string }) => g.capability === "refund payment");
    expect(refund).toMatchObject({ status: "healthy", pathways: [{ id: installed.body.id, health: "healthy" }] });
    caps = await call(server(), "GET", "/api/v1/svc/capabilities", { key: ws.key });
    expect(caps.body.available.map((c: { name: string }) => c.name)).toContain("refund payment");
    expect(caps.body.gaps).toEqual([]);
    // The in-memory health summary follows within the request that changed it.
    await new Promise((r) => setTimeout(r, 50));
    health = await call(server(), "GET", "/api/v1/svc/health", { key: ws.key });
    expect(health.body.connections).toEqual({ total: 1, healthy: 1 });
    expect(health.body.status).toBe("healthy");
  });

  it("an unknown integration: 404 connection_not_found", async () => {
    const ws = await newWorkspace(server());
    expectError(await call(server(), "POST", "/api/v1/svc/connections/install", { key: ws.key, body: { integration_id: "myspace" } }), 404, "connection_not_found");
    expectError(await call(server(), "POST", "/api/v1/svc/connections/install", { key: ws.key, body: {} }), 400, "invalid_request");
  });

  it("deletes a connection (200 with a small JSON object); another workspace's: 404", async () => {
    const a = await newWorkspace(server());
    const b = await newWorkspace(server());
    const installed = await call(server(), "POST", "/api/v1/svc/connections/install", { key: a.key, body: { integration_id: "slack" } });
    expect((await call(server(), "GET", "/api/v1/svc/connections", { key: b.key })).body.count).toBe(0);
    expectError(await call(server(), "DELETE", `/api/v1/svc/connections/${installed.body.id}`, { key: b.key }), 404, "connection_not_found");
    const deleted = await call(server(), "DELETE", `/api/v1/svc/connections/${installed.body.id}`, { key: a.key });
    expect(deleted.body).toEqual({ id: installed.body.id, status: "deleted" });
    expect((await call(server(), "GET", "/api/v1/svc/connections", { key: a.key })).body.count).toBe(0);
    expectError(await call(server(), "DELETE", `/api/v1/svc/connections/${installed.body.id}`, { key: a.key }), 404, "connection_not_found");
    const entries = await server().services.audit.list(a.id, 5);
    expect(entries.map((e) => e.action)).toEqual(["connection.delete", "connection.install"]);
  });
});

describe("resolving a capability (POST /connections)", () => {
  it("prebuilt when connected, schema_required when awaiting a credential, manual when only in the catalog, 404 when unknown", async () => {
    const ws = await newWorkspace(server());
    const manual = await call(server(), "POST", "/api/v1/svc/connections", { key: ws.key, body: { capability: "create issue" } });
    expect(manual.status).toBe(200);
    expect(manual.body.type).toBe("manual");
    expect(manual.body.detail.available).toBe(false);
    expect(manual.body.detail.integrations.map((i: { id: string }) => i.id)).toEqual(expect.arrayContaining(["github", "jira", "linear"]));

    await call(server(), "POST", "/api/v1/svc/connections/install", { key: ws.key, body: { integration_id: "github" } });
    const pending = await call(server(), "POST", "/api/v1/svc/connections", { key: ws.key, body: { capability: "create_issue" } });
    expect(pending.body).toMatchObject({ type: "schema_required", detail: { service_id: "github", auth_url: "/api/v1/svc/credentials" } });

    await call(server(), "POST", "/api/v1/svc/credentials", { key: ws.key, body: { provider: "github", name: "ci", key_data: { token: "not-a-real-token-123" } } });
    const ready = await call(server(), "POST", "/api/v1/svc/connections", { key: ws.key, body: { capability: "Create Issue" } });
    expect(ready.body).toMatchObject({ type: "prebuilt", capability: "Create Issue", detail: { service_id: "github", auth_type: "bearer" } });

    const unknown = expectError(await call(server(), "POST", "/api/v1/svc/connections", { key: ws.key, body: { capability: "teleport payment" } }), 404, "connection_not_found");
    expect(unknown.error.hint).toContain("payment");
  });
});
