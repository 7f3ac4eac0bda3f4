// The one shape every tool has, whatever runs it (an OpenAPI operation, an MCP server's tool, later
// built-ins, agents and devices). Callers (the invoke route, the intent engine, chat completions) see only
// this; the service validates arguments against `parameters` and asks governance before `invoke` runs.

import type { AppError } from "../errors/app-error.ts";

/** A JSON Schema object (draft-07 vocabulary; `type: "object"` at the top for tool parameters). */
export type JsonSchema = Record<string, unknown>;

export type ToolSource = "openapi" | "mcp" | "builtin";

export interface ToolContext {
  workspaceId: string;
  traceId?: string;
  signal?: AbortSignal;
}

export interface ToolResult {
  status: "succeeded" | "failed";
  /** What the tool answered (an HTTP status and body, MCP content), or `{error}` when it could not be reached. */
  result: unknown;
  /**
   * The failure says the runtime is unwell (transport error, timeout, HTTP 5xx, MCP isError), rather than
   * that this request was wrong (HTTP 4xx): only these count toward a degraded connection.
   */
  unhealthy: boolean;
  /** A short, secret-free reason when it failed (kept with the connection's health). */
  error?: string;
  /** How long the service asked to wait before calling again (an HTTP Retry-After on 429 or 503). */
  retryAfterMs?: number;
  /** The call was refused before anything was sent (a credential not meant for the host): what to answer. */
  refused?: AppError;
}

export interface Tool {
  /** Unique in the workspace; `[a-zA-Z0-9_-]{1,64}` (OpenAI function names). */
  readonly name: string;
  readonly description: string;
  /** JSON Schema of the arguments object. */
  readonly parameters: JsonSchema;
  readonly source: ToolSource;
  /** The connection that provides it (undefined for built-ins). */
  readonly connectionId: string | undefined;
  /** Runs the tool. Arguments were validated and governance approved before this is called. */
  invoke(args: Record<string, unknown>, context: ToolContext): Promise<ToolResult>;
  health(): "healthy" | "degraded";
  /**
   * The action's attributes as governance reads them (rules name `amount`, `currency` …), when they differ
   * from the arguments' shape (an OpenAPI request body's fields sit under `body`). Defaults to the arguments.
   */
  attributes?(args: Record<string, unknown>): Record<string, unknown>;
}

const FUNCTION_NAME = /^[a-zA-Z0-9_-]{1,64}$/;

/** Any text made into a function name: other characters become `_`, at most 64 characters. */
export function toFunctionName(text: string, fallback = "tool"): string {
  const name = text
    .replace(/[^a-zA-Z0-9_-]+/g, "_")
    .replace(/_+/g, "_")
    .replace(/^[_-]+|[_-]+$/g, "")
    .slice(0, 64);
  return FUNCTION_NAME.test(name) ? name : fallback;
}

/** `name`, or `name_2`, `name_3` … (kept within 64 characters) when `taken` has it. */
export function uniqueName(name: string, taken: Set<string>): string {
  if (!taken.has(name)) return name;
  for (let n = 2; ; n++) {
    const suffix = `_${n}`;
    const candidate = `${name.slice(0, 64 - suffix.length)}${suffix}`;
    if (!taken.has(candidate)) return candidate;
  }
}
