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
  | { tool: string; arguments: Record<string, unknown> | string }
  | { text: string }
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
