// The audit read API over real HTTP: filters and pagination, stats, the timeline of an intent that planned and
// ran an execution against a real local HTTPS service, chain verification (then tampering by SQL), the NDJSON
// export verified independently, tenant isolation, errors; and the hand-off packet of intelligence records.
import { createHash } from "node:crypto";
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { canonicalJson } from "../src/canonical-json.ts";
import { chainHash } from "../src/events/audit.ts";
import { openDb } from "../src/db/index.ts";
import { PAYMENTS_SPEC } from "./helpers/payments-spec.ts";
import { call, expectError, newWorkspace, onPostgres, query, startServer, type TestServer, type TestWorkspace } from "./helpers/server.ts";
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

const AUDIT = "/api/v1/svc/audit";
const get = (ws: TestWorkspace, path: string) => call(server, "GET", path, { key: ws.key });
const remember = (ws: TestWorkspace, text: string) => call(server, "POST", "/api/v1/svc/memory", { key: ws.key, body: { type: "reference", content: { text } } });

async function policy(ws: TestWorkspace, name: string, rule: string): Promise<string> {
  const created = await call(server, "POST", "/api/v1/svc/policies", { key: ws.key, body: { name, rule } });
  expect(created.status, created.text).toBe(201);
  expect((await call(server, "POST", `/api/v1/svc/policies/${created.body.id}/confirm`, { key: ws.key, body: { version: 1 } })).status).toBe(200);
  return created.body.id;
}

async function shopWorkspace(): Promise<TestWorkspace> {
  const ws = await newWorkspace(server);
  const credential = await call(server, "POST", "/api/v1/svc/credentials", { key: ws.key, body: { provider: "shop", name: "shop", key_data: { api_key: SHOP_API_KEY } } });
  const imported = await call(server, "POST", "/api/v1/svc/connections/openapi", { key: ws.key, body: { name: "shop", spec_url: `${shop().url}/openapi.json`, credential_id: credential.body.id } });
  expect(imported.status, imported.text).toBe(201);
  return ws;
}

async function paymentsWorkspace(): Promise<TestWorkspace> {
  const ws = await newWorkspace(server);
  const imported = await call(server, "POST", "/api/v1/svc/connections/openapi", { key: ws.key, body: { name: "payments", spec_content: PAYMENTS_SPEC } });
  expect(imported.status, imported.text).toBe(201);
  return ws;
}

const ask = (ws: TestWorkspace, content: string) => call(server, "POST", "/api/v1/svc/intent", { key: ws.key, body: { messages: [{ role: "user", content }] } });

async function settled(ws: TestWorkspace, id: string, waiting = ["running", "ready"]): Promise<Record<string, any>> {
  for (let i = 0; i < 100; i++) {
    const reply = await get(ws, `/api/v1/svc/executions/${id}`);
    if (!waiting.includes(reply.body.status)) return reply.body;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`execution ${id} did not settle`);
}

/** An intent that planned an execution, confirmed and run to completion against the shop. */
async function executedIntent(ws: TestWorkspace) {
  const reply = await ask(ws, "Refund order A-77 for $12.50");
  expect(reply.body, reply.text).toMatchObject({ type: "execution", status: "ready_to_execute" });
  const confirmed = await call(server, "POST", reply.body.next_action.endpoint, { key: ws.key });
  expect(confirmed.status, confirmed.text).toBe(200);
  const execution = await settled(ws, reply.body.execution.id);
  expect(execution.status).toBe("completed");
  return { intent: reply.body, execution, confirmTrace: confirmed.headers.get("x-svc-trace-id")! };
}

/** The hash of an exported entry, recomputed from the documented recipe (docs/audit.md) alone. */
function recompute(entry: Record<string, any>): string {
  const fields = [entry.id, entry.workspace_id, entry.seq, entry.actor_type, entry.actor_id, entry.action, entry.resource_type, entry.resource_id, entry.trace_id, entry.detail, entry.created_at];
  return createHash("sha256").update(entry.prev_hash).update(canonicalJson(fields)).digest("hex");
}

