// Generated from the OpenAPI document: every route that is not public is tried without a key, with another
// workspace's key, and with a malformed body. New routes are covered as soon as they are registered.
import { describe, expect, it } from "vitest";
import { ADMIN_TOKEN, call, expectError, newWorkspace, useServer, type TestWorkspace } from "./helpers/server.ts";

const server = useServer();

interface Operation {
  method: string;
  path: string;
  hasBody: boolean;
  public: boolean;
}

async function operations(): Promise<Operation[]> {
  const doc = await call(server(), "GET", "/api/v1/svc/docs/openapi.json");
  const list: Operation[] = [];
  for (const [path, methods] of Object.entries(doc.body.paths as Record<string, Record<string, any>>)) {
    for (const [method, op] of Object.entries(methods)) {
      list.push({ method: method.toUpperCase(), path, hasBody: Boolean(op.requestBody), public: Array.isArray(op.security) && op.security.length === 0 });
    }
  }
  return list;
}

function fill(path: string, ws: TestWorkspace): string {
  return path.replace("{workspace_id}", ws.id).replace("{key_id}", ws.keyId).replace(/\{[^}]+\}/g, "x");
}

async function snapshot(ws: TestWorkspace): Promise<unknown> {
  const keys = await call(server(), "GET", `/api/v1/maas/workspaces/${ws.id}/api-keys?include_revoked=true`, { key: ADMIN_TOKEN });
  const workspace = await call(server(), "GET", `/api/v1/maas/workspaces/${ws.id}`, { key: ADMIN_TOKEN });
  return { keys: keys.body, workspace: workspace.body };
}

describe("security suite generated from the OpenAPI document", () => {
  it("covers a non-trivial number of routes", async () => {
    const ops = await operations();
    expect(ops.filter((o) => !o.public).length).toBeGreaterThanOrEqual(7);
  });

  it("every non-public route without a key: 401 auth_missing with the canonical body and trace header", async () => {
    const a = await newWorkspace(server());
    for (const op of (await operations()).filter((o) => !o.public)) {
      const reply = await call(server(), op.method, fill(op.path, a), op.hasBody ? { body: {} } : {});
      try {
        expectError(reply, 401, "auth_missing");
      } catch (error) {
        throw new Error(`${op.method} ${op.path}: ${(error as Error).message}`);
      }
    }
  });

  it("HEAD of every non-public GET route without a key: 401 (HEAD routes inherit the route's authentication)", async () => {
    const a = await newWorkspace(server());
    for (const op of (await operations()).filter((o) => !o.public && o.method === "GET")) {
      const reply = await fetch(`${server().url}${fill(op.path, a)}`, { method: "HEAD" });
      expect(reply.status, `HEAD ${op.path}`).toBe(401);
      expect(reply.headers.get("x-svc-trace-id"), `HEAD ${op.path}`).toMatch(/^[0-9a-f]{32}$/);
    }
  });

  it("another workspace's key: no data of the other workspace and nothing changed", async () => {
    const a = await newWorkspace(server());
    const b = await newWorkspace(server());
    const before = await snapshot(a);
    for (const op of (await operations()).filter((o) => !o.public)) {
      const reply = await call(server(), op.method, fill(op.path, a), { key: b.key, ...(op.hasBody ? { body: { name: "intruder" } } : {}) });
      const label = `${op.method} ${op.path} -> ${reply.status}`;
      if (op.path.includes("{workspace_id}") || op.path.startsWith("/api/v1/maas/")) {
        expectError(reply, 403, "auth_forbidden");
      } else {
        // Runtime routes act on the caller's own workspace: nothing of A may appear.
        expect(reply.text, label).not.toContain(a.id);
      }
    }
    expect(await snapshot(a)).toEqual(before);
    expect((await call(server(), "GET", "/api/v1/svc/health", { key: a.key })).status).toBe(200);
  });

  it("malformed JSON bodies: 400 invalid_request with the canonical body", async () => {
    const a = await newWorkspace(server());
    for (const op of (await operations()).filter((o) => o.hasBody)) {
      const reply = await call(server(), op.method, fill(op.path, a), { key: ADMIN_TOKEN, headers: { "x-svc-workspace-id": a.id }, rawBody: "{not json" });
      try {
        const body = expectError(reply, 400, "invalid_request");
        expect(body.error.details.length).toBeGreaterThan(0);
      } catch (error) {
        throw new Error(`${op.method} ${op.path}: ${(error as Error).message}`);
      }
    }
  });
});
