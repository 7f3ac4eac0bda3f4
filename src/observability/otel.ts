// The OpenTelemetry SDK side of src/observability/tracing.ts, imported only when an OTLP endpoint is set.
import { ROOT_CONTEXT, SpanKind, SpanStatusCode, trace, type Span, type Tracer } from "@opentelemetry/api";
import { OTLPTraceExporter } from "@opentelemetry/exporter-trace-otlp-http";
import { resourceFromAttributes } from "@opentelemetry/resources";
import { BasicTracerProvider, BatchSpanProcessor, RandomIdGenerator, type IdGenerator } from "@opentelemetry/sdk-trace-base";
import { parseTraceparent } from "../http/trace.ts";
import type { Tracing } from "./tracing.ts";

/**
 * Root spans take the service's trace id: the SDK asks its id generator for a trace id only when a span has
 * no parent, synchronously inside startSpan, so the id to use is set just before and taken once.
 */
class ServiceTraceIds implements IdGenerator {
  next: string | undefined;
  private readonly random = new RandomIdGenerator();

  generateTraceId(): string {
    const id = this.next;
    this.next = undefined;
    return id ?? this.random.generateTraceId();
  }

  generateSpanId(): string {
    return this.random.generateSpanId();
  }
}

export function createOtelTracing(config: { url: string; serviceName: string; serviceVersion: string }): Tracing {
  const { url } = config;
  const ids = new ServiceTraceIds();
  const provider = new BasicTracerProvider({
    resource: resourceFromAttributes({ "service.name": config.serviceName, "service.version": config.serviceVersion }),
    idGenerator: ids,
    // The exporter reads OTEL_EXPORTER_OTLP_HEADERS (and its TRACES_ variant) itself, for collector auth.
    spanProcessors: [new BatchSpanProcessor(new OTLPTraceExporter({ url }))],
  });
  const tracer: Tracer = provider.getTracer("svc", config.serviceVersion);
  // The open request spans by trace id, for the stage spans the intent service reports.
  const open = new Map<string, Span>();

  return {
    enabled: true,
    startRequest: ({ traceId, traceparent, method, route }) => {
      const parent = parseTraceparent(traceparent);
      const context = parent && parent.traceId === traceId ? trace.setSpanContext(ROOT_CONTEXT, { traceId, spanId: parent.spanId, traceFlags: parent.flags, isRemote: true }) : ROOT_CONTEXT;
      ids.next = traceId;
      const span = tracer.startSpan(
        route ? `${method} ${route}` : method,
        { kind: SpanKind.SERVER, attributes: { "http.request.method": method, ...(route ? { "http.route": route } : {}) } },
        context,
      );
      ids.next = undefined;
      // Two requests may share a trace id (a caller's traceparent reused): stages go to the first one open.
      const owned = !open.has(traceId);
      if (owned) open.set(traceId, span);
      let ended = false;
      return {
        end: (status) => {
          if (ended) return;
          ended = true;
          span.setAttribute("http.response.status_code", status);
          if (status >= 500) span.setStatus({ code: SpanStatusCode.ERROR });
          span.end();
          if (owned) open.delete(traceId);
        },
      };
    },
    stages: (traceId, stages, durationMs) => {
      const parent = open.get(traceId);
      if (!parent) return;
      const context = trace.setSpan(ROOT_CONTEXT, parent);
      let at = Date.now() - durationMs;
      for (const stage of stages) {
        const span = tracer.startSpan(`intent.${stage.name}`, { startTime: at, attributes: { "svc.stage.status": stage.status } }, context);
        if (stage.status === "failed") span.setStatus({ code: SpanStatusCode.ERROR });
        at += stage.duration_ms;
        span.end(at);
      }
    },
    shutdown: () => provider.shutdown(),
  };
}
