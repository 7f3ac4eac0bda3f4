// Webhooks over real HTTP: subscriptions, events written in the transaction of their change, signed
// deliveries to a real local HTTPS receiver, retries, the delivery log, redelivery and tenant isolation.
import { createHmac, timingSafeEqual } from "node:crypto";
import { sql } from "drizzle-orm";
import { Webhook } from "standardwebhooks";
import { systemClock } from "../src/clock.ts";
import { createOutbox } from "../src/events/outbox.ts";
import { randomIds } from "../src/ids.ts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { call, expectError, newWorkspace, query, useServer, type TestWorkspace } from "./helpers/server.ts";
import { sharedWebhookCertificate, startReceiver, webhookTestEnv, type Receiver, type Received } from "./helpers/webhook-receiver.ts";

const tls = sharedWebhookCertificate();
const server = useServer(webhookTestEnv(tls.certFile));
const BASE = "/api/v1/svc/webhooks";
const SECRET = "whsec-test-secret-0123456789abcdef";

let receiver: Receiver;
beforeAll(async () => {
  receiver = await startReceiver(tls);
});
afterAll(async () => {
  await receiver?.close();
});

let names = 0;
const fresh = (prefix: string) => `${prefix}-${process.pid}-${++names}`;

async function subscribe(ws: TestWorkspace, name: string, events: string[], secret = SECRET) {
  const created = await call(server(), "POST", BASE, { key: ws.key, body: { url: receiver.url(name), events, secret } });
  expect(created.status, created.text).toBe(201);
  return created.body as { id: string; url: string; events: string[] };
}

/** Creates and confirms a policy: a `policy.confirmed` event. */
async function confirmPolicy(ws: TestWorkspace, name = fresh("p")) {
  const created = await call(server(), "POST", "/api/v1/svc/policies", { key: ws.key, body: { name, rule: "Block refunds over $500" } });
  expect(created.status, created.text).toBe(201);
  const confirmed = await call(server(), "POST", `/api/v1/svc/policies/${created.body.id}/confirm`, { key: ws.key, body: { version: 1 } });
  expect(confirmed.status, confirmed.text).toBe(200);
  return created.body.id as string;
}

function verifySvcSignature(received: Received, secret: string): boolean {
  const expected = createHmac("sha256", secret).update(received.body).digest("hex");
  const given = Buffer.from(received.headers["x-svc-signature"] ?? "");
  return given.length === expected.length && timingSafeEqual(given, Buffer.from(expected));
}

function verifyStandard(received: Received, secret: string): unknown {
  return new Webhook(`whsec_${Buffer.from(secret).toString("base64")}`).verify(received.body, received.headers);
}

const deliveries = async (ws: TestWorkspace, id: string) => (await call(server(), "GET", `${BASE}/${id}/deliveries`, { key: ws.key })).body.deliveries as any[];

