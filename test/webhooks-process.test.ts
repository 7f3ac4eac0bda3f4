// Webhook delivery across processes: a process killed (SIGKILL) after an event committed and before it was
// delivered, or while a delivery was in flight, leaves it to the next process; and on PostgreSQL several
// processes share the deliveries without sending any event twice.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import pg from "pg";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { call, newWorkspace, onPostgres, type TestWorkspace } from "./helpers/server.ts";
import { spawnServe, type ServeProcess } from "./helpers/process.ts";
import { makeCertificate } from "./helpers/tls.ts";
import { startReceiver, type Receiver } from "./helpers/webhook-receiver.ts";

const tls = makeCertificate();
const SECRET = "process-test-secret-0123456789";
let receiver: Receiver;
let dataDir: string;
let databaseUrl: string | undefined;
const children: ServeProcess[] = [];
// On PostgreSQL these processes get a database of their own: their settings (time limits, leases) differ
// from the other webhook files', whose workers would otherwise claim these deliveries and the reverse.
const ownDatabase = `svc_webhooks_proc_${process.pid}`;
async function admin(statement: string): Promise<void> {
  const client = new pg.Client({ connectionString: process.env.DATABASE_URL });
  await client.connect();
  try {
    await client.query(statement);
  } finally {
    await client.end();
  }
}

beforeAll(async () => {
  receiver = await startReceiver(tls);
  dataDir = mkdtempSync(path.join(tmpdir(), "svc-webhooks-"));
  if (onPostgres) {
    await admin(`create database ${ownDatabase}`);
    const url = new URL(process.env.DATABASE_URL!);
    url.pathname = `/${ownDatabase}`;
    databaseUrl = url.toString();
  }
});
// A test that fails midway must not leave its process holding the data directory for the next one.
afterEach(async () => {
  for (const child of children.splice(0)) await child.stop();
});
afterAll(async () => {
  await receiver?.close();
  rmSync(dataDir, { recursive: true, force: true });
  if (onPostgres) await admin(`drop database if exists ${ownDatabase} with (force)`);
});

/** A `svc serve` child on this run's database: PostgreSQL when DATABASE_URL is set, else a data directory. */
async function serve(env: Record<string, string> = {}): Promise<ServeProcess> {
  // A minute to start: the whole suite may be running beside it on two cores.
  const child = await spawnServe({
    ...(databaseUrl ? { DATABASE_URL: databaseUrl } : { SVC_DATA_DIR: dataDir }),
    SVC_OUTBOUND_ALLOW_HOSTS: "127.0.0.1",
    SVC_OUTBOUND_CA_FILE: tls.certFile,
    SVC_WEBHOOK_WORKER: "true",
    SVC_WEBHOOK_TIMEOUT_MS: "2000",
    SVC_WEBHOOK_LEASE_MS: "5000",
    SVC_WEBHOOK_RETRY_BASE_MS: "100",
    SVC_WEBHOOK_POLL_MS: "200",
    // Rate limits live in the shared PostgreSQL: other test files' failed authentications must not count here.
    SVC_RATE_LIMIT_PER_KEY: "1000000",
    SVC_RATE_LIMIT_PER_WORKSPACE: "1000000",
    SVC_AUTH_FAILURE_LIMIT: "1000000",
    ...env,
  }, 60_000);
  children.push(child);
  return child;
}

async function confirmPolicy(server: { url: string }, ws: TestWorkspace): Promise<string> {
  const created = await call(server, "POST", "/api/v1/svc/policies", { key: ws.key, body: { name: `p-${Math.random()}`, rule: "Block refunds over $500" } });
  expect(created.status, created.text).toBe(201);
  const confirmed = await call(server, "POST", `/api/v1/svc/policies/${created.body.id}/confirm`, { key: ws.key, body: { version: 1 } });
  expect(confirmed.status, confirmed.text).toBe(200);
  return created.body.id;
}

async function subscribe(server: { url: string }, ws: TestWorkspace, name: string): Promise<string> {
  const created = await call(server, "POST", "/api/v1/svc/webhooks", { key: ws.key, body: { url: receiver.url(name), events: ["policy.confirmed"], secret: SECRET } });
  expect(created.status, created.text).toBe(201);
  return created.body.id;
}

