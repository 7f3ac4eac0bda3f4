import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { call, expectError, newWorkspace, query, startServer, type Reply, type TestServer, capturedLogger } from "./helpers/server.ts";

// Everything the server logs, at the most verbose level, so a test can look for secrets in it.
const captured = capturedLogger();
let server: TestServer;
beforeAll(async () => {
  server = await startServer({ SVC_LOG_LEVEL: "trace" }, { logger: captured.logger });
});
afterAll(async () => {
  await server?.close();
});

const path = "/api/v1/svc/credentials";

describe("credentials", () => {
  it("stores a credential and answers metadata only", async () => {
    const ws = await newWorkspace(server);
    const created = await call(server, "POST", path, { key: ws.key, body: { provider: "Stripe", name: "live", key_data: { api_key: "rk_live_abcdef0123456789" } } });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ provider: "stripe", name: "live", credential_name: "live", type: "api_key", is_active: true, has_credential_data: true });
    expect(created.body.id).toMatch(/^cred_/);
    expect(created.text).not.toContain("rk_live_abcdef0123456789");
    expect(created.text).not.toContain("key_data");
    const listed = await call(server, "GET", path, { key: ws.key });
    expect(listed.body.count).toBe(1);
    expect(listed.body.credentials[0]).toEqual(created.body);
  });

  it("infers the type from the fields, or takes the one given", async () => {
    const ws = await newWorkspace(server);
    const basic = await call(server, "POST", path, { key: ws.key, body: { provider: "jira", name: "bot", key_data: { username: "bot", password: "pw-123456789" } } });
    const oauth = await call(server, "POST", path, { key: ws.key, body: { provider: "slack", name: "app", key_data: { access_token: "tok-123456789" } } });
    const given = await call(server, "POST", path, { key: ws.key, body: { provider: "x", name: "y", type: "session", key_data: "cookie-value-123" } });
    expect([basic.body.type, oauth.body.type, given.body.type]).toEqual(["basic", "oauth2", "session"]);
  });

  it("missing provider, name or key_data: 500 credential_creation_failed naming the field", async () => {
    const ws = await newWorkspace(server);
    const noProvider = expectError(await call(server, "POST", path, { key: ws.key, body: { name: "n", key_data: { a: "b" } } }), 500, "credential_creation_failed");
    expect(noProvider.error.details.map((d: { field: string }) => d.field)).toEqual(["provider"]);
    const noData = expectError(await call(server, "POST", path, { key: ws.key, body: { provider: "p", name: "n", key_data: {} } }), 500, "credential_creation_failed");
    expect(noData.error.details.map((d: { field: string }) => d.field)).toEqual(["key_data"]);
    expectError(await call(server, "POST", path, { key: ws.key, body: { provider: "p", key_data: { a: "b" } } }), 500, "credential_creation_failed");
    expectError(await call(server, "POST", path, { key: ws.key, body: { provider: "p", name: "n", key_data: { a: "b" }, type: "magic" } }), 500, "credential_creation_failed");
    expect((await call(server, "GET", path, { key: ws.key })).body.count).toBe(0);
  });

  it("deletes (200 with a small JSON object); unknown or another workspace's: 404 credential_not_found", async () => {
    const a = await newWorkspace(server);
    const b = await newWorkspace(server);
    const created = await call(server, "POST", path, { key: a.key, body: { provider: "github", name: "ci", key_data: { token: "ghp-not-a-real-one-123" } } });
    expect((await call(server, "GET", path, { key: b.key })).body.count).toBe(0);
    expectError(await call(server, "DELETE", `${path}/${created.body.id}`, { key: b.key }), 404, "credential_not_found");
    const deleted = await call(server, "DELETE", `${path}/${created.body.id}`, { key: a.key });
    expect(deleted.status).toBe(200);
    expect(deleted.body).toEqual({ id: created.body.id, status: "deleted" });
    expectError(await call(server, "DELETE", `${path}/${created.body.id}`, { key: a.key }), 404, "credential_not_found");
    expect((await call(server, "GET", path, { key: a.key })).body.count).toBe(0);
    const rows = await query(server, sql`select secret from credentials where id = ${created.body.id}`);
    expect(rows[0].secret).toBe("");
  });

  it("is encrypted at rest under the workspace's data key, and opens only for its own record", async () => {
    const ws = await newWorkspace(server);
    const secret = "sk_live_AtRestCheck0123456789";
    const created = await call(server, "POST", path, { key: ws.key, body: { provider: "stripe", name: "rest", key_data: { api_key: secret } } });
    const rows = await query(server, sql`select * from credentials where id = ${created.body.id}`);
    expect(JSON.stringify(rows)).not.toContain(secret);
    expect(Buffer.from(rows[0].secret, "base64").length).toBeGreaterThan(28);
    const keys = await query(server, sql`select * from workspace_data_keys where workspace_id = ${ws.id}`);
    expect(keys).toHaveLength(1);
    expect(await server.services.credentials.reveal(ws.id, created.body.id, { url: new URL("https://api.stripe.com/v1") })).toEqual({ api_key: secret });
    // A sealed value moved to another record does not open.
    const other = await call(server, "POST", path, { key: ws.key, body: { provider: "stripe", name: "other", key_data: { api_key: "x-123456789" } } });
    await query(server, sql`update credentials set secret = ${rows[0].secret} where id = ${other.body.id}`);
    await expect(server.services.credentials.reveal(ws.id, other.body.id, { url: new URL("https://api.stripe.com/v1") })).rejects.toThrow();
  });

  it("secrets never appear in responses, logs, traces or audit entries", async () => {
    const ws = await newWorkspace(server);
    const secret = "SECRET-VALUE-7f3a9c1e5b2d4-never-printed";
    const replies: Reply[] = [];
    replies.push(await call(server, "POST", path, { key: ws.key, body: { provider: "hubspot", name: "crm", key_data: { api_key: secret } } }));
    replies.push(await call(server, "POST", path, { key: ws.key, body: { provider: "hubspot", key_data: { api_key: secret } } }));
    replies.push(await call(server, "POST", path, { key: ws.key, body: { provider: 5, name: "x", key_data: { api_key: secret } } }));
    replies.push(await call(server, "POST", path, { key: ws.key, rawBody: `{"provider": "x", "key_data": {"api_key": "${secret}"` }));
    replies.push(await call(server, "GET", path, { key: ws.key }));
    replies.push(await call(server, "POST", "/api/v1/svc/memory", { key: ws.key, body: { type: "note", content: { text: `api_key = ${secret}` } } }));
    for (const reply of replies) expect(reply.text).not.toContain(secret);
    expect(replies[0]!.status).toBe(201);
    expect(captured.text().length).toBeGreaterThan(0);
    expect(captured.text()).not.toContain(secret);
    expect(captured.text()).not.toContain(ws.key);
    const audit = await query(server, sql`select * from audit_entries where workspace_id = ${ws.id}`);
    expect(audit.length).toBeGreaterThan(0);
    expect(JSON.stringify(audit)).not.toContain(secret);
    expect(audit[0].details.fields).toEqual(["api_key"]);
  });
});

describe("the master key", () => {
  it("is generated once in the data directory (mode 0600) when SVC_MASTER_KEY is unset, and reused", async () => {
    const { mkdtempSync, statSync, rmSync } = await import("node:fs");
    const { tmpdir } = await import("node:os");
    const { join } = await import("node:path");
    const { loadConfig } = await import("../src/config.ts");
    const { resolveMasterKey } = await import("../src/modules/credentials/vault.ts");
    const dir = mkdtempSync(join(tmpdir(), "svc-mk-"));
    try {
      const captured = capturedLogger();
      const log = captured.logger;
      const config = loadConfig({ SVC_DATA_DIR: dir });
      const first = resolveMasterKey(config, log);
      expect(first).toHaveLength(32);
      expect(statSync(join(dir, "master.key")).mode & 0o777).toBe(0o600);
      expect(captured.text()).toContain("generated a master key");
      expect(captured.text()).not.toContain(first.toString("base64"));
      expect(resolveMasterKey(config, log)).toEqual(first);
      const given = Buffer.alloc(32, 7);
      expect(resolveMasterKey(loadConfig({ SVC_DATA_DIR: dir, SVC_MASTER_KEY: given.toString("hex") }), log)).toEqual(given);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
