import { sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { call, expectError, newWorkspace, query, useServer, type TestWorkspace } from "./helpers/server.ts";

const server = useServer();

async function remember(ws: TestWorkspace, text: string, extra: Record<string, unknown> = {}) {
  const reply = await call(server(), "POST", "/api/v1/svc/memory", { key: ws.key, body: { type: "reference", content: { text }, ...extra } });
  if (reply.status !== 201) throw new Error(`${reply.status} ${reply.text}`);
  return reply.body;
}

const search = (ws: TestWorkspace, params: string) => call(server(), "GET", `/api/v1/svc/memory/search?${params}`, { key: ws.key });

describe("memory items", () => {
  it("creates an item with the contract's fields and defaults, and reads it back", async () => {
    const ws = await newWorkspace(server());
    const created = await call(server(), "POST", "/api/v1/svc/memory", {
      key: ws.key,
      body: { type: "preference", content: { text: "Dana prefers meetings after 10:00", subject: "dana" }, tags: ["calendar"] },
    });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({
      type: "preference",
      domain: "general",
      scope: "tenant",
      authority: 5,
      version: 1,
      tags: ["calendar"],
      content: { text: "Dana prefers meetings after 10:00", subject: "dana" },
      indexed: true,
      classified: false,
    });
    expect(created.body.id).toMatch(/^[0-9a-f-]{36}$/);
    const read = await call(server(), "GET", `/api/v1/svc/memory/${created.body.id}`, { key: ws.key });
    expect(read.status).toBe(200);
    const { indexed: _indexed, ...atom } = created.body;
    expect(read.body).toEqual(atom);
  });

  it("refuses a type outside the six (400 invalid_memory_type) and empty text (500 memory_creation_failed)", async () => {
    const ws = await newWorkspace(server());
    expectError(await call(server(), "POST", "/api/v1/svc/memory", { key: ws.key, body: { type: "fact", content: { text: "x" } } }), 400, "invalid_memory_type");
    expectError(await call(server(), "POST", "/api/v1/svc/memory", { key: ws.key, body: { content: { text: "x" } } }), 400, "invalid_memory_type");
    expectError(await call(server(), "POST", "/api/v1/svc/memory", { key: ws.key, body: { type: "note", content: { text: "  " } } }), 500, "memory_creation_failed");
    expectError(await call(server(), "POST", "/api/v1/svc/memory", { key: ws.key, body: { type: "note" } }), 500, "memory_creation_failed");
    const authority = expectError(
      await call(server(), "POST", "/api/v1/svc/memory", { key: ws.key, body: { type: "note", content: { text: "x" }, authority: 11 } }),
      400,
      "invalid_request",
    );
    expect(authority.error.details[0].field).toBe("authority");
  });

  it.each([
    ["a Stripe key", "the billing key is sk_live_4eC39HqLyjWDarjtT1zdp7dc"],
    ["an AWS key", "aws access AKIAIOSFODNN7EXAMPLE for the backups"],
    ["a private key", "-----BEGIN RSA PRIVATE KEY-----\nMIIEpAIBAAKCAQEA\n-----END RSA PRIVATE KEY-----"],
    ["a password assignment", "db password: hunter2hunter2"],
    ["a GitHub token", "use ghp_abcdefghijklmnopqrstuvwxyz0123456789 for CI"],
    ["a bearer token", "call it with Bearer eyJhbGciOiJIUzI1NiJ9abcdefghijkl.more"],
  ])("refuses content holding %s and points to credentials", async (_kind, text) => {
    const ws = await newWorkspace(server());
    const body = expectError(await call(server(), "POST", "/api/v1/svc/memory", { key: ws.key, body: { type: "note", content: { text } } }), 400, "memory_contains_secret");
    expect(body.error.hint).toContain("/api/v1/svc/credentials");
    const rows = await query(server(), sql`select count(*)::int as n from memory_items where workspace_id = ${ws.id}`);
    expect(rows[0].n).toBe(0);
  });

  it("get: malformed id 400 invalid_memory_id, unknown or another workspace's 404 memory_not_found", async () => {
    const a = await newWorkspace(server());
    const b = await newWorkspace(server());
    const item = await remember(a, "Warehouse B closes at 18:00");
    expectError(await call(server(), "GET", "/api/v1/svc/memory/not-a-uuid", { key: a.key }), 400, "invalid_memory_id");
    expectError(await call(server(), "GET", "/api/v1/svc/memory/00000000-0000-4000-8000-000000000000", { key: a.key }), 404, "memory_not_found");
    expectError(await call(server(), "GET", `/api/v1/svc/memory/${item.id}`, { key: b.key }), 404, "memory_not_found");
    expectError(await call(server(), "DELETE", `/api/v1/svc/memory/${item.id}`, { key: b.key }), 404, "memory_not_found");
    expectError(await call(server(), "PUT", `/api/v1/svc/memory/${item.id}`, { key: b.key, body: { content: { text: "hijack" } } }), 404, "memory_not_found");
    expect((await call(server(), "GET", `/api/v1/svc/memory/${item.id}`, { key: a.key })).body.content.text).toBe("Warehouse B closes at 18:00");
  });

  it("lists the memory types", async () => {
    const ws = await newWorkspace(server());
    const types = await call(server(), "GET", "/api/v1/svc/memory/types", { key: ws.key });
    expect(types.body.type_values).toEqual(["reference", "preference", "episode", "precedent", "note", "project"]);
  });
});

describe("memory search", () => {
  it("requires a query", async () => {
    const ws = await newWorkspace(server());
    expectError(await call(server(), "GET", "/api/v1/svc/memory/search", { key: ws.key }), 400, "memory_query_required");
    expectError(await search(ws, "query="), 400, "memory_query_required");
  });

  it("ranks by full-text relevance, with stemming", async () => {
    const ws = await newWorkspace(server());
    await remember(ws, "Office plants are watered on Mondays");
    const best = await remember(ws, "Refunds above 500 EUR need a second approval; refund requests go to finance");
    const other = await remember(ws, "The refund window is 30 days");
    const reply = await search(ws, "query=refund");
    expect(reply.status).toBe(200);
    expect(reply.body.match).toBe("all_words");
    expect(reply.body.results.map((r: { id: string }) => r.id)).toEqual([best.id, other.id]);
    expect(reply.body.results[0].score).toBeGreaterThan(reply.body.results[1].score);
    expect(reply.body.count).toBe(2);
  });

  it("relaxes a question to any of its words when no item has them all", async () => {
    const ws = await newWorkspace(server());
    const item = await remember(ws, "Enterprise customers are invoiced quarterly");
    const reply = await search(ws, `query=${encodeURIComponent("how often are enterprise customers billed")}`);
    expect(reply.body.match).toBe("any_word");
    expect(reply.body.results[0].id).toBe(item.id);
  });

  it("finds near-misses by trigram similarity", async () => {
    const ws = await newWorkspace(server());
    const item = await remember(ws, "Kubernetes cluster upgrades happen on Tuesdays");
    const reply = await search(ws, `query=${encodeURIComponent("kuberntes clustr")}`);
    expect(reply.body.match).toBe("similar");
    expect(reply.body.corrected).toEqual({ kuberntes: "kubernetes", clustr: "cluster" });
    expect(reply.body.results[0].id).toBe(item.id);
    const nothing = await search(ws, `query=${encodeURIComponent("zebra xylophone")}`);
    expect(nothing.body).toMatchObject({ results: [], count: 0, match: "none" });
  });

  it("filters by domain and tag, honours limit, and never crosses workspaces", async () => {
    const a = await newWorkspace(server());
    const b = await newWorkspace(server());
    const finance = await remember(a, "Invoices are due in 30 days", { domain: "finance", tags: ["billing"] });
    await remember(a, "Invoices for partners are due in 60 days", { domain: "partners" });
    await remember(b, "Invoices are archived after 7 years");
    const byDomain = await search(a, "query=invoices&domain=finance");
    expect(byDomain.body.results.map((r: { id: string }) => r.id)).toEqual([finance.id]);
    const byTag = await search(a, "query=invoices&tag=billing");
    expect(byTag.body.results.map((r: { id: string }) => r.id)).toEqual([finance.id]);
    expect((await search(a, "query=invoices&limit=1")).body.count).toBe(1);
    const all = await search(a, "query=invoices");
    expect(all.body.count).toBe(2);
    expect(all.text).not.toContain("archived");
  });
});

describe("memory updates and deletes", () => {
  it("an update makes a new version, keeps the old one, and search follows the new text", async () => {
    const ws = await newWorkspace(server());
    const item = await remember(ws, "The standup is at 09:30");
    const updated = await call(server(), "PUT", `/api/v1/svc/memory/${item.id}`, { key: ws.key, body: { content: { text: "The standup moved to 10:15" }, authority: 8 } });
    expect(updated.status).toBe(200);
    expect(updated.body).toMatchObject({ id: item.id, version: 2, authority: 8, type: "reference", content: { text: "The standup moved to 10:15" } });
    const patched = await call(server(), "PATCH", `/api/v1/svc/memory/${item.id}`, { key: ws.key, body: { tags: ["team"] } });
    expect(patched.body).toMatchObject({ version: 3, tags: ["team"], content: { text: "The standup moved to 10:15" } });
    const versions = await query(server(), sql`select version, content->>'text' as text from memory_item_versions where item_id = ${item.id} order by version`);
    expect(versions).toEqual([
      { version: 1, text: "The standup is at 09:30" },
      { version: 2, text: "The standup moved to 10:15" },
    ]);
    expect((await search(ws, "query=10:15")).body.results[0].id).toBe(item.id);
    expect((await search(ws, "query=09:30")).body.count).toBe(0);
    expectError(await call(server(), "PUT", `/api/v1/svc/memory/${item.id}`, { key: ws.key, body: { type: "secretive" } }), 400, "invalid_memory_type");
  });

  it("delete answers 200 with a small JSON object; the item is then gone", async () => {
    const ws = await newWorkspace(server());
    const item = await remember(ws, "Temporary note");
    const deleted = await call(server(), "DELETE", `/api/v1/svc/memory/${item.id}`, { key: ws.key });
    expect(deleted.status).toBe(200);
    expect(deleted.body).toEqual({ id: item.id, status: "deleted" });
    expectError(await call(server(), "GET", `/api/v1/svc/memory/${item.id}`, { key: ws.key }), 404, "memory_not_found");
  });

  it("every mutation writes an audit entry, and the chain verifies", async () => {
    const ws = await newWorkspace(server());
    const item = await remember(ws, "Audit me");
    await call(server(), "PUT", `/api/v1/svc/memory/${item.id}`, { key: ws.key, body: { content: { text: "Audited" } } });
    await call(server(), "DELETE", `/api/v1/svc/memory/${item.id}`, { key: ws.key });
    const entries = await server().services.audit.list(ws.id, 10);
    expect(entries.map((e) => e.action)).toEqual(["memory.delete", "memory.update", "memory.create"]);
    expect(entries.every((e) => e.actorType === "key" && e.actorId === ws.keyId && e.resourceId === item.id)).toBe(true);
    expect(entries[0]!.traceId).toMatch(/^[0-9a-f]{32}$/);
    expect(await server().services.audit.verify(ws.id)).toBeNull();
    await query(server(), sql`update audit_entries set action = 'memory.read' where workspace_id = ${ws.id} and seq = 2`);
    expect(await server().services.audit.verify(ws.id)).toBe(2);
  });
});
