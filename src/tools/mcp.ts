// MCP runtime: a registered MCP server's tools, called through the SDK's client over Streamable HTTP or SSE.
// One session per connection is kept open and reused; it closes after SVC_MCP_IDLE_MS without calls, when
// the connection is deleted, and at shutdown, and reopens on the next call. Every request goes through the
// guarded outbound client (its fetch), so the address rules hold for the SDK's connections too.
import { storableText, storableValue, textProblem } from "../safe-json.ts";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { SSEClientTransport, SseError } from "@modelcontextprotocol/sdk/client/sse.js";
import { StreamableHTTPClientTransport, StreamableHTTPError } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { ErrorCode, McpError } from "@modelcontextprotocol/sdk/types.js";
import { outboundFailureOf, type Outbound } from "../http/outbound.ts";
import { VERSION } from "../version.ts";
import { toFunctionName, uniqueName, type JsonSchema, type Tool, type ToolResult } from "./tool.ts";

export type McpTransport = "http" | "sse";

export interface McpEndpoint {
  url: string;
  transport: McpTransport;
  headers: Record<string, string>;
}

/** One MCP tool as stored in the connection's config. */
export interface McpToolDefinition {
  /** The name exposed in this workspace (unique, a valid function name). */
  name: string;
  /** The name the server knows it by. */
  remote_name: string;
  description: string;
  parameters: JsonSchema;
}

/** What an MCP connection keeps in `connections.config`. Header values are sealed, never stored in clear. */
export interface McpConfig {
  [key: string]: unknown;
  source: "mcp";
  url: string;
  transport: McpTransport;
  header_names: string[];
  /** The headers as JSON, sealed by the credential vault (bound to the workspace and connection). */
  sealed_headers?: string;
  tools: McpToolDefinition[];
}

const MAX_TOOLS = 1_000;
const MAX_PAGES = 50;

/** A message for an MCP failure: the SDK's, or the outbound client's, with header values masked. */
export function mcpFailureMessage(error: unknown, secrets: string[]): string {
  const outbound = outboundFailureOf(error);
  let message = outbound?.message ?? (error instanceof Error ? error.message : String(error));
  if (!outbound && (error instanceof StreamableHTTPError || error instanceof SseError) && typeof error.code === "number") message = `the server answered HTTP ${error.code} (${message})`;
  for (const secret of secrets) if (secret.length >= 4) message = message.split(secret).join("[redacted]");
  return message.slice(0, 500);
}

/** Tool input schemas as the SDK reports them, made usable as parameters (object type, no $schema/$id). */
export function toParameters(inputSchema: unknown): JsonSchema {
  const schema = typeof inputSchema === "object" && inputSchema !== null && !Array.isArray(inputSchema) ? { ...(inputSchema as JsonSchema) } : {};
  delete schema.$schema;
  delete schema.$id;
  if (schema.type === undefined) schema.type = "object";
  return schema;
}

export interface McpSessions {
  /** A new, initialised client (registration lists tools with it, then hands it over with `adopt`). */
  open(endpoint: McpEndpoint): Promise<Client>;
  /** Keeps an open client as the session of a connection. */
  adopt(connectionId: string, client: Client): void;
  /** Calls a tool on the connection's session, opening it when needed. */
  call(connectionId: string, endpoint: () => Promise<McpEndpoint>, name: string, args: Record<string, unknown>, signal?: AbortSignal): Promise<Awaited<ReturnType<Client["callTool"]>>>;
  close(connectionId: string): Promise<void>;
  closeAll(): Promise<void>;
  /** Connection ids with an open (or opening) session. */
  openIds(): string[];
}

