import { randomInt } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openDb, type Database } from "../src/db/index.ts";
import { ADMIN_TOKEN, call, expectError, newWorkspace, onPostgres, startServer, useServer, type TestServer } from "./helpers/server.ts";

// Each test uses its own client address (X-Forwarded-For, trusted in tests) so address limits never mix:
// consecutive documentation addresses (2001:db8::/32, only ever a header value) from a random start.
let lastAddress = randomInt(0, 1_000_000);
const address = () => `2001:db8::${(++lastAddress).toString(16)}`;
const health = "/api/v1/svc/health";
// On PostgreSQL the failed-authentication counter of 127.0.0.1 is shared with every other test file;
// a valid key from an address over the limit may not be looked up, so calls here come from their own.
const mine = address();
const from = { "x-forwarded-for": mine };

// Workspaces are made through an unlimited server on the same database, so only the calls under test count.
const admin = useServer();
let limited: TestServer;
beforeAll(async () => {
  limited = await startServer({ SVC_RATE_LIMIT_PER_KEY: "3", SVC_RATE_LIMIT_PER_WORKSPACE: "5", SVC_AUTH_FAILURE_LIMIT: "4" });
});
afterAll(async () => {
  await limited?.close();
});

describe("rate limits", () => {
  it("per API key: over the limit, 429 rate_limited with an integer Retry-After", async () => {
    const ws = await newWorkspace(admin());
    for (let i = 0; i < 3; i++) expect((await call(limited, "GET", health, { key: ws.key, headers: from })).status).toBe(200);
    const reply = await call(limited, "GET", health, { key: ws.key, headers: from });
    const body = expectError(reply, 429, "rate_limited");
    expect(body.error.type).toBe("rate_limit");
    const retryAfter = reply.headers.get("retry-after")!;
    expect(retryAfter).toMatch(/^\d+$/);
    expect(Number(retryAfter)).toBeGreaterThanOrEqual(1);
    expect(Number(retryAfter)).toBeLessThanOrEqual(60);
    expect(body.error.retry_after).toBe(Number(retryAfter));
  });

  it("per workspace: all keys of a workspace share its limit", async () => {
    const ws = await newWorkspace(admin());
    // The operator's calls never spend a workspace's budget.
    const second = await call(admin(), "POST", `/api/v1/maas/workspaces/${ws.id}/api-keys`, { key: ADMIN_TOKEN, body: { name: "second" } });
    expect(second.status).toBe(201);
    for (let i = 0; i < 2; i++) expect((await call(limited, "GET", health, { key: ws.key, headers: from })).status).toBe(200);
    for (let i = 0; i < 3; i++) expect((await call(limited, "GET", health, { key: second.body.plaintext, headers: from })).status).toBe(200);
    // The first key has spent 2 of its 3, but the workspace has spent 5 of 5.
    expectError(await call(limited, "GET", health, { key: ws.key, headers: from }), 429, "rate_limited");
  });

  it("a key refused by its own limit does not spend its workspace's", async () => {
    const ws = await newWorkspace(admin());
    const second = await call(admin(), "POST", `/api/v1/maas/workspaces/${ws.id}/api-keys`, { key: ADMIN_TOKEN, body: { name: "second" } });
    for (let i = 0; i < 3; i++) expect((await call(limited, "GET", health, { key: ws.key, headers: from })).status).toBe(200);
    // Over the key's 3: refused, and the workspace's counter stays at 3 of 5.
    for (let i = 0; i < 3; i++) expectError(await call(limited, "GET", health, { key: ws.key, headers: from }), 429, "rate_limited");
    for (let i = 0; i < 2; i++) expect((await call(limited, "GET", health, { key: second.body.plaintext, headers: from })).status).toBe(200);
    expectError(await call(limited, "GET", health, { key: second.body.plaintext, headers: from }), 429, "rate_limited");
  });

  it("failed authentications per client address: stricter, and refused before any key lookup", async () => {
    const from = address();
    const headers = { "x-forwarded-for": from };
    for (let i = 0; i < 4; i++) expectError(await call(limited, "GET", health, { headers }), 401, "auth_missing");
    const blocked = await call(limited, "GET", health, { headers, key: "sk_svc_wrong" });
    expectError(blocked, 429, "rate_limited");
    expect(blocked.headers.get("retry-after")).toMatch(/^\d+$/);
    // Another address is not affected.
    expectError(await call(limited, "GET", health, { headers: { "x-forwarded-for": address() } }), 401, "auth_missing");
  });

  it("a valid key from a blocked address still works when its verification is cached", async () => {
    const ws = await newWorkspace(admin());
    const from = address();
    expect((await call(limited, "GET", health, { key: ws.key, headers: { "x-forwarded-for": from } })).status).toBe(200);
    for (let i = 0; i < 5; i++) await call(limited, "GET", health, { headers: { "x-forwarded-for": from } });
    expect((await call(limited, "GET", health, { key: ws.key, headers: { "x-forwarded-for": from } })).status).toBe(200);
  });
});