describe("webhook delivery survives a killed process", () => {
  it("an event committed by a process killed before delivering it is delivered by the next one, once", { timeout: 150_000 }, async () => {
    // The first process commits events but does not deliver (its worker is off), then dies without warning.
    const first = await serve({ SVC_WEBHOOK_WORKER: "false" });
    const ws = await newWorkspace(first);
    const name = `killed-${process.pid}`;
    const hookId = await subscribe(first, ws, name);
    const policyId = await confirmPolicy(first, ws);
    await first.stop("SIGKILL");
    expect(receiver.received(name)).toHaveLength(0);

    const second = await serve();
    const [got] = await receiver.waitFor(name, 1, 30_000);
    expect(JSON.parse(got!.body)).toMatchObject({ type: "policy.confirmed", data: { policy_id: policyId } });
    await new Promise((r) => setTimeout(r, 800));
    expect(receiver.received(name)).toHaveLength(1);
    const log = await call(second, "GET", `/api/v1/svc/webhooks/${hookId}/deliveries`, { key: ws.key });
    // Attempts that never reached the receiver (a connection that timed out on a loaded machine) may count too.
    expect(log.body.deliveries[0]).toMatchObject({ status: "delivered", response_code: 200 });
    await second.stop();
  });

  it("a delivery in flight when its process is killed is sent again after its lease, and then only once", { timeout: 150_000 }, async () => {
    // A time limit long enough that the first process is killed while still waiting (not after giving up).
    const first = await serve({ SVC_WEBHOOK_TIMEOUT_MS: "6000", SVC_WEBHOOK_LEASE_MS: "8000" });
    const ws = await newWorkspace(first);
    const name = `inflight-${process.pid}`;
    // The receiver holds the first request without answering: the process dies waiting for it.
    receiver.behave(name, (n) => (n === 0 ? { hang: true } : {}));
    const hookId = await subscribe(first, ws, name);
    await confirmPolicy(first, ws);
    await receiver.waitFor(name, 1);
    await first.stop("SIGKILL");

    const second = await serve();
    const seen = await receiver.waitFor(name, 2, 30_000);
    // The same event (receivers dedupe on webhook-id), sent again only once the dead process's lease had passed.
    expect(seen[1]!.headers["webhook-id"]).toBe(seen[0]!.headers["webhook-id"]);
    expect(seen[1]!.at - seen[0]!.at).toBeGreaterThanOrEqual(7_000);
    await new Promise((r) => setTimeout(r, 800));
    expect(receiver.received(name)).toHaveLength(2);
    const log = await call(second, "GET", `/api/v1/svc/webhooks/${hookId}/deliveries`, { key: ws.key });
    expect(log.body.deliveries[0]).toMatchObject({ status: "delivered", response_code: 200 });
    await second.stop();
  });
});

describe.skipIf(!onPostgres)("several processes on one PostgreSQL", () => {
  it("share the deliveries: every event delivered exactly once", { timeout: 150_000 }, async () => {
    const [a, b] = await Promise.all([serve(), serve()]);
    const ws = await newWorkspace(a);
    const name = `shared-${process.pid}`;
    await subscribe(a, ws, name);
    const count = 30;
    const policies: string[] = [];
    // Events committed through both processes, concurrently.
    await Promise.all(
      Array.from({ length: count }, async (_, i) => {
        policies.push(await confirmPolicy(i % 2 === 0 ? a : b, ws));
      }),
    );
    const seen = await receiver.waitFor(name, count, 60_000);
    await new Promise((r) => setTimeout(r, 1_000));
    expect(receiver.received(name)).toHaveLength(count);
    const ids = new Set(seen.map((r) => r.headers["webhook-id"]));
    expect(ids.size).toBe(count);
    expect(new Set(seen.map((r) => JSON.parse(r.body).data.policy_id))).toEqual(new Set(policies));
    await Promise.all([a.stop(), b.stop()]);
  });
});
