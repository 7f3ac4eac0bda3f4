// OpenTelemetry traces, only when an OTLP endpoint is configured (OTEL_EXPORTER_OTLP_ENDPOINT): otherwise
// `createTracing` answers a tracer that does nothing and no SDK object is made. Each request is a server
// span joined to the incoming W3C `traceparent`; its trace id is always the service's trace id (the one
// answered in X-Svc-Trace-ID and written in logs and records), so one id finds the request everywhere. The
// intent engine's stages become child spans, laid out from the durations the engine records.
//
// No global state: the provider is not registered with the OpenTelemetry API (no global tracer provider,
// no context manager), so several apps in one process keep their own, and nothing else in the process is
// traced by accident. Spans carry the method, the route pattern and the status only: no URL, header or body.
import { ROOT_CONTEXT, SpanKind, SpanStatusCode, trace, type Span, type Tracer } from "@opentelemetry/api";
import { OTLPTraceExporter } from "@opentelemetry/exporter-trace-otlp-http";
import { resourceFromAttributes } from "@opentelemetry/resources";
import { BasicTracerProvider, BatchSpanProcessor, RandomIdGenerator, type IdGenerator } from "@opentelemetry/sdk-trace-base";
import type { Stage } from "../engine/intent/trace.ts";
import { parseTraceparent } from "../http/trace.ts";

export interface RequestSpanInfo {
  traceId: string;
  traceparent: string | string[] | undefined;
  method: string;
  /** The route pattern (`/api/v1/svc/executions/:id`), or undefined when no route matched. */
  route: string | undefined;
}

export interface Tracing {
  readonly enabled: boolean;
  /** Opens the request's server span; `end` closes it with the status. */
  startRequest(info: RequestSpanInfo): { end(status: number): void } | undefined;
  /** The intent engine's stages of the request with this trace id, ending now, as child spans. */
  stages(traceId: string, stages: readonly Stage[], durationMs: number): void;
  /** Sends what is buffered and stops. */
  shutdown(): Promise<void>;
}

export interface TracingConfig {
  /** The OTLP/HTTP base URL (`http://collector:4318`); traces go to `<base>/v1/traces`. Unset: no tracing. */
  endpoint: string | undefined;
  /** The full traces URL when given on its own (OTEL_EXPORTER_OTLP_TRACES_ENDPOINT); wins over `endpoint`. */
  tracesEndpoint: string | undefined;
  serviceName: string;
  serviceVersion: string;
}

const NOOP: Tracing = { enabled: false, startRequest: () => undefined, stages: () => {}, shutdown: async () => {} };

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

export function createTracing(config: TracingConfig): Tracing {
  const url = config.tracesEndpoint ?? (config.endpoint ? `${config.endpoint.replace(/\/+$/, "")}/v1/traces` : undefined);
  if (!url) return NOOP;
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
      return {
        end: (status) => {
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
