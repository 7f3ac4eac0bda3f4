// Operations over real HTTP: the Prometheus scrape (counters move, labels are route patterns, no workspace
// id), its optional token, one log line per request without headers or bodies, and OpenTelemetry spans
// sent to a real OTLP/HTTP receiver started here, joined to the caller's traceparent.
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Actor } from "../src/events/audit.ts";
import { PAYMENTS_SPEC } from "./helpers/payments-spec.ts";
import { spawnServe } from "./helpers/process.ts";
import { call, capturedLogger, expectError, newWorkspace, startServer, useServer, type TestServer, type TestWorkspace } from "./helpers/server.ts";

const server = useServer();
const METRICS_TOKEN = "metrics-token-0123456789abcdef";

async function scrape(target: { url: string }, headers: Record<string, string> = {}): Promise<string> {
  const reply = await fetch(`${target.url}/infra/metrics`, { headers });
  expect(reply.status).toBe(200);
  expect(reply.headers.get("content-type")).toContain("text/plain");
  return reply.text();
}

/** The value of one sample line (`name{labels} value`), 0 when absent. */
function sample(text: string, name: string, labels: Record<string, string>): number {
  for (const line of text.split("\n")) {
    if (!line.startsWith(`${name}{`)) continue;
    const inside = line.slice(name.length + 1, line.lastIndexOf("}"));
    const pairs = Object.fromEntries([...inside.matchAll(/(\w+)="((?:[^"\\]|\\.)*)"/g)].map((m) => [m[1], m[2]]));
    if (Object.entries(labels).every(([k, v]) => pairs[k] === v) && Object.keys(pairs).length === Object.keys(labels).length) {
      return Number(line.slice(line.lastIndexOf(" ") + 1));
    }
  }
  return 0;
}

async function paymentsWorkspace(target: { url: string }, policy?: string): Promise<TestWorkspace> {
  const ws = await newWorkspace(target);
  const imported = await call(target, "POST", "/api/v1/svc/connections/openapi", { key: ws.key, body: { name: "payments", spec_content: PAYMENTS_SPEC } });
  expect(imported.status, imported.text).toBe(201);
  if (policy) {
    const created = await call(target, "POST", "/api/v1/svc/policies", { key: ws.key, body: { name: "refund-limit", rule: policy } });
    expect(created.status, created.text).toBe(201);
    expect((await call(target, "POST", `/api/v1/svc/policies/${created.body.id}/confirm`, { key: ws.key, body: { version: 1 } })).status).toBe(200);
  }
  return ws;
}

