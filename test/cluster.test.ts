// Two processes on one PostgreSQL: a rotation or revocation made through one is enforced by the other
// within a second (LISTEN/NOTIFY invalidates every process's verification cache).
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { call, expectError, newWorkspace, onPostgres, startServer, type TestServer } from "./helpers/server.ts";
import { spawnServe, type ServeProcess } from "./helpers/process.ts";

describe.skipIf(!onPostgres)("several processes on one PostgreSQL", () => {
  let local: TestServer;
  let child: ServeProcess;
  beforeAll(async () => {
    local = await startServer();
    const limits = { SVC_RATE_LIMIT_PER_KEY: "1000000", SVC_RATE_LIMIT_PER_WORKSPACE: "1000000", SVC_AUTH_FAILURE_LIMIT: "1000000" };
    child = await spawnServe({ DATABASE_URL: process.env.DATABASE_URL!, ...limits });
  });
  afterAll(async () => {
    await child?.stop();
    await local?.close();
  });

  async function until(check: () => Promise<boolean>, withinMs: number): Promise<number> {
    const started = Date.now();
    while (Date.now() - started < withinMs) {
      if (await check()) return Date.now() - started;
      await new Promise((r) => setTimeout(r, 20));
    }
    throw new Error(`not seen within ${withinMs} ms`);
  }

  it("a revocation on one process is enforced by the other within one second", async () => {
    const ws = await newWorkspace(local);
    // The child caches the key as valid first.
    expect((await call(child, "GET", "/api/v1/svc/health", { key: ws.key })).status).toBe(200);
    expect((await call(child, "GET", "/api/v1/svc/health", { key: ws.key })).status).toBe(200);
    const revoked = await call(local, "DELETE", `/api/v1/maas/workspaces/${ws.id}/api-keys/${ws.keyId}`, { key: ws.key });
    expect(revoked.status).toBe(204);
    const elapsed = await until(async () => (await call(child, "GET", "/api/v1/svc/health", { key: ws.key })).status === 401, 1000);
    expect(elapsed).toBeLessThan(1000);
    expectError(await call(child, "GET", "/api/v1/svc/health", { key: ws.key }), 401, "auth_revoked");
  });

  it("a rotation on the other process is enforced here within one second", async () => {
    const ws = await newWorkspace(local);
    expect((await call(local, "GET", "/api/v1/svc/health", { key: ws.key })).status).toBe(200);
    const rotated = await call(child, "POST", `/api/v1/maas/workspaces/${ws.id}/api-keys/${ws.keyId}/rotate`, { key: ws.key });
    expect(rotated.status).toBe(200);
    await until(async () => (await call(local, "GET", "/api/v1/svc/health", { key: ws.key })).status === 401, 1000);
    expectError(await call(local, "GET", "/api/v1/svc/health", { key: ws.key }), 401, "auth_rotating");
    expect((await call(local, "GET", "/api/v1/svc/health", { key: rotated.body.plaintext })).status).toBe(200);
  });
});
