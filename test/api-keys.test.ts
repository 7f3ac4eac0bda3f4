import { createHash } from "node:crypto";
import { sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { generateKey } from "../src/modules/api-keys/key-format.ts";
import { ADMIN_TOKEN, call, expectError, newWorkspace, query, useServer } from "./helpers/server.ts";

const server = useServer();
const keysPath = (workspaceId: string) => `/api/v1/maas/workspaces/${workspaceId}/api-keys`;

describe("API key lifecycle", () => {
  it("creates a key that authenticates, shows it once and stores only its digest", async () => {
    const ws = await newWorkspace(server());
    const created = await call(server(), "POST", keysPath(ws.id), { key: ADMIN_TOKEN, body: { name: "ci" } });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ name: "ci", key_prefix: "sk_svc_", status: "active" });
    expect(created.body.id).toMatch(/^key_[0-9A-Za-z]{22}$/);
    expect(created.body.plaintext).toMatch(/^sk_svc_[0-9A-Za-z]{38}$/);
    expect(new Date(created.body.created_at).toISOString()).toBe(created.body.created_at);

    const health = await call(server(), "GET", "/api/v1/svc/health", { key: created.body.plaintext });
    expect(health.status).toBe(200);
    expect(health.body.workspace_id).toBe(ws.id);

    const listed = await call(server(), "GET", keysPath(ws.id), { key: ADMIN_TOKEN });
    expect(listed.status).toBe(200);
    expect(listed.body.count).toBe(2);
    expect(listed.body.keys.map((k: { id: string }) => k.id)).toContain(created.body.id);
    expect(listed.text).not.toContain(created.body.plaintext);
    expect(listed.text).not.toContain("plaintext");
    for (const key of listed.body.keys) expect(Object.keys(key)).toEqual(expect.arrayContaining(["id", "name", "key_prefix", "created_at"]));

    const rows = await query(server(), sql`select key_hash from api_keys where id = ${created.body.id}`);
    const digest = createHash("sha256").update(created.body.plaintext).digest("hex");
    expect(rows[0].key_hash).toBe(digest);
    const dump = await query(server(), sql`select * from api_keys where workspace_id = ${ws.id}`);
    expect(JSON.stringify(dump)).not.toContain(created.body.plaintext);
  });

  it("rotates: the new key works at once and the old one fails with auth_rotating", async () => {
    const ws = await newWorkspace(server());
    // Warm the verification cache so rotation must invalidate it.
    expect((await call(server(), "GET", "/api/v1/svc/health", { key: ws.key })).status).toBe(200);
    const rotated = await call(server(), "POST", `${keysPath(ws.id)}/${ws.keyId}/rotate`, { key: ADMIN_TOKEN });
    expect(rotated.status).toBe(200);
    expect(rotated.body).toMatchObject({ rotated_from: ws.keyId, key_prefix: "sk_svc_", name: "test", status: "active" });
    expect(rotated.body.id).not.toBe(ws.keyId);
    expect(rotated.body.plaintext).not.toBe(ws.key);

    expectError(await call(server(), "GET", "/api/v1/svc/health", { key: ws.key }), 401, "auth_rotating");
    expect((await call(server(), "GET", "/api/v1/svc/health", { key: rotated.body.plaintext })).status).toBe(200);

    const listed = await call(server(), "GET", keysPath(ws.id), { key: rotated.body.plaintext });
    const old = listed.body.keys.find((k: { id: string }) => k.id === ws.keyId);
    expect(old.status).toBe("rotating");
    expectError(await call(server(), "POST", `${keysPath(ws.id)}/${ws.keyId}/rotate`, { key: ADMIN_TOKEN }), 409, "api_key_not_active");
  });

  it("revokes with 204 and no body; the key then fails with auth_revoked", async () => {
    const ws = await newWorkspace(server());
    expect((await call(server(), "GET", "/api/v1/svc/health", { key: ws.key })).status).toBe(200);
    const revoked = await call(server(), "DELETE", `${keysPath(ws.id)}/${ws.keyId}`, { key: ADMIN_TOKEN });
    expect(revoked.status).toBe(204);
    expect(revoked.text).toBe("");
    expect(revoked.headers.get("x-svc-trace-id")).toMatch(/^[0-9a-f]{32}$/);
    expectError(await call(server(), "GET", "/api/v1/svc/health", { key: ws.key }), 401, "auth_revoked");

    expectError(await call(server(), "DELETE", `${keysPath(ws.id)}/${ws.keyId}`, { key: ADMIN_TOKEN }), 404, "api_key_not_found");
    const listed = await call(server(), "GET", keysPath(ws.id), { key: ADMIN_TOKEN });
    expect(listed.body.count).toBe(0);
    const all = await call(server(), "GET", `${keysPath(ws.id)}?include_revoked=true`, { key: ADMIN_TOKEN });
    expect(all.body.keys).toHaveLength(1);
    expect(all.body.keys[0].status).toBe("revoked");
  });

  it("lets a workspace key manage its own workspace's keys", async () => {
    const ws = await newWorkspace(server());
    const created = await call(server(), "POST", keysPath(ws.id), { key: ws.key, body: { name: "self-made" } });
    expect(created.status).toBe(201);
    const rotated = await call(server(), "POST", `${keysPath(ws.id)}/${created.body.id}/rotate`, { key: ws.key });
    expect(rotated.status).toBe(200);
    const revoked = await call(server(), "DELETE", `${keysPath(ws.id)}/${rotated.body.id}`, { key: ws.key });
    expect(revoked.status).toBe(204);
  });

  it("refuses another workspace's key with 403 auth_forbidden and changes nothing", async () => {
    const a = await newWorkspace(server());
    const b = await newWorkspace(server());
    const before = await call(server(), "GET", `${keysPath(a.id)}?include_revoked=true`, { key: ADMIN_TOKEN });
    expectError(await call(server(), "GET", keysPath(a.id), { key: b.key }), 403, "auth_forbidden");
    expectError(await call(server(), "POST", keysPath(a.id), { key: b.key, body: { name: "x" } }), 403, "auth_forbidden");
    expectError(await call(server(), "POST", `${keysPath(a.id)}/${a.keyId}/rotate`, { key: b.key }), 403, "auth_forbidden");
    expectError(await call(server(), "DELETE", `${keysPath(a.id)}/${a.keyId}`, { key: b.key }), 403, "auth_forbidden");
    const after = await call(server(), "GET", `${keysPath(a.id)}?include_revoked=true`, { key: ADMIN_TOKEN });
    expect(after.body).toEqual(before.body);
    expect((await call(server(), "GET", "/api/v1/svc/health", { key: a.key })).status).toBe(200);
  });

  it("does not find a key of another workspace through one's own path", async () => {
    const a = await newWorkspace(server());
    const b = await newWorkspace(server());
    expectError(await call(server(), "DELETE", `${keysPath(b.id)}/${a.keyId}`, { key: b.key }), 404, "api_key_not_found");
    expect((await call(server(), "GET", "/api/v1/svc/health", { key: a.key })).status).toBe(200);
  });

  it("answers 404 workspace_not_found when the operator names an unknown workspace", async () => {
    expectError(await call(server(), "GET", keysPath("wsp_doesnotexist"), { key: ADMIN_TOKEN }), 404, "workspace_not_found");
    expectError(await call(server(), "POST", keysPath("wsp_doesnotexist"), { key: ADMIN_TOKEN, body: { name: "x" } }), 404, "workspace_not_found");
  });

  it("validates the create body", async () => {
    const ws = await newWorkspace(server());
    const missing = expectError(await call(server(), "POST", keysPath(ws.id), { key: ws.key, body: {} }), 400, "invalid_request");
    expect(missing.error.details).toEqual([{ field: "name", message: "is required" }]);
    const wrongType = expectError(await call(server(), "POST", keysPath(ws.id), { key: ws.key, body: { name: 42 } }), 400, "invalid_request");
    expect(wrongType.error.details[0].field).toBe("name");
  });
});

