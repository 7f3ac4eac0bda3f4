// What every request leaves behind: one log line at `info` when it is answered, its count and duration in
// the metrics, and (when tracing is on) its server span. All three name the route by its pattern
// (`/api/v1/svc/executions/:id`), never the URL: ids and query strings stay out of labels, span names and
// logs. No header and no body is logged (the Authorization header and secrets in bodies never are).
import type { FastifyReply, FastifyRequest } from "fastify";
import type { App } from "../http/types.ts";
import type { Metrics } from "./metrics.ts";
import type { Tracing } from "./tracing.ts";

// Probes and scrapes come every few seconds: their lines go at debug, so info shows the traffic.
const QUIET_ROUTES = new Set(["/infra/livez", "/infra/readyz", "/infra/metrics"]);
// The label of a request no route matched (404 and requests refused before routing).
const UNMATCHED = "unmatched";
// The status recorded for a request whose client went away before the answer ended (nginx's convention).
const CLIENT_CLOSED = 499;

const routeOf = (request: FastifyRequest): string | undefined => request.routeOptions.url;

export function registerObservability(app: App, deps: { metrics: Metrics | undefined; tracing: Tracing }): void {
  const { metrics, tracing } = deps;
  const spans = new WeakMap<FastifyRequest, { end(status: number): void }>();

  /** Counts, logs and ends the span of a request, once: when answered, or when its client went away. */
  function finished(request: FastifyRequest, reply: FastifyReply, status: number): void {
    const route = routeOf(request);
    const labels = { method: request.method, route: route ?? UNMATCHED, status: String(status) };
    const durationMs = reply.elapsedTime;
    metrics?.httpRequests.inc(labels);
    metrics?.httpDuration.observe(labels, durationMs / 1000);
    spans.get(request)?.end(status);
    const line = {
      method: request.method,
      route: route ?? UNMATCHED,
      status,
      duration_ms: Math.round(durationMs * 100) / 100,
      ...(request.principal?.workspaceId ? { workspace_id: request.principal.workspaceId } : {}),
      ...(status === CLIENT_CLOSED ? { aborted: true } : {}),
    };
    if (route !== undefined && QUIET_ROUTES.has(route)) request.log.debug(line, "request");
    else request.log.info(line, "request");
  }

  app.addHook("onRequest", (request, reply, done) => {
    const span = tracing.startRequest({ traceId: request.id, traceparent: request.headers.traceparent, method: request.method, route: routeOf(request) });
    if (span) spans.set(request, span);
    // Fastify runs onResponse only for an answer that was sent whole; a client that goes away first
    // (a closed stream, a timeout on its side) is recorded here, so no request goes unseen.
    reply.raw.once("close", () => {
      if (!reply.raw.writableFinished) finished(request, reply, CLIENT_CLOSED);
    });
    done();
  });

  app.addHook("onResponse", (request, reply, done) => {
    finished(request, reply, reply.statusCode);
    done();
  });
}
