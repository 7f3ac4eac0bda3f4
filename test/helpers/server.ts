// Test servers: the real app on an ephemeral port, on the embedded database (one per test file) or on the
// PostgreSQL named by DATABASE_URL. Each test makes its own workspace, so tests never share state.
import type { SQL } from "drizzle-orm";
import { Writable } from "node:stream";
import type { FastifyBaseLogger } from "fastify";
import pino from "pino";
import { afterAll, beforeAll } from "vitest";
import { buildApp, type BuiltApp } from "../../src/app.ts";
import { loadConfig, type Config } from "../../src/config.ts";
import { openDb, type Database } from "../../src/db/index.ts";

export const ADMIN_TOKEN = "test-operator-token-0123456789";
export const onPostgres = Boolean(process.env.DATABASE_URL);

export const BASE_ENV: Record<string, string> = {
  SVC_ADMIN_TOKEN: ADMIN_TOKEN,
  SVC_LOG_LEVEL: "silent",
  SVC_PORT: "0",
  SVC_DATA_DIR: ":memory:",
  SVC_RATE_LIMIT_PER_KEY: "1000000",
  SVC_RATE_LIMIT_PER_WORKSPACE: "1000000",
  SVC_AUTH_FAILURE_LIMIT: "1000000",
  SVC_TRUST_PROXY: "true",
  // Fixed so that every process of a PostgreSQL run can open what another sealed.
  SVC_MASTER_KEY: "dGVzdC1tYXN0ZXIta2V5LTAxMjM0NTY3ODlhYmNkZWY=",
  // Test files share one PostgreSQL: a worker of another file (which trusts no test certificate) must not
  // claim a file's deliveries. The webhook tests turn it on.
  SVC_WEBHOOK_WORKER: "false",
};

export interface TestServer extends BuiltApp {
  url: string;
  config: Config;
  database: Database;
  close(): Promise<void>;
}

let shared: Promise<Database> | undefined;

/** The file's database: opened once, closed after the file's tests. */
export function sharedDatabase(): Promise<Database> {
  shared ??= openDb({ databaseUrl: process.env.DATABASE_URL, dataDir: ":memory:" });
  return shared;
}

afterAll(async () => {
  if (shared) await (await shared).close();
  shared = undefined;
});

export interface StartOptions {
  /** Another database handle (a second "node"); the file's shared one by default. */
  database?: Database;
  /** Extra routes a test needs (registered before listening), e.g. one that fails on purpose. */
  extend?: (app: BuiltApp["app"]) => void;
  /** A logger whose output the test inspects. */
  logger?: FastifyBaseLogger;
}

export async function startServer(env: Record<string, string> = {}, options: StartOptions = {}): Promise<TestServer> {
  const config = loadConfig({ ...BASE_ENV, DATABASE_URL: process.env.DATABASE_URL, ...env });
  const db = options.database ?? (await sharedDatabase());
  const built = await buildApp({ config, database: db, logger: options.logger });
  options.extend?.(built.app);
  await built.app.listen({ port: 0, host: "127.0.0.1" });
  const address = built.app.server.address();
  const port = typeof address === "object" && address ? address.port : 0;
  const url = `http://127.0.0.1:${port}`;
  return { ...built, url, config: { ...config, publicUrl: url }, database: db, close: () => built.app.close() };
}

/** A server for the whole file, started before its tests. */
export function useServer(env: Record<string, string> = {}): () => TestServer {
  let server: TestServer | undefined;
  beforeAll(async () => {
    server = await startServer(env);
  });
  afterAll(async () => {
    await server?.close();
  });
  return () => {
    if (!server) throw new Error("server not started");
    return server;
  };
}

export interface Reply<T = any> {
  status: number;
  headers: Headers;
  text: string;
  body: T;
}

export interface CallOptions {
  key?: string;
  body?: unknown;
  rawBody?: string;
  headers?: Record<string, string>;
}