describe("authentication errors", () => {
  it("auth_missing without a header, auth_invalid for anything that is not a valid key", async () => {
    expectError(await call(server(), "GET", "/api/v1/svc/health"), 401, "auth_missing");
    expectError(await call(server(), "GET", "/api/v1/svc/health", { headers: { authorization: "Basic abc" } }), 401, "auth_invalid");
    expectError(await call(server(), "GET", "/api/v1/svc/health", { key: "sk_svc_short" }), 401, "auth_invalid");
    const valid = generateKey();
    const badChecksum = valid.slice(0, -1) + (valid.endsWith("A") ? "B" : "A");
    expectError(await call(server(), "GET", "/api/v1/svc/health", { key: badChecksum }), 401, "auth_invalid");
    // Well-formed with a correct checksum, but never issued.
    expectError(await call(server(), "GET", "/api/v1/svc/health", { key: valid }), 401, "auth_invalid");
  });

  it("a workspace key cannot use operator routes", async () => {
    const ws = await newWorkspace(server());
    expectError(await call(server(), "GET", "/api/v1/maas/workspaces", { key: ws.key }), 403, "auth_forbidden");
    expectError(await call(server(), "POST", "/api/v1/maas/workspaces", { key: ws.key, body: { name: "x" } }), 403, "auth_forbidden");
  });

  it("the operator names the workspace on runtime routes, else 422 tenant_required", async () => {
    const ws = await newWorkspace(server());
    expectError(await call(server(), "GET", "/api/v1/svc/health", { key: ADMIN_TOKEN }), 422, "tenant_required");
    expectError(
      await call(server(), "GET", "/api/v1/svc/health", { key: ADMIN_TOKEN, headers: { "x-svc-workspace-id": "wsp_nope" } }),
      422,
      "tenant_required",
    );
    const ok = await call(server(), "GET", "/api/v1/svc/health", { key: ADMIN_TOKEN, headers: { "x-svc-workspace-id": ws.id } });
    expect(ok.status).toBe(200);
    expect(ok.body).toMatchObject({ workspace_id: ws.id, tenant_id: ws.id, workspace: ws.name });
  });
});

