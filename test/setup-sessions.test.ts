// Setup sessions over real HTTP: a draft built over several requests (credentials' key data sealed, never
// answered), applied once through POST /setup's own code (the same per-item results, failures included),
// final once applied, and invisible to other workspaces.
import { sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { call, expectError, newWorkspace, query, useServer, type TestWorkspace } from "./helpers/server.ts";

const server = useServer();
const SESSIONS = "/api/v1/svc/setup/sessions";
const SECRET = "stripe-key-session-0001";

const post = (ws: TestWorkspace, path: string, body?: unknown) => call(server(), "POST", path, { key: ws.key, body });
const get = (ws: TestWorkspace, path: string) => call(server(), "GET", path, { key: ws.key });

/** The per-item results without what differs between two workspaces (ids, urls, restatement wording). */
function shape(result: any) {
  const strip = (item: any) => {
    const { id: _id, approve_url: _url, detail: _detail, ...rest } = item;
    return rest;
  };
  return {
    connections: result.connections.map(strip),
    credentials: result.credentials.map(strip),
    memory: result.memory.map(strip),
    policies: result.policies.map(strip),
    applied: result.applied,
    failed: result.failed,
    notice: result.notice,
  };
}

const ITEMS = {
  credentials: [{ provider: "Stripe", key_data: { api_key: SECRET } }],
  connections: [{ capability: "refund payment" }],
  memory: [{ type: "reference", content: { text: "Refunds older than 30 days need a manager." } }],
  policies: [
    { name: "refund limit", rule: "Block refunds over $500" },
    { name: "moon", rule: "Refunds over $500 are sometimes nice" },
  ],
};

describe("setup sessions", () => {
  it("builds a draft over several requests, seals credentials, and applies it as POST /setup does, bad policy sentence included", async () => {
    const ws = await newWorkspace(server());
    const created = await post(ws, SESSIONS, { workspace_id: "ws_other", purpose: "refunds desk", constraints: ["no refunds over $500 without a human"], credentials: ITEMS.credentials });
    expect(created.status, created.text).toBe(201);
    const session = created.body;
    expect(session).toMatchObject({
      id: expect.stringMatching(/^setup_[0-9A-Za-z]+$/),
      status: "draft",
      purpose: "refunds desk",
      constraints: ["no refunds over $500 without a human"],
      connections: [],
      credentials: [{ provider: "Stripe", name: null, key_data: { api_key: "[sealed]" } }],
      memory: [],
      policies: [],
      applied_count: 0,
      failed_count: 0,
      applied_at: null,
    });
    expect(Date.parse(session.created_at)).not.toBeNaN();
    expect(created.text).not.toContain(SECRET);
    // In the draft's row the key data is sealed: the secret is nowhere in clear.
    const [stored] = await query(server(), sql`select items::text as items from setup_sessions where id = ${session.id}`);
    expect(stored.items).not.toContain(SECRET);
    expect(stored.items).toContain("sealed");

    // Resources added in two more requests accumulate; nothing is applied yet.
    const added = await post(ws, `${SESSIONS}/${session.id}`, { connections: ITEMS.connections, memory: ITEMS.memory });
    expect(added.status, added.text).toBe(200);
    const added2 = await post(ws, `${SESSIONS}/${session.id}`, { policies: ITEMS.policies });
    expect(added2.body).toMatchObject({ status: "draft", connections: ITEMS.connections, memory: ITEMS.memory, policies: ITEMS.policies });
    expect((await get(ws, "/api/v1/svc/credentials")).body.credentials ?? []).toHaveLength(0);
    expect((await get(ws, `${SESSIONS}/${session.id}`)).body).toMatchObject({ id: session.id, status: "draft", credentials: [{ key_data: { api_key: "[sealed]" } }] });
    const listed = await get(ws, SESSIONS);
    expect(listed.body).toMatchObject({ sessions: [{ id: session.id, status: "draft" }], count: 1, total: 1, pagination: { limit: 50, offset: 0, has_more: false } });

    // Applied: the result is POST /setup's, item for item (same items in a fresh workspace).
    const applied = await post(ws, `${SESSIONS}/${session.id}/apply`, { confirm: false });
    expect(applied.status, applied.text).toBe(200);
    expect(applied.text).not.toContain(SECRET);
    const twin = await newWorkspace(server());
    const direct = await post(twin, "/api/v1/svc/setup", ITEMS);
    expect(direct.status).toBe(200);
    expect(shape(applied.body.result)).toEqual(shape(direct.body));
    expect(applied.body).toMatchObject({ session_id: session.id, status: "applied", applied: 4, failed: 1, dry_run: false, replayed: false });
    expect(applied.body.result.policies[1]).toMatchObject({ name: "moon", status: "failed", error_code: "policy_creation_failed", suggestion: expect.any(String) });
    expect(applied.body.result.credentials[0]).toMatchObject({ provider: "stripe", name: "Stripe", status: "created", id: expect.stringMatching(/^cred_/) });

    // What POST /setup writes was written; the sealed copy is erased from the session.
    const credentials = await get(ws, "/api/v1/svc/credentials");
    expect(credentials.body.credentials).toHaveLength(1);
    const [after] = await query(server(), sql`select items::text as items, status from setup_sessions where id = ${session.id}`);
    expect(after.status).toBe("applied");
    expect(after.items).not.toContain("\"sealed\"");
    const audit = await query(server(), sql`select action from audit_entries where workspace_id = ${ws.id} and resource_type = 'setup_session' order by seq`);
    expect(audit.map((a) => a.action)).toEqual(["setup_session.create", "setup_session.update", "setup_session.update", "setup_session.apply"]);

    // The session is final: it says so, applying again replays the stored result, and nothing can be added.
    const read = await get(ws, `${SESSIONS}/${session.id}`);
    expect(read.body).toMatchObject({ status: "applied", applied_count: 4, failed_count: 1, applied_at: expect.any(String), result: { applied: 4, failed: 1 } });
    expect(read.body.credentials[0].key_data).toBeUndefined();
    const again = await post(ws, `${SESSIONS}/${session.id}/apply`, { confirm: true });
    expect(again.status).toBe(200);
    expect(again.body).toMatchObject({ session_id: session.id, status: "applied", applied: 4, failed: 1, replayed: true });
    expect(again.body.result).toEqual(applied.body.result);
    const memory = await query(server(), sql`select count(*)::int as n from memory_items where workspace_id = ${ws.id}`);
    expect(memory[0].n).toBe(1);
    expectError(await post(ws, `${SESSIONS}/${session.id}`, { memory: ITEMS.memory }), 409, "setup_session_not_draft");
  });

  it("a dry run checks the draft and leaves it a draft; an empty draft answers missing_fields and stays a draft", async () => {
    const ws = await newWorkspace(server());
    const empty = await post(ws, SESSIONS);
    expect(empty.status).toBe(201);
    expectError(await post(ws, `${SESSIONS}/${empty.body.id}/apply`, { confirm: true }), 400, "missing_fields");
    expectError(await post(ws, `${SESSIONS}/${empty.body.id}`, {}), 400, "missing_fields");
    expect((await get(ws, `${SESSIONS}/${empty.body.id}`)).body.status).toBe("draft");

    const session = (await post(ws, SESSIONS, { policies: [ITEMS.policies[0]], memory: ITEMS.memory })).body;
    const dry = await post(ws, `${SESSIONS}/${session.id}/apply`, { dry_run: true });
    expect(dry.status, dry.text).toBe(200);
    expect(dry.body).toMatchObject({ session_id: session.id, status: "draft", applied: 0, failed: 0, dry_run: true, replayed: false, result: { would_apply: 2, dry_run: true } });
    expect((await get(ws, `${SESSIONS}/${session.id}`)).body.status).toBe("draft");
    expect((await get(ws, "/api/v1/svc/policies")).body.policies).toHaveLength(0);
  });

  it("a session whose every item fails is failed, and stays so", async () => {
    const ws = await newWorkspace(server());
    const session = (await post(ws, SESSIONS, { policies: [ITEMS.policies[1]] })).body;
    const applied = await post(ws, `${SESSIONS}/${session.id}/apply`, { confirm: true });
    expect(applied.body).toMatchObject({ status: "failed", applied: 0, failed: 1, replayed: false });
    expect((await post(ws, `${SESSIONS}/${session.id}/apply`, { confirm: true })).body).toMatchObject({ status: "failed", replayed: true });
    expect((await get(ws, `${SESSIONS}/${session.id}`)).body).toMatchObject({ status: "failed", failed_count: 1 });
  });

  it("two applies at once apply once", async () => {
    const ws = await newWorkspace(server());
    const session = (await post(ws, SESSIONS, { memory: ITEMS.memory })).body;
    const replies = await Promise.all([post(ws, `${SESSIONS}/${session.id}/apply`, { confirm: true }), post(ws, `${SESSIONS}/${session.id}/apply`, { confirm: true })]);
    const fresh = replies.filter((r) => r.status === 200 && r.body.replayed === false);
    expect(fresh).toHaveLength(1);
    for (const other of replies.filter((r) => r !== fresh[0])) {
      if (other.status === 200) expect(other.body).toMatchObject({ replayed: true, status: "applied" });
      else expectError(other, 409, "setup_session_applying");
    }
    const memory = await query(server(), sql`select count(*)::int as n from memory_items where workspace_id = ${ws.id}`);
    expect(memory[0].n).toBe(1);
  });

  it("another workspace sees, adds to and applies nothing of the first's sessions", async () => {
    const owner = await newWorkspace(server());
    const other = await newWorkspace(server());
    const session = (await post(owner, SESSIONS, { credentials: ITEMS.credentials, memory: ITEMS.memory })).body;
    expectError(await get(other, `${SESSIONS}/${session.id}`), 404, "setup_session_not_found");
    expectError(await post(other, `${SESSIONS}/${session.id}`, { memory: ITEMS.memory }), 404, "setup_session_not_found");
    expectError(await post(other, `${SESSIONS}/${session.id}/apply`, { confirm: true }), 404, "setup_session_not_found");
    expectError(await post(other, `${SESSIONS}/${session.id}/apply`, { dry_run: true }), 404, "setup_session_not_found");
    expect((await get(other, SESSIONS)).body).toMatchObject({ sessions: [], count: 0, total: 0 });
    // The owner's draft is untouched.
    expect((await get(owner, `${SESSIONS}/${session.id}`)).body).toMatchObject({ status: "draft", memory: ITEMS.memory });
    expectError(await get(owner, `${SESSIONS}/setup_doesnotexist`), 404, "setup_session_not_found");
  });
});