describe("audit entries: filters and pagination", () => {
  it("filters by action, prefix, resource, actor, trace and time, newest first", async () => {
    const ws = await newWorkspace(server);
    const memories: string[] = [];
    let trace = "";
    for (let i = 0; i < 5; i++) {
      const created = await remember(ws, `Fact number ${i} about the warehouse.`);
      expect(created.status).toBe(201);
      memories.push(created.body.id);
      if (i === 2) trace = created.headers.get("x-svc-trace-id")!;
    }
    const policyId = await policy(ws, "refund-limit", "Block refunds over $500");

    const all = await get(ws, AUDIT);
    expect(all.status, all.text).toBe(200);
    expect(all.body).toMatchObject({ count: 7, total: 7, pagination: { limit: 50, offset: 0, has_more: false, next_cursor: null } });
    expect(all.body.entries.map((e: any) => e.seq)).toEqual([7, 6, 5, 4, 3, 2, 1]);
    const entry = all.body.entries.find((e: any) => e.resource_id === memories[0]);
    expect(entry).toMatchObject({
      workspace_id: ws.id,
      action: "memory.create",
      type: "memory.create",
      actor: `key:${ws.keyId}`,
      actor_type: "key",
      actor_id: ws.keyId,
      resource_type: "memory",
      resource: { type: "memory", id: memories[0] },
      detail: { type: "reference" },
    });
    expect(entry.id).toMatch(/^aud_/);
    expect(JSON.parse(entry.details)).toEqual(entry.detail);
    expect(entry.hash).toMatch(/^[0-9a-f]{64}$/);
    expect(entry.timestamp).toBe(entry.created_at);

    const byAction = await get(ws, `${AUDIT}?action=memory.create`);
    expect(byAction.body.total).toBe(5);
    const byPrefix = await get(ws, `${AUDIT}?action=policy.*`);
    expect(byPrefix.body.entries.map((e: any) => e.action).sort()).toEqual(["policy.confirm", "policy.create"]);
    const byResource = await get(ws, `${AUDIT}?resource_type=policy&resource_id=${policyId}`);
    expect(byResource.body.total).toBe(2);
    const byTrace = await get(ws, `${AUDIT}?trace_id=${trace}`);
    expect(byTrace.body.entries.map((e: any) => e.resource_id)).toEqual([memories[2]]);
    expect((await get(ws, `${AUDIT}?actor=${ws.keyId}`)).body.total).toBe(7);
    expect((await get(ws, `${AUDIT}?actor=key:${ws.keyId}`)).body.total).toBe(7);
    expect((await get(ws, `${AUDIT}?actor=operator`)).body.total).toBe(0);
    expect((await get(ws, `${AUDIT}?actor_type=key&action=memory.*`)).body.total).toBe(5);
    const future = new Date(Date.now() + 3_600_000).toISOString();
    expect((await get(ws, `${AUDIT}?from=${encodeURIComponent(future)}`)).body.total).toBe(0);
    expect((await get(ws, `${AUDIT}?to=${encodeURIComponent(future)}`)).body.total).toBe(7);
    const at = all.body.entries[3].created_at;
    const since = await get(ws, `${AUDIT}?from=${encodeURIComponent(at)}&order=asc`);
    expect(since.body.entries[0].created_at >= at).toBe(true);
    expect(since.body.entries.map((e: any) => e.seq)).toEqual([...since.body.entries.map((e: any) => e.seq)].sort((a: number, b: number) => a - b));
  });

  it("pages by offset and by cursor, the cursor stable while entries are appended", async () => {
    const ws = await newWorkspace(server);
    for (let i = 0; i < 7; i++) expect((await remember(ws, `Paged fact ${i}.`)).status).toBe(201);
    const first = await get(ws, `${AUDIT}?limit=3`);
    expect(first.body).toMatchObject({ count: 3, total: 7, pagination: { limit: 3, offset: 0, has_more: true, next_cursor: "5" } });
    const byOffset = await get(ws, `${AUDIT}?limit=3&offset=3`);
    expect(byOffset.body.entries.map((e: any) => e.seq)).toEqual([4, 3, 2]);
    expect((await get(ws, `${AUDIT}?limit=3&offset=100`)).body).toMatchObject({ count: 0, total: 7, pagination: { has_more: false } });
    // An entry appended between pages does not shift the cursor's next page.
    expect((await remember(ws, "Appended meanwhile.")).status).toBe(201);
    const second = await get(ws, `${AUDIT}?limit=3&cursor=${first.body.pagination.next_cursor}`);
    expect(second.body.entries.map((e: any) => e.seq)).toEqual([4, 3, 2]);
    expect(second.body.total).toBe(8);
    const third = await get(ws, `${AUDIT}?limit=3&cursor=${second.body.pagination.next_cursor}`);
    expect(third.body).toMatchObject({ count: 1, total: 8, pagination: { has_more: false, next_cursor: null } });
    expect(third.body.entries[0].seq).toBe(1);
    const ascending = await get(ws, `${AUDIT}?limit=5&order=asc&cursor=6`);
    expect(ascending.body.entries.map((e: any) => e.seq)).toEqual([7, 8]);
  });

  it("refuses invalid filters with 400 invalid_request", async () => {
    const ws = await newWorkspace(server);
    for (const q of ["limit=0", "limit=501", "offset=-1", "offset=100001", "from=yesterday", "to=2026-13-40", "cursor=abc", "order=up", "actor_type=robot", "action=drop%20table", "cursor=3&offset=1"]) {
      expectError(await get(ws, `${AUDIT}?${q}`), 400, "invalid_request");
    }
    const body = expectError(await get(ws, `${AUDIT}?from=2026-02-01T00:00:00Z&to=2026-01-01T00:00:00Z`), 400, "invalid_request");
    expect(body.error.details).toEqual([{ field: "from", message: "must not be after to" }]);
    expectError(await get(ws, `${AUDIT}/stats?from=nope`), 400, "invalid_request");
    expectError(await get(ws, `${AUDIT}/export?to=nope`), 400, "invalid_request");
    expectError(await get(ws, `${AUDIT}/export?from=2026-02-01T00:00:00Z&to=2026-01-01T00:00:00Z`), 400, "invalid_request");
    expectError(await get(ws, `${AUDIT}/timeline`), 400, "invalid_request");
    expectError(await get(ws, `${AUDIT}/timeline?trace_id=a&execution_id=b`), 400, "invalid_request");
    expectError(await call(server, "GET", AUDIT), 401, "auth_missing");
  });
});

