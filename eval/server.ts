// The real service, in this process, on a throw-away embedded database, and the workspaces the fixtures
// describe, set up over HTTP exactly as a user would: workspace and key (operator), OpenAPI connections,
// memory items, policies created then confirmed.
import { randomBytes } from "node:crypto";
import { buildApp, type BuiltApp } from "../src/app.ts";
import { loadConfig } from "../src/config.ts";
import { openDb, type Database } from "../src/db/index.ts";
import { HarnessError, type Fixture } from "./sets.ts";

export interface EvalServer {
  url: string;
  adminToken: string;
  built: BuiltApp;
  close(): Promise<void>;
}

export async function startEvalServer(): Promise<EvalServer> {
  const adminToken = `eval-operator-${randomBytes(12).toString("hex")}`;
  // An explicit environment, not process.env: the run is always on a fresh embedded database, whatever
  // DATABASE_URL or SVC_* the shell has.
  const config = loadConfig({
    SVC_ADMIN_TOKEN: adminToken,
    SVC_LOG_LEVEL: "silent",
    SVC_PORT: "0",
    SVC_HOST: "127.0.0.1",
    SVC_DATA_DIR: ":memory:",
    SVC_MASTER_KEY: randomBytes(32).toString("base64"),
    SVC_RATE_LIMIT_PER_KEY: "10000000",
    SVC_RATE_LIMIT_PER_WORKSPACE: "10000000",
    SVC_AUTH_FAILURE_LIMIT: "10000000",
  });
  let database: Database | undefined;
  try {
    database = await openDb({ databaseUrl: undefined, dataDir: ":memory:" });
    const built = await buildApp({ config, database });
    await built.app.listen({ port: 0, host: "127.0.0.1" });
    const address = built.app.server.address();
    const port = typeof address === "object" && address ? address.port : 0;
    const db = database;
    return {
      url: `http://127.0.0.1:${port}`,
      adminToken,
      built,
      close: async () => {
        await built.app.close();
        await db.close();
      },
    };
  } catch (error) {
    await database?.close().catch(() => {});
    throw new HarnessError(`the service did not start: ${(error as Error).stack ?? String(error)}`);
  }
}

export interface Reply {
  status: number;
  body: unknown;
  text: string;
  /** Set when no HTTP answer came at all (connection refused, timeout). */
  networkError?: string;
}

export async function request(baseUrl: string, method: string, path: string, key: string, body?: unknown, timeoutMs = 60_000): Promise<Reply> {
  const headers: Record<string, string> = { authorization: `Bearer ${key}` };
  if (body !== undefined) headers["content-type"] = "application/json";
  try {
    const response = await fetch(`${baseUrl}${path}`, {
      method,
      headers,
      body: body === undefined ? undefined : JSON.stringify(body),
      signal: AbortSignal.timeout(timeoutMs),
    });
    const text = await response.text();
    let parsed: unknown;
    try {
      parsed = text ? JSON.parse(text) : undefined;
    } catch {
      parsed = undefined;
    }
    return { status: response.status, body: parsed, text };
  } catch (error) {
    return { status: 0, body: undefined, text: "", networkError: (error as Error).message };
  }
}

const field = (value: unknown, key: string): unknown => (typeof value === "object" && value !== null ? (value as Record<string, unknown>)[key] : undefined);

/** A request that must succeed during setup: anything else stops the run with the reason. */
async function must(server: EvalServer, what: string, method: string, path: string, key: string, body: unknown, status: number): Promise<unknown> {
  const reply = await request(server.url, method, path, key, body);
  if (reply.status !== status) {
    const detail = reply.networkError ?? `HTTP ${reply.status}: ${reply.text.slice(0, 600)}`;
    throw new HarnessError(`${what} failed (${method} ${path}): ${detail}`);
  }
  return reply.body;
}

export interface PreparedWorkspace {
  fixture: Fixture;
  workspaceId: string;
  key: string;
  /** Policy name → id, and back. */
  policyIds: Map<string, string>;
  policyNames: Map<string, string>;
  /** Tool name → its description as the service generated it. */
  tools: Map<string, string>;
  /** Rules the service refused at creation (the workspace runs without them). */
  refusedPolicies: string[];
  /** What the service warned about a policy at creation: a rule covering none of the tools, an ambiguous binding, words not understood. */
  policyWarnings: string[];
}

