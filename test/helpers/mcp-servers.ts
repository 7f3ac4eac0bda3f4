// Real MCP servers built with the SDK, for MCP registration tests: Streamable HTTP (stateful sessions) and
// the older SSE transport, on node:http. Both require a bearer token and count sessions and tool calls, so
// tests can see reuse, idle closing and that invalid arguments never reach the server.
import { randomUUID } from "node:crypto";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { SSEServerTransport } from "@modelcontextprotocol/sdk/server/sse.js";
import { StreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/streamableHttp.js";
import { afterAll, beforeAll } from "vitest";
import { z } from "zod";

export const MCP_TOKEN = "mcp-token-0b7d3e9a4c2f";

export interface McpServerState {
  /** http://127.0.0.1:port/mcp (Streamable HTTP) and http://127.0.0.1:port/sse (SSE). */
  httpUrl: string;
  sseUrl: string;
  sessionsOpened: number;
  sessionsClosed: number;
  toolCalls: { name: string; args: unknown }[];
  /** Requests refused for a wrong or missing token. */
  unauthorised: number;
  /** Forgets every Streamable HTTP session, as a restarted server would (clients then get 404). */
  forgetSessions(): void;
}

function orderServer(state: McpServerState): McpServer {
  const server = new McpServer({ name: "orders", version: "1.0.0" });
  server.registerTool("add_numbers", { description: "Add two numbers", inputSchema: { a: z.number(), b: z.number() } }, async ({ a, b }) => {
    state.toolCalls.push({ name: "add_numbers", args: { a, b } });
    return { content: [{ type: "text", text: String(a + b) }], structuredContent: { sum: a + b } };
  });
  server.registerTool("lookup_order", { description: "Look up an order by its id", inputSchema: { order_id: z.string().min(1) } }, async ({ order_id }) => {
    state.toolCalls.push({ name: "lookup_order", args: { order_id } });
    return { content: [{ type: "text", text: JSON.stringify({ order_id, status: "shipped" }) }] };
  });
  server.registerTool("orders.search", { description: "Search orders", inputSchema: { query: z.string() } }, async ({ query }) => {
    state.toolCalls.push({ name: "orders.search", args: { query } });
    return { content: [{ type: "text", text: `found 2 orders for ${query}` }] };
  });
  server.registerTool("flaky_refund", { description: "Refund (its backend is down)" }, async () => {
    state.toolCalls.push({ name: "flaky_refund", args: {} });
    return { content: [{ type: "text", text: "refund backend unavailable" }], isError: true };
  });
  return server;
}

export function useMcpServers(): () => McpServerState {
  const streamable = new Map<string, StreamableHTTPServerTransport>();
  const state: McpServerState = { httpUrl: "", sseUrl: "", sessionsOpened: 0, sessionsClosed: 0, toolCalls: [], unauthorised: 0, forgetSessions: () => streamable.clear() };
  const sse = new Map<string, SSEServerTransport>();
  let server: Server | undefined;

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    if (req.headers.authorization !== `Bearer ${MCP_TOKEN}`) {
      state.unauthorised++;
      res.writeHead(401, { "content-type": "application/json" }).end(JSON.stringify({ error: "unauthorised" }));
      return;
    }
    const url = new URL(req.url ?? "/", "http://mcp.local");
    if (url.pathname === "/mcp") {
      const sessionId = req.headers["mcp-session-id"];
      let transport = typeof sessionId === "string" ? streamable.get(sessionId) : undefined;
      if (!transport) {
        if (sessionId !== undefined) {
          res.writeHead(404, { "content-type": "application/json" }).end(JSON.stringify({ jsonrpc: "2.0", error: { code: -32001, message: "Session not found" }, id: null }));
          return;
        }
        const created: StreamableHTTPServerTransport = new StreamableHTTPServerTransport({
          sessionIdGenerator: () => randomUUID(),
          onsessioninitialized: (id) => {
            streamable.set(id, created);
            state.sessionsOpened++;
          },
          onsessionclosed: (id) => {
            streamable.delete(id);
            state.sessionsClosed++;
          },
        });
        transport = created;
        await orderServer(state).connect(transport);
      }
      await transport.handleRequest(req, res);
      return;
    }
    if (url.pathname === "/sse" && req.method === "GET") {
      const transport = new SSEServerTransport("/messages", res);
      sse.set(transport.sessionId, transport);
      state.sessionsOpened++;
      res.on("close", () => {
        sse.delete(transport.sessionId);
        state.sessionsClosed++;
      });
      await orderServer(state).connect(transport);
      return;
    }
    if (url.pathname === "/messages" && req.method === "POST") {
      const transport = sse.get(url.searchParams.get("sessionId") ?? "");
      if (!transport) {
        res.writeHead(404).end("unknown session");
        return;
      }
      await transport.handlePostMessage(req, res);
      return;
    }
    res.writeHead(404).end("not found");
  }

  beforeAll(async () => {
    server = createServer((req, res) => void handle(req, res).catch(() => res.headersSent || res.writeHead(500).end()));
    await new Promise<void>((resolve) => server!.listen(0, "127.0.0.1", resolve));
    const port = (server.address() as AddressInfo).port;
    state.httpUrl = `http://127.0.0.1:${port}/mcp`;
    state.sseUrl = `http://127.0.0.1:${port}/sse`;
  });
  afterAll(async () => {
    for (const transport of [...streamable.values(), ...sse.values()]) await transport.close().catch(() => {});
    server?.closeAllConnections();
    await new Promise((resolve) => server?.close(resolve));
  });
  return () => state;
}