async function until<T>(read: () => Promise<T>, ok: (value: T) => boolean, withinMs = 30_000): Promise<T> {
  const started = Date.now();
  for (;;) {
    const value = await read();
    if (ok(value)) return value;
    if (Date.now() - started > withinMs) throw new Error(`condition not met within ${withinMs} ms: ${JSON.stringify(value)}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

describe("webhook subscriptions", () => {
  it("creates, lists, gets and deletes a subscription; the secret is sealed and never answered", async () => {
    const ws = await newWorkspace(server());
    const name = fresh("crud");
    const created = await subscribe(ws, name, ["policy.confirmed", "intent.decided", "policy.confirmed"]);
    expect(created).toMatchObject({ url: receiver.url(name), events: ["policy.confirmed", "intent.decided"], is_active: true });
    expect(created.id).toMatch(/^whk_[0-9A-Za-z]+$/);
    const listed = await call(server(), "GET", BASE, { key: ws.key });
    expect(listed.body).toMatchObject({ count: 1, webhooks: [{ id: created.id }] });
    const got = await call(server(), "GET", `${BASE}/${created.id}`, { key: ws.key });
    expect(got.body.id).toBe(created.id);
    for (const reply of [JSON.stringify(created), listed.text, got.text]) expect(reply).not.toContain(SECRET);
    const [stored] = await query(server(), sql`select secret from webhooks where id = ${created.id}`);
    expect(stored.secret).not.toContain(SECRET);
    expect(stored.secret.length).toBeGreaterThan(20);

    const deleted = await call(server(), "DELETE", `${BASE}/${created.id}`, { key: ws.key });
    expect(deleted.status).toBe(200);
    expect(deleted.body).toEqual({ id: created.id, status: "deleted" });
    expectError(await call(server(), "GET", `${BASE}/${created.id}`, { key: ws.key }), 404, "webhook_not_found");
    expectError(await call(server(), "DELETE", `${BASE}/${created.id}`, { key: ws.key }), 404, "webhook_not_found");
    expect((await call(server(), "GET", BASE, { key: ws.key })).body).toEqual({ webhooks: [], count: 0 });
  });

  it("refuses a subscription without an HTTPS url, a known event or a long enough secret (500 webhook_creation_failed, details name the field)", async () => {
    const ws = await newWorkspace(server());
    const cases: [Record<string, unknown>, string[]][] = [
      [{}, ["url", "events", "secret"]],
      [{ url: "http://example.com/hook", events: ["*"], secret: SECRET }, ["url"]],
      [{ url: "not a url", events: ["*"], secret: SECRET }, ["url"]],
      [{ url: "https://example.com/hook", events: [], secret: SECRET }, ["events"]],
      [{ url: "https://example.com/hook", events: ["policy.exploded"], secret: SECRET }, ["events"]],
      [{ url: "https://example.com/hook", events: "*", secret: SECRET }, ["events"]],
      [{ url: "https://example.com/hook", events: ["*"] }, ["secret"]],
      [{ url: "https://example.com/hook", events: ["*"], secret: "short" }, ["secret"]],
    ];
    for (const [body, fields] of cases) {
      const reply = expectError(await call(server(), "POST", BASE, { key: ws.key, body }), 500, "webhook_creation_failed");
      expect(reply.error.details.map((d: { field: string }) => d.field), JSON.stringify(body)).toEqual(fields);
      expect(JSON.stringify(reply)).not.toContain(SECRET);
    }
    expect((await call(server(), "GET", BASE, { key: ws.key })).body.count).toBe(0);
  });
});

describe("webhook delivery", () => {
  it("the test ping arrives signed both ways; a tampered body or another secret fails verification", async () => {
    const ws = await newWorkspace(server());
    const name = fresh("ping");
    const hook = await subscribe(ws, name, ["*"]);
    const ping = await call(server(), "POST", `${BASE}/${hook.id}/test`, { key: ws.key });
    expect(ping.status, ping.text).toBe(200);
    expect(ping.body).toMatchObject({ webhook_id: hook.id, event_type: "webhook.test", status: "delivered", attempts: 1, response_code: 200, next_retry_at: null });
    const [received] = receiver.received(name);
    const body = JSON.parse(received!.body);
    expect(Object.keys(body).sort()).toEqual(["created_at", "data", "id", "type"]);
    expect(body).toMatchObject({ id: ping.body.event_id, type: "webhook.test", data: { webhook_id: hook.id } });
    expect(received!.headers["content-type"]).toBe("application/json");
    expect(received!.headers["x-svc-signature"]).toMatch(/^[0-9a-f]{64}$/);
    expect(received!.headers["webhook-id"]).toBe(body.id);
    expect(verifySvcSignature(received!, SECRET)).toBe(true);
    expect(verifyStandard(received!, SECRET)).toEqual(body);

    const tampered = { ...received!, body: received!.body.replace("webhook.test", "webhook.tost") };
    expect(verifySvcSignature(tampered, SECRET)).toBe(false);
    expect(() => verifyStandard(tampered, SECRET)).toThrow();
    expect(verifySvcSignature(received!, "another-secret-0123456789")).toBe(false);
    expect(() => verifyStandard(received!, "another-secret-0123456789")).toThrow();
    // No workspace id in what a receiver gets (wire reference §4.11).
    expect(received!.body).not.toContain(ws.id);
  });

  it("an event is delivered once, to the subscriptions that asked for it, after the change commits", async () => {
    const ws = await newWorkspace(server());
    const wanted = fresh("wanted");
    const all = fresh("all");
    const other = fresh("other");
    const hook = await subscribe(ws, wanted, ["policy.confirmed"]);
    await subscribe(ws, all, ["*"]);
    await subscribe(ws, other, ["escalation.created"]);
    const policyId = await confirmPolicy(ws);
    const [got] = await receiver.waitFor(wanted, 1);
    await receiver.waitFor(all, 1);
    const body = JSON.parse(got!.body);
    expect(body).toMatchObject({ type: "policy.confirmed", data: { policy_id: policyId, version: 1 } });
    expect(verifyStandard(got!, SECRET)).toEqual(body);
    // Longer than several polls and retry delays: still exactly one request each.
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    expect(receiver.received(wanted)).toHaveLength(1);
    expect(receiver.received(all)).toHaveLength(1);
    expect(receiver.received(other)).toHaveLength(0);
    const log = await deliveries(ws, hook.id);
    expect(log).toHaveLength(1);
    expect(log[0]).toMatchObject({ event_id: body.id, event_type: "policy.confirmed", status: "delivered", attempts: 1, response_code: 200, last_error: null });
    const one = await call(server(), "GET", `${BASE}/${hook.id}/deliveries/${log[0].id}`, { key: ws.key });
    expect(one.body).toEqual(log[0]);
  });

  it("retries a receiver that fails (500, then 503 with Retry-After) until it recovers", async () => {
    const ws = await newWorkspace(server());
    const name = fresh("flaky");
    receiver.behave(name, (n) => (n === 0 ? { status: 500 } : n === 1 ? { status: 503, headers: { "retry-after": "1" } } : {}));
    const hook = await subscribe(ws, name, ["policy.confirmed"]);
    await confirmPolicy(ws);
    const seen = await receiver.waitFor(name, 3);
    // Retry-After: 1 was honoured (the backoff alone would be ~200 ms).
    expect(seen[2]!.at - seen[1]!.at).toBeGreaterThanOrEqual(950);
    expect(new Set(seen.map((r) => r.headers["webhook-id"])).size).toBe(1);
    const [log] = await until(() => deliveries(ws, hook.id), (rows) => rows[0]?.status === "delivered");
    expect(log).toMatchObject({ status: "delivered", attempts: 3, response_code: 200, last_error: null });
  });

  it("gives up after the documented number of attempts (failed, in the log), and a redelivery sends it again", async () => {
    const ws = await newWorkspace(server());
    const name = fresh("down");
    let up = false;
    receiver.behave(name, () => (up ? {} : { status: 500 }));
    const hook = await subscribe(ws, name, ["policy.confirmed"]);
    await confirmPolicy(ws);
    const [failed] = await until(() => deliveries(ws, hook.id), (rows) => rows[0]?.status === "failed");
    expect(failed).toMatchObject({ status: "failed", attempts: 4, max_attempts: 4, response_code: 500, next_retry_at: null, delivered_at: null });
    expect(failed.last_error).toContain("500");
    expect(receiver.received(name)).toHaveLength(4);

    up = true;
    const again = await call(server(), "POST", `${BASE}/${hook.id}/deliveries/${failed.id}/redeliver`, { key: ws.key });
    expect(again.status, again.text).toBe(202);
    expect(again.body).toMatchObject({ id: failed.id, status: "pending", attempts: 0 });
    const [delivered] = await until(() => deliveries(ws, hook.id), (rows) => rows[0]?.status === "delivered");
    expect(delivered).toMatchObject({ attempts: 1, response_code: 200 });
    expect(receiver.received(name)).toHaveLength(5);
    expectError(await call(server(), "POST", `${BASE}/${hook.id}/deliveries/dlv_nope/redeliver`, { key: ws.key }), 404, "webhook_delivery_not_found");
    expectError(await call(server(), "GET", `${BASE}/${hook.id}/deliveries/dlv_nope`, { key: ws.key }), 404, "webhook_delivery_not_found");
  });

  it("a receiver slower than the time limit is tried again", async () => {
    const ws = await newWorkspace(server());
    const name = fresh("slow");
    receiver.behave(name, (n) => (n === 0 ? { delayMs: 4_000 } : {}));
    const hook = await subscribe(ws, name, ["policy.confirmed"]);
    await confirmPolicy(ws);
    const [log] = await until(() => deliveries(ws, hook.id), (rows) => rows[0]?.status === "delivered");
    expect(log).toMatchObject({ attempts: 2, response_code: 200 });
    expect(receiver.received(name)).toHaveLength(2);
  });

  it("does not follow a redirect to a private address, and refuses a private address outright", async () => {
    const ws = await newWorkspace(server());
    const name = fresh("redirect");
    receiver.behave(name, () => ({ status: 307, headers: { location: "https://10.0.0.1/steal" } }));
    const hook = await subscribe(ws, name, ["*"]);
    const ping = await call(server(), "POST", `${BASE}/${hook.id}/test`, { key: ws.key });
    // Retries start within ~100 ms here, so the answer may already show the next attempt under way.
    expect(ping.body).toMatchObject({ response_code: 307, delivered_at: null });
    expect(["pending", "delivering"]).toContain(ping.body.status);
    expect(ping.body.last_error).toMatch(/redirect/i);

    const created = await call(server(), "POST", BASE, { key: ws.key, body: { url: "https://192.168.1.10/hook", events: ["*"], secret: SECRET } });
    expect(created.status).toBe(201);
    const direct = await call(server(), "POST", `${BASE}/${created.body.id}/test`, { key: ws.key });
    expect(direct.body).toMatchObject({ response_code: null, delivered_at: null });
    expect(["pending", "delivering"]).toContain(direct.body.status);
    expect(direct.body.last_error).toMatch(/not allowed/);
  });

  it("no tenant sees or triggers another's subscriptions, deliveries or events", async () => {
    const a = await newWorkspace(server());
    const b = await newWorkspace(server());
    const nameA = fresh("tenant-a");
    const nameB = fresh("tenant-b");
    const hookA = await subscribe(a, nameA, ["*"]);
    await subscribe(b, nameB, ["*"]);
    await confirmPolicy(a);
    await receiver.waitFor(nameA, 1);
    const [delivery] = await deliveries(a, hookA.id);
    expect((await call(server(), "GET", BASE, { key: b.key })).body.count).toBe(1);
    for (const [method, path] of [
      ["GET", `${BASE}/${hookA.id}`],
      ["DELETE", `${BASE}/${hookA.id}`],
      ["POST", `${BASE}/${hookA.id}/test`],
      ["GET", `${BASE}/${hookA.id}/deliveries`],
      ["GET", `${BASE}/${hookA.id}/deliveries/${delivery.id}`],
      ["POST", `${BASE}/${hookA.id}/deliveries/${delivery.id}/redeliver`],
    ] as const) {
      expectError(await call(server(), method, path, { key: b.key }), 404, "webhook_not_found");
    }
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(receiver.received(nameB)).toHaveLength(0);
    expect(receiver.received(nameA)).toHaveLength(1);
    expect((await call(server(), "GET", `${BASE}/${hookA.id}`, { key: a.key })).status).toBe(200);
  });

  it("an event belongs to its transaction: rolled back with the change, never stored or sent", async () => {
    const ws = await newWorkspace(server());
    const name = fresh("rollback");
    await subscribe(ws, name, ["policy.confirmed"]);
    const outbox = createOutbox({ ids: randomIds, clock: systemClock });
    const failure = await server()
      .database.db.transaction(async (tx) => {
        await outbox.emit(tx, ws.id, "policy.confirmed", { policy_id: "pol_rolled_back" });
        throw new Error("the change failed after its event was written");
      })
      .catch((error: Error) => error.message);
    expect(failure).toContain("the change failed");
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(receiver.received(name)).toHaveLength(0);
    const [row] = await query(server(), sql`select (select count(*)::int from webhook_events where workspace_id = ${ws.id}) as events, (select count(*)::int from webhook_deliveries where workspace_id = ${ws.id}) as deliveries`);
    expect(row).toEqual({ events: 0, deliveries: 0 });
  });
});
