// Trace ids. An incoming W3C `traceparent` supplies the id so a request joins the caller's distributed
// trace; otherwise a fresh W3C-shaped id (32 lowercase hex) is made. It is Fastify's request id, so every
// log line of the request carries it, and it is sent back as X-Svc-Trace-ID on every response. When
// tracing is on (src/observability/tracing.ts), the request's span has this same trace id.
import type { IncomingMessage } from "node:http";
import { randomHex } from "../ids.ts";

const TRACEPARENT = /^([0-9a-f]{2})-([0-9a-f]{32})-([0-9a-f]{16})-([0-9a-f]{2})$/;
const INVALID_TRACE_ID = "0".repeat(32);

export const TRACE_HEADER = "x-svc-trace-id";

/** A valid `traceparent`'s parts (version ff, an all-zero trace id or parent id is invalid). */
export function parseTraceparent(traceparent: string | string[] | undefined): { traceId: string; spanId: string; flags: number } | undefined {
  const value = Array.isArray(traceparent) ? traceparent[0] : traceparent;
  const match = value ? TRACEPARENT.exec(value.trim().toLowerCase()) : null;
  if (!match || match[1] === "ff" || match[2] === INVALID_TRACE_ID || match[3] === "0000000000000000") return undefined;
  return { traceId: match[2]!, spanId: match[3]!, flags: Number.parseInt(match[4]!, 16) };
}

export function traceIdFrom(traceparent: string | string[] | undefined): string {
  // Otherwise 16 bytes from the ids' pooled CSPRNG (one getrandom call per 4 KiB), as the 32 hex digits of W3C.
  return parseTraceparent(traceparent)?.traceId ?? randomHex(16);
}

export function genTraceId(req: IncomingMessage): string {
  return traceIdFrom(req.headers.traceparent);
}