describe("audit stats", () => {
  it("counts by action, resource type, actor and day, with the filters", async () => {
    const ws = await newWorkspace(server);
    for (let i = 0; i < 3; i++) expect((await remember(ws, `Counted fact ${i}.`)).status).toBe(201);
    await policy(ws, "no-deletes", "Block deleting customers");
    const stats = await get(ws, `${AUDIT}/stats`);
    expect(stats.status, stats.text).toBe(200);
    const today = new Date().toISOString().slice(0, 10);
    expect(stats.body).toMatchObject({
      total: 5,
      by_action: { "memory.create": 3, "policy.create": 1, "policy.confirm": 1 },
      by_resource_type: { memory: 3, policy: 2 },
      by_actor: { [`key:${ws.keyId}`]: 5 },
      by_actor_type: { key: 5 },
      per_day: [{ date: today, count: 5 }],
    });
    expect(Date.parse(stats.body.first_at)).toBeLessThanOrEqual(Date.parse(stats.body.last_at));
    const filtered = await get(ws, `${AUDIT}/stats?resource_type=policy`);
    expect(filtered.body).toMatchObject({ total: 2, by_action: { "policy.create": 1, "policy.confirm": 1 } });
    const empty = await get(ws, `${AUDIT}/stats?from=${encodeURIComponent(new Date(Date.now() + 86_400_000).toISOString())}`);
    expect(empty.body).toEqual({ total: 0, first_at: null, last_at: null, by_action: {}, by_resource_type: {}, by_actor: {}, by_actor_type: {}, per_day: [] });
  });
});