describe("workspaces", () => {
  it("the operator creates and lists workspaces", async () => {
    const created = await call(server(), "POST", "/api/v1/maas/workspaces", { key: ADMIN_TOKEN, body: { name: "acme" } });
    expect(created.status).toBe(201);
    expect(Object.keys(created.body).sort()).toEqual(["created_at", "id", "name"]);
    expect(created.body.id).toMatch(/^wsp_/);
    const listed = await call(server(), "GET", "/api/v1/maas/workspaces?limit=500", { key: ADMIN_TOKEN });
    expect(listed.status).toBe(200);
    expect(listed.body.pagination).toMatchObject({ limit: 500, offset: 0 });
    // On a database other test files share, there may be more than one page: the new one is on some page.
    const seen: string[] = listed.body.workspaces.map((w: { id: string }) => w.id);
    for (let offset = 500; !seen.includes(created.body.id) && listed.body.pagination.has_more && offset < 100_000; offset += 500) {
      const page = await call(server(), "GET", `/api/v1/maas/workspaces?limit=500&offset=${offset}`, { key: ADMIN_TOKEN });
      seen.push(...page.body.workspaces.map((w: { id: string }) => w.id));
      if (!page.body.pagination.has_more) break;
    }
    expect(seen).toContain(created.body.id);
    const one = await call(server(), "GET", `/api/v1/maas/workspaces/${created.body.id}`, { key: ADMIN_TOKEN });
    expect(one.body).toEqual(created.body);
  });
});
