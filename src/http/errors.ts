// The edge's error writer: every failure, from a hook, a validation, the body parser or a handler, leaves
// through here as the canonical body with the trace id. Nobody else writes an error body.
import { STATUS_CODES } from "node:http";
import type { Socket } from "node:net";
import type { FastifyBaseLogger, FastifyError, FastifyReply, FastifyRequest } from "fastify";
import { AppError, type ErrorDetail } from "../errors/app-error.ts";
import { loggableError } from "../db/log.ts";
import { errorBody } from "../errors/body.ts";
import { randomHex } from "../ids.ts";
import { TRACE_HEADER } from "./trace.ts";
import type { App } from "./types.ts";

/** Longest path parameter the router accepts (Fastify's default, set explicitly so it is documented). */
export const MAX_PARAM_LENGTH = 100;

interface AjvIssue {
  instancePath?: string;
  keyword?: string;
  message?: string;
  params?: Record<string, unknown>;
}

/** `/messages/0/role` → `messages[0].role`; the validation context names the field when the path is empty. */
function fieldOf(issue: AjvIssue, context: string | undefined): string {
  let path = issue.instancePath ?? "";
  if (issue.keyword === "required" && typeof issue.params?.missingProperty === "string") {
    path += `/${issue.params.missingProperty}`;
  }
  if (issue.keyword === "additionalProperties" && typeof issue.params?.additionalProperty === "string") {
    path += `/${issue.params.additionalProperty}`;
  }
  const dotted = path
    .split("/")
    .filter(Boolean)
    .map((part, i) => (/^\d+$/.test(part) ? `[${part}]` : i === 0 ? part : `.${part}`))
    .join("");
  return dotted || context || "body";
}

function describe(issue: AjvIssue): string {
  if (issue.keyword === "required") return "is required";
  if (issue.keyword === "additionalProperties") return "is not a known field";
  if (issue.keyword === "enum" && Array.isArray(issue.params?.allowedValues)) {
    return `must be one of ${(issue.params.allowedValues as unknown[]).map(String).join(", ")}`;
  }
  return issue.message ?? "is not valid";
}

/**
 * Ajv's issues as `{field, message}` details under `root` (`arguments.amount`), the way the edge reports
 * body validation; used where a value is validated against a schema outside the route's own (tool arguments).
 */
export function validationDetails(issues: AjvIssue[], root: string): ErrorDetail[] {
  return issues.map((issue) => ({ field: fieldOf({ ...issue, instancePath: `/${root}${issue.instancePath ?? ""}` }, root), message: describe(issue) }));
}

/** Turns anything thrown into the AppError the caller should see. */
export function toAppError(error: unknown): AppError {
  if (error instanceof AppError) return error;
  const fastifyError = error as FastifyError & { validation?: AjvIssue[]; validationContext?: string };
  if (Array.isArray(fastifyError.validation)) {
    const details: ErrorDetail[] = fastifyError.validation.map((issue) => ({
      field: fieldOf(issue, fastifyError.validationContext),
      message: describe(issue),
    }));
    const first = details[0];
    return new AppError("invalid_request", {
      message: first ? `Invalid request: ${first.field} ${first.message}.` : undefined,
      details,
    });
  }
  const status = fastifyError.statusCode;
  if (status === 413) return new AppError("payload_too_large");
  if (status === 415) return new AppError("unsupported_media_type");
  if (typeof status === "number" && status >= 400 && status < 500) {
    const field = fastifyError.code?.startsWith("FST_ERR_CTP") ? "body" : "request";
    return new AppError("invalid_request", {
      message: `Invalid request: ${fastifyError.message}`,
      details: [{ field, message: fastifyError.message }],
    });
  }
  return new AppError("internal_error", { cause: error });
}

export function sendError(request: FastifyRequest, reply: FastifyReply, error: AppError, publicUrl: string): FastifyReply {
  if (error.options.retryAfter !== undefined) reply.header("retry-after", String(error.options.retryAfter));
  if (error.status === 401) reply.header("www-authenticate", 'Bearer realm="svc"');
  // Pre-serialised: a route's success schema must never reshape an error body.
  return reply
    .code(error.status)
    .type("application/json; charset=utf-8")
    .send(JSON.stringify(errorBody(error, request.id, publicUrl)));
}

export function registerErrorHandling(app: App, publicUrl: () => string): void {
  app.setErrorHandler((error, request, reply) => {
    const appError = toAppError(error);
    // loggableError: a failed query is logged without its parameters, whatever logger was given.
    if (appError.status >= 500) request.log.error({ err: loggableError(error) }, "request failed");
    return sendError(request, reply, appError, publicUrl());
  });
  app.setNotFoundHandler((request, reply) =>
    sendError(request, reply, new AppError("not_found", { message: `No route ${request.method} ${request.url.split("?")[0]}.` }), publicUrl()),
  );
}

/**
 * Fastify's `frameworkErrors`: failures the router raises before any route or hook runs (a malformed
 * percent-encoding, a path parameter over MAX_PARAM_LENGTH). No onRequest hook ran, so the trace header is
 * set here.
 */
export function frameworkErrorHandler(publicUrl: () => string) {
  return (error: FastifyError, request: FastifyRequest, reply: FastifyReply): void => {
    reply.header(TRACE_HEADER, request.id);
    const message =
      error.code === "FST_ERR_MAX_PARAM_LENGTH"
        ? `a path segment is longer than ${MAX_PARAM_LENGTH} characters`
        : error.code === "FST_ERR_BAD_URL"
          ? "is not a valid percent-encoded URL path"
          : "could not be routed";
    const appError = error.code === "FST_ERR_ASYNC_CONSTRAINT" ? new AppError("internal_error", { cause: error }) : new AppError("invalid_request", { message: `Invalid request: path ${message}.`, details: [{ field: "path", message }] });
    void sendError(request, reply, appError, publicUrl());
  };
}

/**
 * The HTTP server's `clientError`: requests Node's parser refuses before Fastify sees them (headers over
 * maxHeaderSize, a malformed request line or header, a request that timed out). Written raw on the socket,
 * still as the canonical body with a fresh trace id.
 */
export function clientErrorHandler(publicUrl: () => string) {
  // Fastify calls it with the instance as `this` (for its logger).
  return function (this: { log: FastifyBaseLogger }, error: Error & { code?: string }, socket: Socket): void {
    if (error.code === "ECONNRESET" || socket.destroyed) return;
    const appError =
      error.code === "HPE_HEADER_OVERFLOW"
        ? new AppError("request_header_too_large")
        : error.code === "ERR_HTTP_REQUEST_TIMEOUT"
          ? new AppError("request_timeout")
          : new AppError("invalid_request", { message: "Invalid request: the HTTP request is malformed.", details: [{ field: "request", message: "is not a well-formed HTTP/1.1 request" }] });
    const traceId = randomHex(16);
    this.log.debug({ err: error, trace_id: traceId }, "client error");
    // As Node's own handler: never write into a response already under way on this socket (pipelining).
    const inFlight = (socket as Socket & { _httpMessage?: { headersSent?: boolean } })._httpMessage;
    if (socket.writable && !inFlight?.headersSent) {
      const body = JSON.stringify(errorBody(appError, traceId, publicUrl()));
      socket.write(
        `HTTP/1.1 ${appError.status} ${STATUS_CODES[appError.status] ?? "Error"}\r\n` +
          `Content-Type: application/json; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(body)}\r\n` +
          `${TRACE_HEADER}: ${traceId}\r\nConnection: close\r\n\r\n${body}`,
      );
    }
    socket.destroy();
  };
}