describe("audit timeline", () => {
  it("of an intent that planned and ran an execution: record, audit, steps, in order", async () => {
    const ws = await shopWorkspace();
    const { intent, execution, confirmTrace } = await executedIntent(ws);

    const byExecution = await get(ws, `${AUDIT}/timeline?execution_id=${execution.id}`);
    expect(byExecution.status, byExecution.text).toBe(200);
    const body = byExecution.body;
    expect(body).toMatchObject({ trace_id: intent.trace_id, execution_id: execution.id, intent_id: intent.id });
    expect(body.count).toBe(body.events.length);
    const types = body.events.map((e: any) => `${e.source}:${e.type}`);
    for (const expected of [
      "intelligence:intent.decided",
      "audit:execution.create",
      "execution:execution.created",
      "audit:execution.start",
      "execution:execution.started",
      "execution:step_started",
      "execution:step_completed",
      "execution:execution.completed",
      "audit:execution.complete",
    ]) {
      expect(types, expected).toContain(expected);
    }
    const at = body.events.map((e: any) => e.at);
    expect(at).toEqual([...at].sort());
    const index = (t: string) => types.indexOf(t);
    expect(index("intelligence:intent.decided")).toBeLessThan(index("audit:execution.start"));
    expect(index("execution:step_started")).toBeLessThan(index("execution:step_completed"));
    expect(index("execution:step_completed")).toBeLessThanOrEqual(index("execution:execution.completed"));
    const step = body.events.find((e: any) => e.type === "step_completed");
    expect(step).toMatchObject({ ref: { type: "execution", id: execution.id }, data: { tool: "refund_order", status: "succeeded", attempts: 1 } });
    const started = body.events.find((e: any) => e.type === "execution.start");
    expect(started.data).toMatchObject({ trace_id: confirmTrace, resource_id: execution.id });
    // The credential never appears, wherever the timeline looked.
    expect(byExecution.text).not.toContain(SHOP_API_KEY);

    const byTrace = await get(ws, `${AUDIT}/timeline?trace_id=${intent.trace_id}`);
    expect(byTrace.body.events.map((e: any) => `${e.source}:${e.type}`)).toEqual(types);
    // A trace of a request that only changed something (no record): its audit entries.
    const memory = await remember(ws, "A fact.");
    const plain = await get(ws, `${AUDIT}/timeline?trace_id=${memory.headers.get("x-svc-trace-id")}`);
    expect(plain.body).toMatchObject({ intent_id: null, execution_id: null, count: 1, events: [{ source: "audit", type: "memory.create" }] });
    const unknown = await get(ws, `${AUDIT}/timeline?trace_id=no-such-trace`);
    expect(unknown.body).toMatchObject({ trace_id: "no-such-trace", events: [], count: 0 });
    expectError(await get(ws, `${AUDIT}/timeline?execution_id=exe_missing`), 404, "execution_not_found");
  });

  it("of an execution that waited for approval: the escalation, its resolution, the run", async () => {
    const ws = await shopWorkspace();
    await policy(ws, "approval", "Require approval for refunds over $100");
    const reply = await ask(ws, "Refund order A-31 for $250");
    expect(reply.body.reason_code).toBe("conditional_approval_required");
    const resolved = await call(server, "POST", reply.body.next_action.endpoint, { key: ws.key, body: { decision: "auto", note: "Customer is known." } });
    expect(resolved.status, resolved.text).toBe(200);
    const done = await settled(ws, reply.body.execution.id, ["awaiting_approval", "running", "ready"]);
    expect(done.status).toBe("completed");
    const timeline = await get(ws, `${AUDIT}/timeline?execution_id=${reply.body.execution.id}`);
    const types = timeline.body.events.map((e: any) => `${e.source}:${e.type}`);
    for (const expected of ["escalation:escalation.created", "audit:escalation.create", "escalation:escalation.resolved", "audit:escalation.resolve", "execution:step_completed"]) {
      expect(types, expected).toContain(expected);
    }
    expect(types.indexOf("escalation:escalation.created")).toBeLessThan(types.indexOf("escalation:escalation.resolved"));
    expect(timeline.body.events.find((e: any) => e.type === "escalation.resolved").data).toMatchObject({ decision: "auto", note: "Customer is known." });
  });
});