export async function setUpFixture(server: EvalServer, fixture: Fixture): Promise<PreparedWorkspace> {
  const label = `fixture ${fixture.name} (${fixture.set})`;
  const workspace = await must(server, `${label}: create workspace`, "POST", "/api/v1/maas/workspaces", server.adminToken, { name: `eval-${fixture.set}-${fixture.name}` }, 201);
  const workspaceId = field(workspace, "id");
  if (typeof workspaceId !== "string") throw new HarnessError(`${label}: the workspace answer has no id`);
  const issued = await must(server, `${label}: create API key`, "POST", `/api/v1/maas/workspaces/${workspaceId}/api-keys`, server.adminToken, { name: "eval" }, 201);
  const key = field(issued, "plaintext");
  if (typeof key !== "string") throw new HarnessError(`${label}: the API key answer has no plaintext`);

  for (const connection of fixture.openapi) {
    const registered = await must(server, `${label}: import OpenAPI ${connection.name}`, "POST", "/api/v1/svc/connections/openapi", key, { name: connection.name, spec_content: connection.spec }, 201);
    const functions = field(registered, "functions");
    const skipped = field(registered, "skipped");
    if (Array.isArray(skipped) && skipped.length > 0) throw new HarnessError(`${label}: OpenAPI ${connection.name}: operations skipped by the import: ${JSON.stringify(skipped)}`);
    const expected = [...fixture.operations.values()].filter((op) => op.connection === connection.name).map((op) => op.operationId);
    const names = new Set(Array.isArray(functions) ? functions : []);
    const lost = expected.filter((id) => !names.has(id));
    if (lost.length > 0) throw new HarnessError(`${label}: OpenAPI ${connection.name}: no tool named ${lost.join(", ")} after the import (got ${[...names].join(", ")})`);
  }

  for (const [i, item] of fixture.memory.entries()) {
    const body = { type: item.type, content: item.content, ...(item.domain !== undefined ? { domain: item.domain } : {}), ...(item.tags !== undefined ? { tags: item.tags } : {}) };
    await must(server, `${label}: memory[${i}]`, "POST", "/api/v1/svc/memory", key, body, 201);
  }

  const policyIds = new Map<string, string>();
  const policyNames = new Map<string, string>();
  const refusedPolicies: string[] = [];
  const policyWarnings: string[] = [];
  for (const policy of fixture.policies) {
    const reply = await request(server.url, "POST", "/api/v1/svc/policies", key, { name: policy.name, rule: policy.rule });
    if (reply.status !== 201) {
      refusedPolicies.push(`${policy.name}: ${reply.networkError ?? `HTTP ${reply.status} ${reply.text.slice(0, 300)}`}`);
      continue;
    }
    const created = reply.body;
    const warnings = field(created, "warnings");
    for (const w of Array.isArray(warnings) ? warnings : []) policyWarnings.push(`${policy.name}: ${String(w)}`);
    const id = field(created, "id");
    const version = field(created, "version");
    if (typeof id !== "string" || typeof version !== "number") throw new HarnessError(`${label}: policy ${policy.name}: the answer has no id or version`);
    const confirmed = await must(server, `${label}: confirm policy ${policy.name}`, "POST", `/api/v1/svc/policies/${id}/confirm`, key, { version }, 200);
    if (field(confirmed, "active_version") !== version) throw new HarnessError(`${label}: policy ${policy.name}: version ${version} is not active after confirming`);
    policyIds.set(policy.name, id);
    policyNames.set(id, policy.name);
  }

  const listed = await must(server, `${label}: list tools`, "GET", "/api/v1/svc/tools", key, undefined, 200);
  const tools = new Map<string, string>();
  const data = field(listed, "data");
  for (const entry of Array.isArray(data) ? data : []) {
    const fn = field(entry, "function");
    const name = field(fn, "name");
    if (typeof name === "string") tools.set(name, String(field(fn, "description") ?? ""));
  }
  return { fixture, workspaceId, key, policyIds, policyNames, tools, refusedPolicies, policyWarnings };
}
