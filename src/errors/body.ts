import { CATALOG, errorTypeOf, type ErrorCode } from "./catalog.ts";
import type { AppError } from "./app-error.ts";

const NEXT_ACTION_LABELS: Record<string, string> = {
  fix_request: "Fix the request and send it again",
  check_auth: "Check the API key",
  retry: "Retry later",
  connect_tool: "Connect the missing integration",
  contact_operator: "Ask the workspace operator",
  none: "No action possible from the request alone",
};

export function docUrl(publicUrl: string, code: string): string {
  return `${publicUrl}/infra/docs/errors#err-${code}`;
}

/**
 * The canonical error body. `message` and `hint` are mirrored at the top level because some published
 * clients (the CLI) read them there; `trace_id` sits at the top level beside `error`.
 */
export function errorBody(error: AppError, traceId: string, publicUrl: string): Record<string, unknown> {
  const entry = CATALOG[error.code as ErrorCode];
  const hint = error.options.hint ?? entry.hint;
  const next = entry.next ?? "none";
  const inner: Record<string, unknown> = {
    type: errorTypeOf(entry.status),
    code: error.code,
    message: error.message,
    hint,
    doc_url: docUrl(publicUrl, error.code),
    next_action: { type: next, label: NEXT_ACTION_LABELS[next] },
  };
  if (error.options.details) inner.details = error.options.details;
  if (error.options.retryAfter !== undefined) inner.retry_after = error.options.retryAfter;
  if (error.options.extra) Object.assign(inner, error.options.extra);
  return { error: inner, message: error.message, hint, trace_id: traceId };
}