describe("audit chain verification and export", () => {
  it("verifies the chain, then names the first entry tampered with by SQL", async () => {
    const ws = await newWorkspace(server);
    const ids: string[] = [];
    for (let i = 0; i < 4; i++) ids.push((await remember(ws, `Chained fact ${i}.`)).body.id);
    const verified = await get(ws, `${AUDIT}/verify`);
    expect(verified.status, verified.text).toBe(200);
    const entries = (await get(ws, `${AUDIT}?order=asc`)).body.entries;
    expect(verified.body).toEqual({ valid: true, entries_checked: 4, head: { seq: 4, hash: entries[3].hash } });

    const [second] = await query(server, sql`select id from audit_entries where workspace_id = ${ws.id} and seq = 2`);
    await query(server, sql`update audit_entries set details = '{"type":"note","domain":"general"}'::jsonb where id = ${second.id}`);
    const tampered = await get(ws, `${AUDIT}/verify`);
    expect(tampered.body).toEqual({ valid: false, entries_checked: 2, first_bad: { id: second.id, seq: 2, reason: "hash_mismatch" }, head: { seq: 1, hash: entries[0].hash } });

    // Rewriting the hash too does not help: the next entry's prev_hash no longer matches.
    const forged = createHash("sha256").update("forged").digest("hex");
    await query(server, sql`update audit_entries set hash = ${forged} where id = ${second.id}`);
    expect((await get(ws, `${AUDIT}/verify`)).body.first_bad).toMatchObject({ id: second.id, reason: "hash_mismatch" });
  });

  it("detects a deleted entry as a gap", async () => {
    const ws = await newWorkspace(server);
    for (let i = 0; i < 3; i++) await remember(ws, `Gap fact ${i}.`);
    await query(server, sql`delete from audit_entries where workspace_id = ${ws.id} and seq = 2`);
    const [third] = await query(server, sql`select id from audit_entries where workspace_id = ${ws.id} and seq = 3`);
    expect((await get(ws, `${AUDIT}/verify`)).body).toMatchObject({ valid: false, entries_checked: 2, first_bad: { id: third.id, seq: 3, reason: "seq_gap" } });
  });

  it("detects a truncated tail, and a tail rewritten with valid hashes, against the end the log recorded", async () => {
    const ws = await newWorkspace(server);
    for (let i = 0; i < 4; i++) await remember(ws, `Tail fact ${i}.`);
    // The newest entry rewritten, its hash recomputed by the chain's own recipe: the chain alone looks valid.
    const [last] = await query(server, sql`select * from audit_entries where workspace_id = ${ws.id} and seq = 4`);
    const rewritten = { id: last.id, workspaceId: last.workspace_id, seq: 4, actorType: last.actor_type, actorId: last.actor_id, action: "memory.delete", resourceType: last.resource_type, resourceId: last.resource_id, traceId: last.trace_id, details: {}, createdAt: new Date(last.created_at) };
    await query(server, sql`update audit_entries set action = 'memory.delete', details = '{}'::jsonb, hash = ${chainHash(last.prev_hash, rewritten)} where id = ${last.id}`);
    expect((await get(ws, `${AUDIT}/verify`)).body).toMatchObject({ valid: false, entries_checked: 4, first_bad: { id: last.id, seq: 4, reason: "end_mismatch" }, head: { seq: 3 } });
    // The newest two deleted: what is left is a valid chain, but it stops before the recorded end.
    await query(server, sql`delete from audit_entries where workspace_id = ${ws.id} and seq >= 3`);
    const truncated = (await get(ws, `${AUDIT}/verify`)).body;
    expect(truncated).toMatchObject({ valid: false, entries_checked: 2, first_bad: { id: null, seq: 3, reason: "tail_missing" }, head: { seq: 2 } });
  });

  it("keeps the chain linear under concurrent appends, and a rolled-back append takes no place in it", async () => {
    const ws = await newWorkspace(server);
    const actor = { workspaceId: ws.id, type: "system" as const };
    const append = (i: number) => server.database.db.transaction((tx) => server.services.audit.record(tx, actor, { action: "test.concurrent", resourceType: "test", resourceId: `c${i}` }));
    await Promise.all(Array.from({ length: 40 }, (_, i) => append(i)));
    // An append whose transaction fails afterwards: neither the entry nor the head's move survives it.
    await expect(
      server.database.db.transaction(async (tx) => {
        await server.services.audit.record(tx, actor, { action: "test.rolled_back", resourceType: "test" });
        throw new Error("the change being audited failed");
      }),
    ).rejects.toThrow("the change being audited failed");
    await append(40);
    const seqs = (await query(server, sql`select seq from audit_entries where workspace_id = ${ws.id} order by seq`)).map((r: any) => Number(r.seq));
    expect(seqs).toEqual(Array.from({ length: 41 }, (_, i) => i + 1));
    expect((await query(server, sql`select count(*)::int as n from audit_entries where workspace_id = ${ws.id} and action = 'test.rolled_back'`))[0].n).toBe(0);
    expect((await get(ws, `${AUDIT}/verify`)).body).toMatchObject({ valid: true, entries_checked: 41, head: { seq: 41 } });
  });

  it("verifies a chain longer than one page", async () => {
    const ws = await newWorkspace(server);
    // Appended through the audit log itself (the path every mutation takes), 1,203 entries: two full pages and some.
    const actor = { workspaceId: ws.id, type: "system" as const };
    await server.database.db.transaction(async (tx) => {
      for (let i = 0; i < 1203; i++) await server.services.audit.record(tx, actor, { action: "test.bulk", resourceType: "test", resourceId: `t${i}`, details: { i } });
    });
    expect((await get(ws, `${AUDIT}/verify`)).body).toMatchObject({ valid: true, entries_checked: 1203, head: { seq: 1203 } });
    await query(server, sql`update audit_entries set action = 'test.rewritten' where workspace_id = ${ws.id} and seq = 1101`);
    expect((await get(ws, `${AUDIT}/verify`)).body).toMatchObject({ valid: false, entries_checked: 1101, first_bad: { seq: 1101, reason: "hash_mismatch" } });
  }, 60_000);

  it("exports NDJSON in chain order that verifies without the service, with the same filters", async () => {
    const ws = await newWorkspace(server);
    for (let i = 0; i < 3; i++) await remember(ws, `Exported fact ${i}.`);
    await policy(ws, "exported", "Block refunds over $900");
    const reply = await fetch(`${server.url}${AUDIT}/export`, { headers: { authorization: `Bearer ${ws.key}` } });
    expect(reply.status).toBe(200);
    expect(reply.headers.get("content-type")).toMatch(/^application\/x-ndjson/);
    expect(reply.headers.get("x-svc-trace-id")).toBeTruthy();
    const text = await reply.text();
    expect(text.endsWith("\n")).toBe(true);
    const lines = text.trimEnd().split("\n").map((l) => JSON.parse(l));
    expect(lines.map((l) => l.seq)).toEqual([1, 2, 3, 4, 5]);
    const listed = (await get(ws, `${AUDIT}?order=asc`)).body.entries;
    expect(lines).toEqual(listed);
    let prev = "0".repeat(64);
    for (const line of lines) {
      expect(line.prev_hash).toBe(prev);
      expect(recompute(line)).toBe(line.hash);
      prev = line.hash;
    }
    const filtered = await (await fetch(`${server.url}${AUDIT}/export?action=policy.*`, { headers: { authorization: `Bearer ${ws.key}` } })).text();
    expect(filtered.trimEnd().split("\n").map((l) => JSON.parse(l).action)).toEqual(["policy.create", "policy.confirm"]);
    const none = await fetch(`${server.url}${AUDIT}/export?resource_type=nothing`, { headers: { authorization: `Bearer ${ws.key}` } });
    expect(none.status).toBe(200);
    expect(await none.text()).toBe("");
  });
});