describe("GET /infra/metrics", () => {
  it("counts requests by route pattern and status, decisions and verdicts, and never names a workspace", async () => {
    const ws = await paymentsWorkspace(server(), "Block refunds over $500");
    const before = await scrape(server());
    const memory = await call(server(), "POST", "/api/v1/svc/memory", { key: ws.key, body: { type: "reference", content: { text: "Returns are accepted within 30 days." } } });
    expect(memory.status).toBe(201);
    for (let i = 0; i < 3; i++) expect((await call(server(), "GET", `/api/v1/svc/memory/${memory.body.id}`, { key: ws.key })).status).toBe(200);
    expect((await call(server(), "GET", "/api/v1/svc/memory/00000000-0000-4000-8000-000000000000", { key: ws.key })).status).toBe(404);
    expect((await call(server(), "GET", "/api/v1/svc/no-such-route", { key: ws.key })).status).toBe(404);
    const blocked = await call(server(), "POST", "/api/v1/svc/intent", { key: ws.key, body: { messages: [{ role: "user", content: "Refund $2,400 to order ORD-66019." }] } });
    expect(blocked.body.type).toBe("blocked");
    const chat = await call(server(), "POST", "/api/v1/svc/chat/completions", { key: ws.key, body: { messages: [{ role: "user", content: "hello" }] } });
    expect(chat.status, chat.text).toBe(200);
    // An execution cancelled through its route reaches its final status in this process.
    const actor: Actor = { workspaceId: ws.id, type: "key", id: ws.keyId };
    const execution = await server().services.executions.create(actor, { steps: [{ tool: "get_order", arguments: { order_id: "ORD-1001" } }], status: "ready" });
    expect((await call(server(), "POST", `/api/v1/svc/executions/${execution.id}/cancel`, { key: ws.key })).status).toBe(200);
    const after = await scrape(server());

    const route = "/api/v1/svc/memory/:id";
    expect(sample(after, "svc_http_requests_total", { method: "GET", route, status: "200" }) - sample(before, "svc_http_requests_total", { method: "GET", route, status: "200" })).toBe(3);
    expect(sample(after, "svc_http_requests_total", { method: "GET", route, status: "404" }) - sample(before, "svc_http_requests_total", { method: "GET", route, status: "404" })).toBe(1);
    expect(sample(after, "svc_http_requests_total", { method: "GET", route: "unmatched", status: "404" })).toBeGreaterThanOrEqual(1);
    expect(sample(after, "svc_http_request_duration_seconds_count", { method: "GET", route, status: "200" }) - sample(before, "svc_http_request_duration_seconds_count", { method: "GET", route, status: "200" })).toBe(3);
    expect(sample(after, "svc_decisions_total", { source: "intent", type: "blocked" }) - sample(before, "svc_decisions_total", { source: "intent", type: "blocked" })).toBe(1);
    expect(sample(after, "svc_governance_verdicts_total", { decision: "blocked", gate: "plan" }) - sample(before, "svc_governance_verdicts_total", { decision: "blocked", gate: "plan" })).toBe(1);
    expect(sample(after, "svc_decisions_total", { source: "chat", type: "answered" }) - sample(before, "svc_decisions_total", { source: "chat", type: "answered" })).toBe(1);
    expect(sample(after, "svc_executions_finished_total", { status: "cancelled" }) - sample(before, "svc_executions_finished_total", { status: "cancelled" })).toBe(1);
    // Names the webhook worker increments, the database gauges and Node's own metrics are all there.
    expect(after).toContain("# TYPE svc_webhook_deliveries_total counter");
    expect(after).toContain("# TYPE svc_executions_finished_total counter");
    expect(after).toMatch(server().database.pool ? /svc_db_pool_connections\{state="total"\} \d+/ : /svc_db_queued_statements \d+/);
    expect(after).toContain("process_cpu_user_seconds_total");
    expect(after).toContain("nodejs_eventloop_lag_seconds");
    // No raw URL, id or tenant anywhere in the scrape.
    for (const forbidden of [ws.id, ws.key, memory.body.id, execution.id, "no-such-route", "ORD-66019"]) expect(after).not.toContain(forbidden);
  });

  it("does not exist with SVC_METRICS=false", async () => {
    const off = await startServer({ SVC_METRICS: "false" });
    try {
      expectError(await call(off, "GET", "/infra/metrics"), 404, "not_found");
    } finally {
      await off.close();
    }
  });

  it("needs the metrics token when SVC_METRICS_TOKEN is set", async () => {
    const guarded = await startServer({ SVC_METRICS_TOKEN: METRICS_TOKEN });
    try {
      expectError(await call(guarded, "GET", "/infra/metrics"), 401, "auth_missing");
      expectError(await call(guarded, "GET", "/infra/metrics", { key: "not-the-token-0123456789" }), 401, "auth_invalid");
      expect(await scrape(guarded, { authorization: `Bearer ${METRICS_TOKEN}` })).toContain("svc_http_requests_total");
    } finally {
      await guarded.close();
    }
  });
});