export async function call<T = any>(server: { url: string }, method: string, path: string, options: CallOptions = {}): Promise<Reply<T>> {
  const headers: Record<string, string> = { ...options.headers };
  if (options.key) headers.authorization = `Bearer ${options.key}`;
  let body: string | undefined;
  if (options.rawBody !== undefined) body = options.rawBody;
  else if (options.body !== undefined) body = JSON.stringify(options.body);
  if (body !== undefined) headers["content-type"] ??= "application/json";
  const response = await fetch(`${server.url}${path}`, { method, headers, body });
  const text = await response.text();
  let parsed: any;
  try {
    parsed = text ? JSON.parse(text) : undefined;
  } catch {
    parsed = undefined;
  }
  return { status: response.status, headers: response.headers, text, body: parsed };
}

export interface TestWorkspace {
  id: string;
  name: string;
  key: string;
  keyId: string;
}

let counter = 0;

export async function newWorkspace(server: { url: string }, name = `ws-${process.pid}-${++counter}`): Promise<TestWorkspace> {
  const created = await call(server, "POST", "/api/v1/maas/workspaces", { key: ADMIN_TOKEN, body: { name } });
  if (created.status !== 201) throw new Error(`workspace create failed: ${created.status} ${created.text}`);
  const key = await call(server, "POST", `/api/v1/maas/workspaces/${created.body.id}/api-keys`, { key: ADMIN_TOKEN, body: { name: "test" } });
  if (key.status !== 201) throw new Error(`key create failed: ${key.status} ${key.text}`);
  return { id: created.body.id, name, key: key.body.plaintext, keyId: key.body.id };
}

/** Asserts the canonical error body and trace header, returning the body for further checks. */
export function expectError(reply: Reply, status: number, code: string): any {
  const problems: string[] = [];
  if (reply.status !== status) problems.push(`status ${reply.status} != ${status}`);
  const error = reply.body?.error;
  if (!error || error.code !== code) problems.push(`code ${error?.code} != ${code}`);
  for (const field of ["type", "code", "message", "hint", "doc_url"]) {
    if (typeof error?.[field] !== "string" || error[field] === "") problems.push(`error.${field} missing`);
  }
  if (typeof error?.next_action?.type !== "string" || typeof error?.next_action?.label !== "string") problems.push("error.next_action missing");
  if (!String(error?.doc_url ?? "").endsWith(`/infra/docs/errors#err-${code}`)) problems.push(`doc_url ${error?.doc_url}`);
  const trace = reply.headers.get("x-svc-trace-id");
  if (!trace) problems.push("X-Svc-Trace-ID header missing");
  if (reply.body?.trace_id !== trace) problems.push(`trace_id ${reply.body?.trace_id} != header ${trace}`);
  if (problems.length) throw new Error(`unexpected error reply: ${problems.join("; ")}\n${reply.text}`);
  return reply.body;
}

/** Rows of a raw SQL statement on the server's database (to inspect what is stored). */
export async function query(server: { database: Database }, statement: SQL): Promise<any[]> {
  const result = (await server.database.db.execute(statement)) as unknown as { rows: any[] };
  return result.rows;
}

/** A logger at the most verbose level whose whole output a test can read (to look for secrets in it). */
export function capturedLogger(): { logger: FastifyBaseLogger; text: () => string } {
  let logs = "";
  const sink = new Writable({
    write(chunk, _encoding, done) {
      logs += chunk.toString();
      done();
    },
  });
  return { logger: pino({ level: "trace" }, sink) as unknown as FastifyBaseLogger, text: () => logs };
}

/** POST /api/v1/svc/tools/{name}/invoke with the given arguments. */
export const invokeTool = (server: { url: string }, key: string, name: string, args: unknown) =>
  call(server, "POST", `/api/v1/svc/tools/${name}/invoke`, { key, body: { arguments: args } });
