// OpenTelemetry traces, only when an OTLP endpoint is configured (OTEL_EXPORTER_OTLP_ENDPOINT): otherwise
// `createTracing` answers a tracer that does nothing and no SDK object is made. Each request is a server
// span joined to the incoming W3C `traceparent`; its trace id is always the service's trace id (the one
// answered in X-Svc-Trace-ID and written in logs and records), so one id finds the request everywhere. The
// intent engine's stages become child spans, laid out from the durations the engine records.
//
// No global state: the provider is not registered with the OpenTelemetry API (no global tracer provider,
// no context manager), so several apps in one process keep their own, and nothing else in the process is
// traced by accident. Spans carry the method, the route pattern and the status only: no URL, header or body.
// The SDK (src/observability/otel.ts) is loaded only when tracing is configured: unconfigured, the service
// does not even import it.
import type { Stage } from "../engine/intent/trace.ts";

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

export async function createTracing(config: TracingConfig): Promise<Tracing> {
  const url = config.tracesEndpoint ?? (config.endpoint ? `${config.endpoint.replace(/\/+$/, "")}/v1/traces` : undefined);
  if (!url) return NOOP;
  const { createOtelTracing } = await import("./otel.ts");
  return createOtelTracing({ url, serviceName: config.serviceName, serviceVersion: config.serviceVersion });
}
