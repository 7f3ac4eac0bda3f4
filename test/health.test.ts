import { describe, expect, it } from "vitest";
import { VERSION } from "../src/version.ts";
import { call, expectError, newWorkspace, onPostgres, useServer } from "./helpers/server.ts";

const server = useServer();

describe("health and probes", () => {
  it("GET /api/v1/svc/health answers 200 with the workspace and the component summary", async () => {
    const ws = await newWorkspace(server());
    const reply = await call(server(), "GET", "/api/v1/svc/health", { key: ws.key });
    expect(reply.status).toBe(200);
    expect(reply.body).toMatchObject({
      status: "healthy",
      version: VERSION,
      workspace: ws.name,
      workspace_id: ws.id,
      tenant_id: ws.id,
      memory: { status: "healthy" },
      connections: { total: 0, healthy: 0 },
      governance: { active: 0 },
    });
    expect(Date.parse(reply.body.timestamp)).not.toBeNaN();
    expect(reply.headers.get("x-svc-trace-id")).toMatch(/^[0-9a-f]{32}$/);
  });

  it("health requires a key", async () => {
    expectError(await call(server(), "GET", "/api/v1/svc/health"), 401, "auth_missing");
  });

  it("livez and readyz need no key; readyz checks the database", async () => {
    const live = await call(server(), "GET", "/infra/livez");
    expect(live.status).toBe(200);
    expect(live.body).toEqual({ status: "ok" });
    const ready = await call(server(), "GET", "/infra/readyz");
    expect(ready.status).toBe(200);
    expect(ready.body.status).toBe("ready");
    expect(ready.body.database).toMatchObject({ backend: onPostgres ? "postgres" : "pglite", status: "healthy" });
    expect(Number.isInteger(ready.body.database.latency_ms)).toBe(true);
    expect(ready.body.rate_limits.store).toBe(onPostgres ? "postgres" : "memory");
  });

  it("serves the docs index and an OpenAPI 3.1 document with every route's error responses", async () => {
    const index = await call(server(), "GET", "/infra/docs");
    expect(index.status).toBe(200);
    expect(index.text).toContain("/api/v1/svc/docs/openapi.json");
    const doc = await call(server(), "GET", "/api/v1/svc/docs/openapi.json");
    expect(doc.status).toBe(200);
    expect(doc.body.openapi).toBe("3.1.0");
    const paths = doc.body.paths as Record<string, Record<string, any>>;
    expect(Object.keys(paths)).toEqual(
      expect.arrayContaining([
        "/api/v1/svc/health",
        "/api/v1/maas/workspaces",
        "/api/v1/maas/workspaces/{workspace_id}/api-keys",
        "/api/v1/maas/workspaces/{workspace_id}/api-keys/{key_id}/rotate",
        "/api/v1/maas/workspaces/{workspace_id}/api-keys/{key_id}",
      ]),
    );
    for (const [route, methods] of Object.entries(paths)) {
      for (const [method, operation] of Object.entries(methods)) {
        const statuses = Object.keys(operation.responses ?? {});
        expect(statuses, `${method} ${route}`).toContain("500");
        if (operation.security?.length !== 0) {
          expect(statuses, `${method} ${route}`).toEqual(expect.arrayContaining(["401", "429"]));
          expect(operation.responses["401"].description).toContain("auth_missing");
        }
      }
    }
    expect(paths["/api/v1/maas/workspaces/{workspace_id}/api-keys/{key_id}"]!.delete.responses["404"].description).toContain("api_key_not_found");
  });
});