describe("request log", () => {
  it("writes one info line per request: method, route pattern, status, duration, trace and workspace ids; no header, no body", async () => {
    const captured = capturedLogger();
    const logged = await startServer({ SVC_LOG_LEVEL: "info" }, { logger: captured.logger });
    try {
      const ws = await newWorkspace(logged);
      const secretText = "the-body-text-must-not-be-logged-31337";
      const created = await call(logged, "POST", "/api/v1/svc/memory?probe=query-text-not-logged", { key: ws.key, body: { type: "reference", content: { text: `Note: ${secretText}` } } });
      expect(created.status).toBe(201);
      const read = await call(logged, "GET", `/api/v1/svc/memory/${created.body.id}`, { key: ws.key, headers: { traceparent: "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01" } });
      expect(read.status).toBe(200);
      expect((await call(logged, "GET", `/api/v1/svc/memory/${created.body.id}`, { key: "sk_svc_wrongwrongwrong" })).status).toBe(401);
      // A stream its client closes before the end is still one line (status 499, aborted), and counted.
      const execution = await logged.services.executions.create({ workspaceId: ws.id, type: "key", id: ws.keyId }, { steps: [{ tool: "get_order", arguments: {} }], status: "ready" });
      const abort = new AbortController();
      const stream = await fetch(`${logged.url}/api/v1/svc/executions/${execution.id}/stream`, { headers: { authorization: `Bearer ${ws.key}`, accept: "text/event-stream" }, signal: abort.signal });
      expect(stream.status).toBe(200);
      abort.abort();
      await new Promise((resolve) => setTimeout(resolve, 300));
      const scraped = await scrape(logged);
      expect(sample(scraped, "svc_http_requests_total", { method: "GET", route: "/api/v1/svc/executions/:id/stream", status: "499" })).toBe(1);

      const lines = captured.text().split("\n").filter((l) => l !== "").map((l) => JSON.parse(l) as Record<string, unknown>);
      const requests = lines.filter((l) => l.msg === "request" && l.level === 30);
      // Two admin calls to make the workspace, then the four above: one line each. The scrape's is at debug.
      expect(requests).toHaveLength(6);
      expect(lines.filter((l) => l.msg === "request" && l.level === 20)).toEqual([expect.objectContaining({ route: "/infra/metrics", status: 200 })]);
      expect(lines.filter((l) => l.msg === "incoming request" || l.msg === "request completed")).toHaveLength(0);
      const [, , post, get, refused, closed] = requests;
      expect(closed).toMatchObject({ method: "GET", route: "/api/v1/svc/executions/:id/stream", status: 499, aborted: true, workspace_id: ws.id });
      expect(post).toMatchObject({ level: 30, method: "POST", route: "/api/v1/svc/memory", status: 201, workspace_id: ws.id, trace_id: created.headers.get("x-svc-trace-id") });
      expect(typeof post!.duration_ms).toBe("number");
      expect(get).toMatchObject({ method: "GET", route: "/api/v1/svc/memory/:id", status: 200, workspace_id: ws.id, trace_id: "4bf92f3577b34da6a3ce929d0e0e4736" });
      expect(refused).toMatchObject({ method: "GET", route: "/api/v1/svc/memory/:id", status: 401 });
      expect(refused).not.toHaveProperty("workspace_id");
      const text = captured.text();
      for (const forbidden of [ws.key, "sk_svc_wrongwrongwrong", secretText, "query-text-not-logged", created.body.id, "authorization", "Bearer"]) expect(text).not.toContain(forbidden);
    } finally {
      await logged.close();
    }
  });
});

