// A local fake of an OpenAI-compatible chat completions server (node:http on 127.0.0.1), scripted per test:
// it answers with a tool call, with text, with an HTTP error, with garbage, hangs or drops the connection,
// and records every request it got (headers and parsed body).
import { createServer, type IncomingHttpHeaders, type Server } from "node:http";
import type { AddressInfo, Socket } from "node:net";

export interface FakeRequest {
  method: string;
  url: string;
  headers: IncomingHttpHeaders;
  body: any;
}

export type Behaviour =
  | { tool: string; arguments: Record<string, unknown> | string; text?: string }
  | { text: string; stallAfter?: number }
  | { status: number; body?: string }
  | { raw: string }
  | { hang: true }
  | { reset: true };

export interface FakeOpenAi {
  url: string;
  requests: FakeRequest[];
  /** What every following request gets (a function sees the request). */
  script(behaviour: Behaviour | ((request: FakeRequest) => Behaviour)): void;
  close(): Promise<void>;
}

export function completion(message: Record<string, unknown>, finish = "stop"): string {
  return JSON.stringify({
    id: "chatcmpl-fake",
    object: "chat.completion",
    created: 1_700_000_000,
    model: "fake-model",
    choices: [{ index: 0, message: { role: "assistant", content: null, ...message }, finish_reason: finish }],
    usage: { prompt_tokens: 1, completion_tokens: 1, total_tokens: 2 },
  });
}

/**
 * A streamed answer (when the request asks `stream: true`): the text a word at a time, a tool call as its id
 * and name, then its arguments in 3-character fragments; `stallAfter` stops writing after that many chunks
 * (the connection stays open).
 */
function streamAnswer(res: import("node:http").ServerResponse, b: { tool: string; arguments: Record<string, unknown> | string; text?: string } | { text: string; stallAfter?: number }): void {
  const chunk = (delta: Record<string, unknown>, finish: string | null = null) =>
    `data: ${JSON.stringify({ id: "chatcmpl-fake", object: "chat.completion.chunk", created: 1_700_000_000, model: "fake-model", choices: [{ index: 0, delta, finish_reason: finish }] })}\n\n`;
  const out: string[] = [chunk({ role: "assistant", content: "" })];
  for (const word of b.text?.match(/\S+\s*/g) ?? []) out.push(chunk({ content: word }));
  if ("tool" in b) {
    const args = typeof b.arguments === "string" ? b.arguments : JSON.stringify(b.arguments);
    out.push(chunk({ tool_calls: [{ index: 0, id: "call_1", type: "function", function: { name: b.tool, arguments: "" } }] }));
    for (let i = 0; i < args.length; i += 3) out.push(chunk({ tool_calls: [{ index: 0, function: { arguments: args.slice(i, i + 3) } }] }));
  }
  out.push(chunk({}, "tool" in b ? "tool_calls" : "stop"), "data: [DONE]\n\n");
  res.writeHead(200, { "content-type": "text/event-stream" });
  const stall = "stallAfter" in b ? b.stallAfter : undefined;
  for (const [i, line] of out.entries()) {
    if (stall !== undefined && i >= stall) return;
    res.write(line);
  }
  res.end();
}

export async function startFakeOpenAi(): Promise<FakeOpenAi> {
  const requests: FakeRequest[] = [];
  const sockets = new Set<Socket>();
  let current: Behaviour | ((request: FakeRequest) => Behaviour) = { text: "I don't know." };
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const text = Buffer.concat(chunks).toString("utf8");
      let body: unknown;
      try {
        body = JSON.parse(text);
      } catch {
        body = text;
      }
      const request: FakeRequest = { method: req.method ?? "", url: req.url ?? "", headers: req.headers, body };
      requests.push(request);
      const b = typeof current === "function" ? current(request) : current;
      if ("hang" in b) return; // never answers; closed with the server
      if ("reset" in b) {
        req.socket.destroy();
        return;
      }
      if ("status" in b) {
        res.writeHead(b.status, { "content-type": "application/json" }).end(b.body ?? JSON.stringify({ error: { message: "upstream exploded", type: "server_error" } }));
        return;
      }
      if ("raw" in b) {
        res.writeHead(200, { "content-type": "application/json" }).end(b.raw);
        return;
      }
      if (request.body && typeof request.body === "object" && (request.body as { stream?: unknown }).stream === true && ("tool" in b || "text" in b)) {
        streamAnswer(res, b);
        return;
      }
      if ("tool" in b) {
        const args = typeof b.arguments === "string" ? b.arguments : JSON.stringify(b.arguments);
        res.writeHead(200, { "content-type": "application/json" }).end(completion({ tool_calls: [{ id: "call_1", type: "function", function: { name: b.tool, arguments: args } }] }, "tool_calls"));
        return;
      }
      res.writeHead(200, { "content-type": "application/json" }).end(completion({ content: b.text }));
    });
  });
  server.on("connection", (socket) => {
    sockets.add(socket);
    socket.on("close", () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    script(behaviour) {
      current = behaviour;
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  };
}

/** A port nothing listens on (bound, then released). */
export async function deadPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}