export function createMcpSessions(deps: { outbound: Outbound; idleMs: number; timeoutMs: number }): McpSessions {
  const { outbound, idleMs, timeoutMs } = deps;
  interface Session {
    client: Client;
    timer?: NodeJS.Timeout;
  }
  const sessions = new Map<string, Promise<Session>>();

  async function open(endpoint: McpEndpoint): Promise<Client> {
    const url = new URL(endpoint.url);
    const init = { headers: endpoint.headers };
    const transport =
      endpoint.transport === "sse"
        ? new SSEClientTransport(url, { fetch: outbound.fetch, requestInit: init })
        : new StreamableHTTPClientTransport(url, { fetch: outbound.fetch, requestInit: init });
    const client = new Client({ name: "svc", version: VERSION }, { capabilities: {} });
    await client.connect(transport, { timeout: timeoutMs });
    return client;
  }

  async function shut(client: Client): Promise<void> {
    // Streamable HTTP: end the session on the server too (a DELETE, briefly waited for: a server that does
    // not answer must not hold up a delete or a shutdown), then drop the connection.
    const transport = client.transport;
    if (transport instanceof StreamableHTTPClientTransport && transport.sessionId) {
      let timer: NodeJS.Timeout | undefined;
      const patience = new Promise<void>((resolve) => (timer = setTimeout(resolve, Math.min(timeoutMs, 2_000))));
      await Promise.race([transport.terminateSession().catch(() => {}), patience]);
      clearTimeout(timer);
    }
    await client.close().catch(() => {});
  }

  function touch(connectionId: string, session: Session): void {
    clearTimeout(session.timer);
    session.timer = setTimeout(() => void sessions_.close(connectionId), idleMs);
    session.timer.unref();
  }

  function adopt(connectionId: string, client: Client): Promise<Session> {
    const session: Session = { client };
    const entry = Promise.resolve(session);
    // A transport that ends by itself (server gone, stream closed) leaves no stale session behind.
    client.onclose = () => {
      if (sessions.get(connectionId) === entry) sessions.delete(connectionId);
      clearTimeout(session.timer);
    };
    sessions.set(connectionId, entry);
    touch(connectionId, session);
    return entry;
  }

  function sessionOf(connectionId: string, endpoint: () => Promise<McpEndpoint>): Promise<Session> {
    const existing = sessions.get(connectionId);
    if (existing) return existing;
    // Concurrent first calls share one opening.
    const opening = endpoint()
      .then(open)
      .then((client) => {
        if (sessions.get(connectionId) !== opening) {
          // Closed (deleted) while opening: do not keep it.
          void shut(client);
          throw new Error("the MCP session was closed while it opened");
        }
        return adopt(connectionId, client);
      });
    sessions.set(connectionId, opening);
    opening.catch(() => {
      if (sessions.get(connectionId) === opening) sessions.delete(connectionId);
    });
    return opening;
  }

  // Only failures that show the request never reached a live session are retried (after reopening), so a
  // tool never runs twice.
  const sessionGone = (error: unknown) =>
    (error instanceof StreamableHTTPError && error.code === 404) || (error instanceof Error && /^Not connected/.test(error.message));

  const sessions_: McpSessions = {
    open,
    adopt: (connectionId, client) => void adopt(connectionId, client),
    call: async (connectionId, endpoint, name, args, signal) => {
      for (let attempt = 1; ; attempt++) {
        const session = await sessionOf(connectionId, endpoint);
        try {
          const result = await session.client.callTool({ name, arguments: args }, undefined, { timeout: timeoutMs, ...(signal ? { signal } : {}) });
          touch(connectionId, session);
          return result;
        } catch (error) {
          if (attempt === 1 && sessionGone(error)) {
            await sessions_.close(connectionId);
            continue;
          }
          touch(connectionId, session);
          throw error;
        }
      }
    },
    close: async (connectionId) => {
      const entry = sessions.get(connectionId);
      if (!entry) return;
      sessions.delete(connectionId);
      const session = await entry.catch(() => undefined);
      if (!session) return;
      clearTimeout(session.timer);
      session.client.onclose = undefined;
      await shut(session.client);
    },
    closeAll: async () => {
      await Promise.all([...sessions.keys()].map((id) => sessions_.close(id)));
    },
    openIds: () => [...sessions.keys()],
  };
  return sessions_;
}

/** The server's tools (all pages), named for this workspace: valid function names, unique against `taken`. */
export async function listMcpTools(client: Client, taken: Set<string>, timeoutMs: number): Promise<McpToolDefinition[]> {
  const tools: McpToolDefinition[] = [];
  const names = new Set(taken);
  let cursor: string | undefined;
  for (let page = 0; page < MAX_PAGES; page++) {
    const listed = await client.listTools(cursor ? { cursor } : {}, { timeout: timeoutMs });
    for (const tool of listed.tools) {
      if (tools.length >= MAX_TOOLS) break;
      // A name PostgreSQL cannot store (NUL, lone surrogate) could not be called back by name either.
      if (textProblem(tool.name)) continue;
      const name = uniqueName(toFunctionName(tool.name), names);
      names.add(name);
      tools.push({
        name,
        remote_name: tool.name,
        // The server's text is repaired (U+FFFD), not refused: the caller does not own it.
        description: storableText((tool.description ?? tool.title ?? tool.name).slice(0, 1_000)),
        parameters: storableValue(toParameters(tool.inputSchema)) as JsonSchema,
      });
    }
    cursor = listed.nextCursor;
    if (!cursor || tools.length >= MAX_TOOLS) break;
  }
  return tools;
}

export interface McpToolDeps {
  sessions: McpSessions;
  connectionId: string;
  endpoint: () => Promise<McpEndpoint>;
  health: () => "healthy" | "degraded";
}

export function mcpTool(definition: McpToolDefinition, deps: McpToolDeps): Tool {
  return {
    name: definition.name,
    description: definition.description,
    parameters: definition.parameters,
    source: "mcp",
    connectionId: deps.connectionId,
    health: deps.health,
    invoke: async (args, context): Promise<ToolResult> => {
      try {
        const answer = await deps.sessions.call(deps.connectionId, deps.endpoint, definition.remote_name, args, context.signal);
        const isError = answer.isError === true;
        return {
          status: isError ? "failed" : "succeeded",
          result: {
            content: answer.content ?? [],
            ...(answer.structuredContent !== undefined ? { structured_content: answer.structuredContent } : {}),
            is_error: isError,
          },
          unhealthy: isError,
          ...(isError ? { error: "the MCP tool reported an error" } : {}),
        };
      } catch (error) {
        const headers = await deps.endpoint().then(
          (endpoint) => Object.values(endpoint.headers),
          () => [],
        );
        const message = mcpFailureMessage(error, headers);
        // The server refusing these arguments is the caller's problem, not the server's health.
        const callersFault = error instanceof McpError && error.code === ErrorCode.InvalidParams;
        return { status: "failed", result: { error: message }, unhealthy: !callersFault, error: message };
      }
    },
  };
}