describe("audit secrets", () => {
  it("a credential's entry names its fields, never their values, in the list, the export and the timeline", async () => {
    const ws = await newWorkspace(server);
    const secret = "sk-live-audit-secret-91f3c7";
    const created = await call(server, "POST", "/api/v1/svc/credentials", { key: ws.key, body: { provider: "stripe", name: "live", key_data: { api_key: secret } } });
    expect(created.status, created.text).toBe(201);
    const listed = await get(ws, `${AUDIT}?action=credential.create`);
    expect(listed.body.entries[0].detail).toMatchObject({ provider: "stripe", fields: ["api_key"] });
    const exported = await (await fetch(`${server.url}${AUDIT}/export`, { headers: { authorization: `Bearer ${ws.key}` } })).text();
    const timeline = await get(ws, `${AUDIT}/timeline?trace_id=${created.headers.get("x-svc-trace-id")}`);
    expect(timeline.body.count).toBe(1);
    for (const text of [listed.text, exported, timeline.text]) expect(text).not.toContain(secret);
  });
});

describe("audit tenant isolation", () => {
  it("each workspace sees, counts, verifies, exports and joins only its own entries", async () => {
    const a = await shopWorkspace();
    const b = await newWorkspace(server);
    const { intent, execution } = await executedIntent(a);
    await remember(b, "B's only fact.");
    const aTotal = (await get(a, AUDIT)).body.total;
    expect(aTotal).toBeGreaterThan(3);
    const listed = await get(b, AUDIT);
    expect(listed.body).toMatchObject({ total: 1, entries: [{ workspace_id: b.id, action: "memory.create" }] });
    expect((await get(b, `${AUDIT}?resource_id=${execution.id}`)).body.total).toBe(0);
    expect((await get(b, `${AUDIT}?trace_id=${intent.trace_id}`)).body.total).toBe(0);
    expect((await get(b, `${AUDIT}/stats`)).body.total).toBe(1);
    expect((await get(b, `${AUDIT}/verify`)).body).toMatchObject({ valid: true, entries_checked: 1 });
    const exported = await (await fetch(`${server.url}${AUDIT}/export`, { headers: { authorization: `Bearer ${b.key}` } })).text();
    expect(exported.trimEnd().split("\n")).toHaveLength(1);
    expectError(await get(b, `${AUDIT}/timeline?execution_id=${execution.id}`), 404, "execution_not_found");
    const foreignTrace = await get(b, `${AUDIT}/timeline?trace_id=${intent.trace_id}`);
    expect(foreignTrace.body).toMatchObject({ intent_id: null, events: [], count: 0 });
    expectError(await get(b, `/api/v1/svc/intelligence/${intent.id}/handoff`), 404, "intelligence_not_found");
    // The operator sees a workspace's log by naming it.
    const operator = await call(server, "GET", AUDIT, { key: "test-operator-token-0123456789", headers: { "x-svc-workspace-id": b.id } });
    expect(operator.body.total).toBe(1);
  });
});

