// Hostile input at the edge (issue 12, items 3, 4 and the logging half of 6): each case below answered a
// 500, the framework's own body, or logged a secret before its fix.
import { connect } from "node:net";
import { Writable } from "node:stream";
import pino from "pino";
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { canonicalJson } from "../src/canonical-json.ts";
import { errSerializer } from "../src/db/log.ts";
import { stringsIn } from "../src/modules/memory/secrets.ts";
import { ADMIN_TOKEN, call, capturedLogger, expectError, newWorkspace, sharedDatabase, startServer, type TestServer, type TestWorkspace } from "./helpers/server.ts";

const captured = capturedLogger();
const SECRET = "sk_live_leakedParameter0123456789";
let server: TestServer;
let ws: TestWorkspace;

beforeAll(async () => {
  const database = await sharedDatabase();
  server = await startServer(
    {},
    {
      logger: captured.logger,
      // A query that fails on its bound value, as a store's would on bad data.
      extend: (app) => app.get("/test/failing-query", { config: { auth: "public" } }, async () => database.db.execute(sql`select ${SECRET}::integer as n`)),
    },
  );
  ws = await newWorkspace(server);
});

afterAll(async () => {
  await server?.close();
});

/** One raw HTTP exchange: what the client's own checks would never let through. */
function raw(request: string): Promise<{ status: number; headers: Record<string, string>; body: any; text: string }> {
  const url = new URL(server.url);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(url.port), url.hostname);
    let data = "";
    socket.setEncoding("utf8");
    socket.on("data", (chunk) => (data += chunk));
    socket.on("error", reject);
    socket.on("close", () => {
      const [head = "", ...rest] = data.split("\r\n\r\n");
      const [statusLine = "", ...lines] = head.split("\r\n");
      const headers = Object.fromEntries(lines.map((l) => [l.slice(0, l.indexOf(":")).toLowerCase(), l.slice(l.indexOf(":") + 1).trim()]));
      const text = rest.join("\r\n\r\n");
      let body: any;
      try {
        body = JSON.parse(text);
      } catch {
        body = undefined;
      }
      resolve({ status: Number(statusLine.split(" ")[1]), headers, body, text });
    });
    socket.write(request);
  });
}

/** expectError for a raw reply. */
function expectRawError(reply: Awaited<ReturnType<typeof raw>>, status: number, code: string): any {
  return expectError({ status: reply.status, headers: new Headers(reply.headers), text: reply.text, body: reply.body }, status, code);
}