describe.skipIf(!onPostgres)("rate limits across processes (PostgreSQL)", () => {
  let other: TestServer;
  let otherDb: Database;
  beforeAll(async () => {
    // A second app with its own pool: as another node behind a load balancer would be.
    otherDb = await openDb({ databaseUrl: process.env.DATABASE_URL, dataDir: ":memory:" });
    other = await startServer({ SVC_RATE_LIMIT_PER_KEY: "3", SVC_RATE_LIMIT_PER_WORKSPACE: "5", SVC_AUTH_FAILURE_LIMIT: "4" }, { database: otherDb });
  });
  afterAll(async () => {
    await other?.close();
    await otherDb?.close();
  });

  it("when the counters' database cannot be reached, the in-memory limits take over and still refuse", async () => {
    const ownDb = await openDb({ databaseUrl: process.env.DATABASE_URL, dataDir: ":memory:" });
    const node = await startServer({ SVC_RATE_LIMIT_PER_KEY: "3", SVC_RATE_LIMIT_PER_WORKSPACE: "5", SVC_AUTH_FAILURE_LIMIT: "4" }, { database: ownDb });
    try {
      const ws = await newWorkspace(admin());
      // Verified (and cached) while the database is there; then its pool is gone.
      expect((await call(node, "GET", health, { key: ws.key, headers: from })).status).toBe(200);
      await ownDb.pool!.end();
      const statuses = [];
      for (let i = 0; i < 4; i++) statuses.push((await call(node, "GET", health, { key: ws.key, headers: from })).status);
      expect(statuses).toEqual([200, 200, 200, 429]);
    } finally {
      await node.close().catch(() => {});
      await ownDb.close().catch(() => {});
    }
  });

  it("a key's limit holds across two nodes", async () => {
    const ws = await newWorkspace(admin());
    expect((await call(limited, "GET", health, { key: ws.key, headers: from })).status).toBe(200);
    expect((await call(other, "GET", health, { key: ws.key, headers: from })).status).toBe(200);
    expect((await call(limited, "GET", health, { key: ws.key, headers: from })).status).toBe(200);
    expectError(await call(other, "GET", health, { key: ws.key, headers: from }), 429, "rate_limited");
  });
});

const redisUrl = process.env.SVC_TEST_REDIS_URL ?? "redis://127.0.0.1:6379";
const redisReachable = await new Promise<boolean>((resolve) => {
  import("node:net").then(({ connect }) => {
    const { hostname, port } = new URL(redisUrl);
    const socket = connect({ host: hostname, port: Number(port || 6379) }, () => {
      socket.end();
      resolve(true);
    });
    socket.on("error", () => resolve(false));
    socket.setTimeout(500, () => {
      socket.destroy();
      resolve(false);
    });
  });
});

describe.skipIf(!redisReachable)("rate limits in Redis (SVC_REDIS_URL)", () => {
  let first: TestServer;
  let second: TestServer;
  beforeAll(async () => {
    const env = { SVC_REDIS_URL: redisUrl, SVC_RATE_LIMIT_PER_KEY: "3", SVC_RATE_LIMIT_PER_WORKSPACE: "100" };
    first = await startServer(env);
    second = await startServer(env);
  });
  afterAll(async () => {
    await first?.close();
    await second?.close();
  });

  it("two servers share a key's counter through Redis", async () => {
    const ready = await call(first, "GET", "/infra/readyz");
    expect(ready.body.rate_limits.store).toBe("redis");
    const ws = await newWorkspace(admin());
    expect((await call(first, "GET", health, { key: ws.key, headers: from })).status).toBe(200);
    expect((await call(second, "GET", health, { key: ws.key, headers: from })).status).toBe(200);
    expect((await call(first, "GET", health, { key: ws.key, headers: from })).status).toBe(200);
    const refused = await call(second, "GET", health, { key: ws.key, headers: from });
    expectError(refused, 429, "rate_limited");
    expect(refused.headers.get("retry-after")).toMatch(/^\d+$/);
  });
});