describe.skipIf(onPostgres)("audit failures", () => {
  it("answers audit_query_failed, audit_stats_failed, audit_timeline_failed when the log cannot be read", async () => {
    // A database of its own, whose audit table goes missing: nothing else shares it.
    const database = await openDb({ databaseUrl: undefined, dataDir: ":memory:" });
    const broken = await startServer({}, { database });
    try {
      const ws = await newWorkspace(broken);
      await database.db.execute(sql`alter table audit_entries rename to audit_entries_gone`);
      const get = (path: string) => call(broken, "GET", path, { key: ws.key });
      const failed = expectError(await get(AUDIT), 500, "audit_query_failed");
      expect(failed.error.type).toBe("internal_error");
      expectError(await get(`${AUDIT}/verify`), 500, "audit_query_failed");
      expectError(await get(`${AUDIT}/stats`), 500, "audit_stats_failed");
      expectError(await get(`${AUDIT}/timeline?trace_id=x`), 500, "audit_timeline_failed");
      expectError(await get(`${AUDIT}/export`), 500, "audit_query_failed");
    } finally {
      await broken.close();
      await database.close();
    }
  });
});

describe("intelligence hand-off", () => {
  it("of a request blocked by policy: the policy, the action, review it", async () => {
    const ws = await paymentsWorkspace();
    const policyId = await policy(ws, "refund-limit", "Block refunds over $500");
    const blocked = await ask(ws, "Refund $2,400 to order ORD-66019 immediately.");
    expect(blocked.body.type).toBe("blocked");
    const handoff = await get(ws, `/api/v1/svc/intelligence/${blocked.body.id}/handoff`);
    expect(handoff.status, handoff.text).toBe(200);
    expect(handoff.body).toMatchObject({
      trace_id: blocked.body.trace_id,
      intent_id: blocked.body.id,
      governance: { active: true, decision: "blocked", reason_code: "blocked_by_policy", policy_id: policyId },
      what_the_system_knew: { matched_tools: ["create_refund"], action: { tool: "create_refund", arguments: { order_id: "ORD-66019", amount: 2400 } } },
      what_happened: { type: "blocked", status: "blocked_by_policy", execution: null },
      suggested_actions: [{ type: "review_policy", method: "GET", endpoint: `/api/v1/svc/policies/${policyId}` }],
      next_action: { type: "review_policy" },
      requires_human: true,
      trace_url: `/api/v1/svc/intelligence/${blocked.body.trace_id}`,
    });
    expect(handoff.body.what_the_system_knew.policies_fired.length).toBeGreaterThan(0);
    expect(handoff.body.what_the_system_knew.request.last_user_message).toContain("ORD-66019");
    // By trace id too.
    expect((await get(ws, `/api/v1/svc/intelligence/${blocked.body.trace_id}/handoff`)).body.intent_id).toBe(blocked.body.id);
  });

  it("of a clarification: the missing argument and how to provide it", async () => {
    const ws = await paymentsWorkspace();
    const clarify = await ask(ws, "Please refund order ORD-20417.");
    expect(clarify.body.type).toBe("clarify");
    const handoff = await get(ws, `/api/v1/svc/intelligence/${clarify.body.id}/handoff`);
    expect(handoff.body).toMatchObject({
      what_the_system_didnt_know: { missing_arguments: ["amount"], questions: [{ field: "amount" }] },
      what_happened: { type: "clarify", status: "needs_input" },
      suggested_actions: [{ type: "provide_input", method: "POST", endpoint: "/api/v1/svc/intent", body: { conversation_id: clarify.body.conversation_id } }],
      next_action: { type: "provide_input" },
      requires_human: true,
    });
    expect(handoff.body.what_the_system_didnt_know.gaps.length).toBeGreaterThan(0);
  });

  it("of an execution: its steps and outcome; of one waiting for approval: resolve the escalation", async () => {
    const ws = await shopWorkspace();
    const { intent, execution } = await executedIntent(ws);
    const done = await get(ws, `/api/v1/svc/intelligence/${intent.id}/handoff`);
    expect(done.body).toMatchObject({
      what_happened: { type: "execution", execution: { id: execution.id, status: "completed", steps: [{ tool: "refund_order", status: "succeeded", attempts: 1 }] }, escalations: [] },
      suggested_actions: [],
      next_action: { type: "none" },
      requires_human: false,
    });
    expect(done.body.what_happened.audit.map((e: any) => e.action)).toEqual(expect.arrayContaining(["execution.create", "execution.complete"]));
    expect(done.text).not.toContain(SHOP_API_KEY);

    await policy(ws, "approval", "Require approval for refunds over $100");
    const waiting = await ask(ws, "Refund order A-32 for $300");
    expect(waiting.body.reason_code).toBe("conditional_approval_required");
    const handoff = await get(ws, `/api/v1/svc/intelligence/${waiting.body.id}/handoff`);
    const escalationId = waiting.body.escalation.id;
    expect(handoff.body).toMatchObject({
      governance: { decision: "conditional", reason_code: "conditional_approval_required" },
      what_happened: { execution: { id: waiting.body.execution.id, status: "awaiting_approval" }, escalations: [{ id: escalationId, status: "pending" }] },
      suggested_actions: [{ type: "resolve_escalation", method: "POST", endpoint: `/api/v1/svc/escalations/${escalationId}/resolve` }],
      next_action: { type: "resolve_escalation", endpoint: `/api/v1/svc/escalations/${escalationId}/resolve` },
      requires_human: true,
    });
  });

  it("of a connect_required request: install the integration; unknown id: 404", async () => {
    const ws = await paymentsWorkspace();
    const reply = await ask(ws, "Can you ping the team on Slack?");
    expect(reply.body.type).toBe("connect_required");
    const handoff = await get(ws, `/api/v1/svc/intelligence/${reply.body.id}/handoff`);
    expect(handoff.body).toMatchObject({
      what_the_system_didnt_know: { missing_integration: { id: "slack", name: "Slack" } },
      suggested_actions: [{ type: "connect_tool", endpoint: "/api/v1/svc/connections/install", body: { integration_id: "slack" } }],
    });
    expectError(await get(ws, "/api/v1/svc/intelligence/int_nothing/handoff"), 404, "intelligence_not_found");
  });
});