describe("item 3: bad input answers 400, never 500", () => {
  it("U+0000 in a path id, a query string and a body is refused with the field named", async () => {
    const inPath = expectError(await call(server, "GET", "/api/v1/svc/policies/pol_a%00b", { key: ws.key }), 400, "invalid_request");
    expect(inPath.error.details).toEqual([{ field: "id", message: "must not contain the NUL character (U+0000)" }]);
    const inQuery = expectError(await call(server, "GET", "/api/v1/svc/memory/search?query=a%00b", { key: ws.key }), 400, "invalid_request");
    expect(inQuery.error.details[0].field).toBe("query");
    const inBody = expectError(await call(server, "POST", "/api/v1/svc/memory", { key: ws.key, body: { type: "note", content: { text: "a\u0000b" } } }), 400, "invalid_request");
    expect(inBody.error.details[0]).toEqual({ field: "content.text", message: "must not contain the NUL character (U+0000)" });
    const inMessage = expectError(await call(server, "POST", "/api/v1/svc/intent", { key: ws.key, body: { messages: [{ role: "user", content: "hi\u0000" }] } }), 400, "invalid_request");
    expect(inMessage.error.details[0].field).toBe("messages[0].content");
    const inKey = expectError(await call(server, "POST", "/api/v1/svc/memory", { key: ws.key, body: { type: "note", content: { text: "x", "k\u0000": 1 } } }), 400, "invalid_request");
    expect(inKey.error.details[0].field).toBe("content.k\u0000");
  });

  it("a lone surrogate in a body is refused with the field named (memory, policies, audit are jsonb)", async () => {
    const reply = await call(server, "POST", "/api/v1/svc/memory", { key: ws.key, rawBody: '{"type":"note","content":{"text":"x\\ud800y"}}' });
    expect(expectError(reply, 400, "invalid_request").error.details[0]).toEqual({ field: "content.text", message: "must not contain a lone UTF-16 surrogate (not valid Unicode)" });
    const policy = await call(server, "POST", "/api/v1/svc/policies", { key: ws.key, rawBody: '{"name":"p\\udc00","rule":"Block refunds over $500"}' });
    expect(expectError(policy, 400, "invalid_request").error.details[0].field).toBe("name");
    // A well-formed pair is fine.
    const pair = await call(server, "POST", "/api/v1/svc/memory", { key: ws.key, rawBody: '{"type":"note","content":{"text":"smile \\ud83d\\ude00"}}' });
    expect(pair.status, pair.text).toBe(201);
  });

  it("an OpenAPI document with a lone surrogate or NUL in info.version is imported, repaired with U+FFFD", async () => {
    const spec = {
      openapi: "3.0.3",
      info: { title: "t\u0000", version: "1.\ud800" },
      servers: [{ url: "https://api.example.com" }],
      paths: { "/ping": { get: { operationId: "ping", summary: "Ping \udfff", responses: { "200": { description: "ok" } } } } },
    };
    // JSON.stringify escapes both, so the request body itself is well-formed; the document inside is not.
    const reply = await call(server, "POST", "/api/v1/svc/connections/openapi", { key: ws.key, body: { name: "odd", spec_content: JSON.stringify(spec) } });
    expect(reply.status, reply.text).toBe(201);
    const tools = await call(server, "GET", "/api/v1/svc/tools", { key: ws.key });
    expect(JSON.stringify(tools.body)).toContain("Ping \ufffd");
  });

  it("a body nested 5,000 levels deep is a 400 (with and without an Idempotency-Key), and the helpers do not overflow", async () => {
    const deep = '{"type":"note","content":{"text":"x","d":' + "[".repeat(5000) + "]".repeat(5000) + "}}";
    for (const headers of [{}, { "idempotency-key": "deep-1" }] as Record<string, string>[]) {
      const reply = await call(server, "POST", "/api/v1/svc/memory", { key: ws.key, rawBody: deep, headers });
      expect(expectError(reply, 400, "invalid_request").error.details).toEqual([{ field: "body", message: "is nested deeper than 64 levels" }]);
    }
    const atLimit = '{"type":"note","content":{"text":"x","d":' + "[".repeat(62) + "]".repeat(62) + "}}";
    expect((await call(server, "POST", "/api/v1/svc/memory", { key: ws.key, rawBody: atLimit })).status).toBe(201);
    // A deep value from anywhere else: canonical JSON refuses it cleanly, the secret scan walks it.
    let value: unknown = "sk_live_0123456789abcdefghij";
    for (let i = 0; i < 20_000; i++) value = [value];
    expect(() => canonicalJson(value)).toThrow(/nested deeper than 512 levels/);
    expect(stringsIn(value)).toEqual(["sk_live_0123456789abcdefghij"]);
  });

  it("offset and limit have maxima: 9223372036854775807, Infinity and 1e308 are 400s on every list", async () => {
    const lists = [
      ["/api/v1/svc/policies", ws.key],
      ["/api/v1/svc/escalations", ws.key],
      ["/api/v1/svc/intelligence", ws.key],
      ["/api/v1/maas/workspaces", ADMIN_TOKEN],
    ] as const;
    for (const [path, key] of lists) {
      for (const q of ["offset=9223372036854775807", "offset=Infinity", "offset=1e308", "offset=1000001", "limit=9223372036854775807", "limit=Infinity"]) {
        const reply = await call(server, "GET", `${path}?${q}`, { key });
        expect(expectError(reply, 400, "invalid_request").error.details[0].field, `${path}?${q}`).toBe(q.split("=")[0]);
      }
      expect((await call(server, "GET", `${path}?offset=1000000&limit=5`, { key })).status, path).toBe(200);
    }
  });

  it("credential provider and name are bounded (they are indexed): the contract's credential_creation_failed, with details", async () => {
    const long = await call(server, "POST", "/api/v1/svc/credentials", { key: ws.key, body: { provider: "p".repeat(3000), name: "n".repeat(3000), key_data: { api_key: "x" } } });
    expect(expectError(long, 500, "credential_creation_failed").error.details).toEqual([
      { field: "provider", message: "must be at most 100 characters" },
      { field: "name", message: "must be at most 200 characters" },
    ]);
    const fits = await call(server, "POST", "/api/v1/svc/credentials", { key: ws.key, body: { provider: "p".repeat(100), name: "n".repeat(200), key_data: { api_key: "x" } } });
    expect(fits.status, fits.text).toBe(201);
  });

  it("chat completions with profile=lean answer the lean shape (no intelligence, trace_id kept)", async () => {
    const reply = await call(server, "POST", "/api/v1/svc/chat/completions", { key: ws.key, body: { messages: [{ role: "user", content: "hello" }] }, headers: { accept: "application/json; profile=lean" } });
    expect(reply.status, reply.text).toBe(200);
    expect(reply.body.intelligence).toBeUndefined();
    expect(reply.body.trace_id).toBe(reply.headers.get("x-svc-trace-id"));
    expect(reply.body.object).toBe("chat.completion");
    const full = await call(server, "POST", "/api/v1/svc/chat/completions", { key: ws.key, body: { messages: [{ role: "user", content: "hello" }] } });
    expect(full.body.intelligence).toBeTypeOf("object");
  });
});