describe("OpenTelemetry traces", () => {
  let receiver: Server;
  let endpoint: string;
  const batches: any[] = [];
  const contentTypes: string[] = [];

  beforeAll(async () => {
    receiver = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on("data", (c: Buffer) => chunks.push(c));
      req.on("end", () => {
        if (req.method === "POST" && req.url === "/v1/traces") {
          contentTypes.push(String(req.headers["content-type"]));
          batches.push(JSON.parse(Buffer.concat(chunks).toString("utf8")));
        }
        res.writeHead(200, { "content-type": "application/json" }).end("{}");
      });
    });
    await new Promise<void>((resolve) => receiver.listen(0, "127.0.0.1", resolve));
    endpoint = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    await new Promise<void>((resolve) => receiver.close(() => resolve()));
  });

  const spans = () =>
    batches.flatMap((b) =>
      (b.resourceSpans ?? []).flatMap((rs: any) =>
        (rs.scopeSpans ?? []).flatMap((ss: any) => (ss.spans ?? []).map((s: any) => ({ ...s, service: rs.resource?.attributes?.find((a: any) => a.key === "service.name")?.value?.stringValue }))),
      ),
    );
  const attribute = (span: any, key: string) => {
    const value = span.attributes?.find((a: any) => a.key === key)?.value;
    return value?.stringValue ?? (value?.intValue !== undefined ? Number(value.intValue) : undefined);
  };

  it("exports a server span per request with the caller's trace id, its route, and the intent engine's stages as children", async () => {
    let traced: TestServer | undefined = await startServer({ OTEL_EXPORTER_OTLP_ENDPOINT: endpoint, OTEL_SERVICE_NAME: "svc-test" });
    let ws: TestWorkspace;
    const traceId = "0af7651916cd43dd8448eb211c80319c";
    const parentId = "b7ad6b7169203331";
    let ownTrace: string | null;
    try {
      ws = await paymentsWorkspace(traced);
      const asked = await call(traced, "POST", "/api/v1/svc/intent", {
        key: ws.key,
        headers: { traceparent: `00-${traceId}-${parentId}-01` },
        body: { messages: [{ role: "user", content: "What is the status of order ORD-20417?" }] },
      });
      expect(asked.status).toBe(200);
      expect(asked.headers.get("x-svc-trace-id")).toBe(traceId);
      const plain = await call(traced, "GET", "/api/v1/svc/memory/00000000-0000-4000-8000-000000000000", { key: ws.key });
      expect(plain.status).toBe(404);
      ownTrace = plain.headers.get("x-svc-trace-id");
    } finally {
      // Closing the app flushes the batch.
      await traced.close();
      traced = undefined;
    }
    expect(contentTypes.every((t) => t.startsWith("application/json"))).toBe(true);
    const all = spans();
    const server = all.find((s) => s.traceId === traceId && s.kind === 2);
    expect(server, JSON.stringify(all.map((s) => [s.name, s.traceId]))).toBeDefined();
    expect(server).toMatchObject({ name: "POST /api/v1/svc/intent", parentSpanId: parentId, service: "svc-test" });
    expect(attribute(server, "http.route")).toBe("/api/v1/svc/intent");
    expect(attribute(server, "http.response.status_code")).toBe(200);
    const stages = all.filter((s) => s.traceId === traceId && s.parentSpanId === server.spanId);
    expect(stages.map((s) => s.name)).toEqual(expect.arrayContaining(["intent.understand", "intent.capability_check", "intent.decide"]));
    for (const stage of stages) {
      expect(BigInt(stage.startTimeUnixNano)).toBeGreaterThanOrEqual(BigInt(server.startTimeUnixNano) - 5_000_000n);
      expect(BigInt(stage.endTimeUnixNano)).toBeLessThanOrEqual(BigInt(server.endTimeUnixNano) + 5_000_000n);
    }
    // Without a traceparent the span's trace id is the service's own (the X-Svc-Trace-ID answered).
    const own = all.find((s) => s.traceId === ownTrace);
    expect(own).toMatchObject({ name: "GET /api/v1/svc/memory/:id", kind: 2 });
    expect(own.parentSpanId ?? "").toBe("");
    expect(attribute(own, "http.response.status_code")).toBe(404);
    // Spans carry no URL, key or body.
    const text = JSON.stringify(batches);
    for (const forbidden of [ws!.key, "ORD-20417", "00000000-0000-4000-8000-000000000000"]) expect(text).not.toContain(forbidden);
  });

  it("svc serve exports spans when configured and flushes them on SIGTERM; its stdout has one line per request", { timeout: 180_000 }, async () => {
    const traceId = "1f2e3d4c5b6a79880716253443526170";
    const serve = await spawnServe({ SVC_DATA_DIR: ":memory:", DATABASE_URL: "", SVC_LOG_LEVEL: "info", OTEL_EXPORTER_OTLP_ENDPOINT: `${endpoint}/`, OTEL_SERVICE_NAME: "svc-serve" }, 150_000);
    let code: number | null;
    try {
      const reply = await fetch(`${serve.url}/api/v1/svc/health`, { headers: { traceparent: `00-${traceId}-1111111111111111-01`, authorization: "Bearer sk_svc_not_a_key" } });
      expect(reply.status).toBe(401);
    } finally {
      // The batch waits 5 s by default: only the shutdown's flush can have sent it this soon.
      code = await serve.stop("SIGTERM");
    }
    expect(code).toBe(0);
    const span = spans().find((s) => s.traceId === traceId);
    expect(span).toMatchObject({ name: "GET /api/v1/svc/health", parentSpanId: "1111111111111111", service: "svc-serve" });
    expect(attribute(span, "http.response.status_code")).toBe(401);
    const lines = serve.output().split("\n").filter((l) => l.startsWith("{")).map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(lines.filter((l) => l.msg === "request")).toEqual([expect.objectContaining({ trace_id: traceId, method: "GET", route: "/api/v1/svc/health", status: 401 })]);
    expect(serve.output()).not.toContain("sk_svc_not_a_key");
  });
});