describe("item 4: errors raised before the route have the canonical body and the trace header", () => {
  it("a malformed percent-encoding in the path", async () => {
    const reply = await call(server, "GET", "/api/v1/svc/memory/%zz", { key: ws.key });
    expect(expectError(reply, 400, "invalid_request").error.details).toEqual([{ field: "path", message: "is not a valid percent-encoded URL path" }]);
  });

  it("a path parameter over 100 characters", async () => {
    const reply = await call(server, "GET", `/api/v1/svc/policies/${"a".repeat(101)}`, { key: ws.key });
    expect(expectError(reply, 400, "invalid_request").error.details[0].field).toBe("path");
  });

  it("headers over 16 KiB: 431 request_header_too_large", async () => {
    const reply = await raw(`GET /api/v1/svc/health HTTP/1.1\r\nHost: x\r\nX-Long: ${"a".repeat(17_000)}\r\n\r\n`);
    expectRawError(reply, 431, "request_header_too_large");
  });

  it("a request line over 16 KiB: 431 as well", async () => {
    expectRawError(await raw(`GET /api/v1/svc/health?x=${"a".repeat(17_000)} HTTP/1.1\r\nHost: x\r\n\r\n`), 431, "request_header_too_large");
  });

  it("a malformed request line and a malformed header", async () => {
    expectRawError(await raw("GARBAGE\r\n\r\n"), 400, "invalid_request");
    expectRawError(await raw("GET /api/v1/svc/health HTTP/1.1\r\nHost: x\r\nBad Header: y\r\n\r\n"), 400, "invalid_request");
    // The server is still up.
    expect((await call(server, "GET", "/api/v1/svc/health", { key: ws.key })).status).toBe(200);
  });
});

describe("item 6: a failed query is logged without its parameters", () => {
  it("the service's own loggers serialise any failed query without its parameters (background jobs log errors too)", async () => {
    const database = await sharedDatabase();
    const failure = await database.db.execute(sql`select ${SECRET}::integer as n`).then(
      () => undefined,
      (error: unknown) => error,
    );
    expect(String((failure as Error).message)).toContain(SECRET); // what drizzle's error carries
    let out = "";
    const sink = new Writable({ write: (chunk, _e, done) => ((out += chunk.toString()), done()) });
    pino({ serializers: { err: errSerializer } }, sink).error({ err: new Error("wrapped", { cause: failure }) }, "job failed");
    expect(out).toContain("Failed query: select $1::integer as n");
    expect(out).toContain("22P02");
    expect(out).not.toContain("leakedParameter");
  });

  it("keeps the SQL text and the PostgreSQL code; the bound value appears nowhere in the log", async () => {
    const reply = await call(server, "GET", "/test/failing-query");
    expectError(reply, 500, "internal_error");
    const logs = captured.text();
    const line = logs.split("\n").find((l) => l.includes(reply.body.trace_id) && l.includes("request failed"));
    expect(line, logs.slice(-2000)).toBeDefined();
    const entry = JSON.parse(line!);
    expect(entry.level).toBe(50);
    expect(entry.err.query).toMatch(/select \$1::integer as n/);
    expect(entry.err.code).toBe("22P02");
    expect(logs).not.toContain(SECRET);
    expect(logs).not.toContain("leakedParameter");
  });
});
