// The configured OpenAI-compatible upstream (SVC_MODEL_BASE_URL) for chat completions: one
// `POST {baseUrl}/chat/completions` per round, streamed when the client streams. Content deltas are handed to
// the caller as they arrive; tool-call fragments are accumulated by index and only returned whole, when the
// upstream finishes (the chat service governs them before anything about them is written).
// Errors map to the catalog: unreachable, no byte within SVC_MODEL_TIMEOUT_MS, 5xx and 429 →
// 503 `routing_unavailable` with `retry_after`; any other 4xx (the operator's key or model is wrong) →
// 503 `routing_unavailable` without retry advice, the message naming the HTTP status (the catalog has no
// gateway code for a refused upstream request).
// The base URL is operator configuration, so it is called directly (not through the SSRF-checked outbound
// client). Transport: undici's `request` on a keep-alive pool of its own. It is on every chat completion's
// path, and global fetch costs about 0.3 ms more per call (WHATWG streams, a Response object); the pool
// keeps connections to the one upstream warm.
import { Agent, request as undiciRequest, type Dispatcher } from "undici";
import { AppError } from "../../errors/app-error.ts";

export interface UpstreamOptions {
  baseUrl: string;
  apiKey?: string;
  model: string;
  /** Longest wait for a byte (connection, headers, or the next chunk of a stream). */
  timeoutMs: number;
}

export interface UpstreamToolCall {
  id: string;
  name: string;
  arguments: string;
}

export interface UpstreamReply {
  content: string;
  toolCalls: UpstreamToolCall[];
  finishReason: string | null;
}

export interface UpstreamRequest {
  messages: Record<string, unknown>[];
  tools: Record<string, unknown>[];
  toolChoice?: unknown;
  maxTokens?: number;
  stream: boolean;
}

export interface Upstream {
  readonly model: string;
  complete(request: UpstreamRequest, onContent?: (piece: string) => void): Promise<UpstreamReply>;
  /** Closes the pooled connections (at shutdown). */
  close(): Promise<void>;
}

/** Largest reply read from the upstream, in characters. */
const MAX_RESPONSE_CHARS = 4 * 1024 * 1024;
/** Retry advice (seconds) when the upstream gives none. */
const RETRY_AFTER_S = 1;

function unavailable(message: string, retryAfter: number | undefined): AppError {
  return new AppError("routing_unavailable", { message: `The configured model provider ${message}.`, ...(retryAfter !== undefined ? { retryAfter } : {}) });
}

function retryAfterOf(headers: Dispatcher.ResponseData["headers"]): number {
  const raw = headers["retry-after"];
  const value = Number(Array.isArray(raw) ? raw[0] : raw);
  return Number.isFinite(value) && value > 0 ? Math.min(Math.ceil(value), 300) : RETRY_AFTER_S;
}

/** A chat completion (non-streamed) read into a reply. */
export function readReply(body: unknown): UpstreamReply {
  const choice = (body as { choices?: { message?: { content?: unknown; tool_calls?: unknown }; finish_reason?: unknown }[] } | null)?.choices?.[0];
  if (!choice || !choice.message || typeof choice.message !== "object") throw unavailable("answered without a message", RETRY_AFTER_S);
  const calls = Array.isArray(choice.message.tool_calls) ? (choice.message.tool_calls as { id?: unknown; function?: { name?: unknown; arguments?: unknown } }[]) : [];
  return {
    content: typeof choice.message.content === "string" ? choice.message.content : "",
    toolCalls: calls.map((c, i) => ({
      id: typeof c.id === "string" ? c.id : `call_${i}`,
      name: typeof c.function?.name === "string" ? c.function.name : "",
      arguments: typeof c.function?.arguments === "string" ? c.function.arguments : c.function?.arguments ? JSON.stringify(c.function.arguments) : "",
    })),
    finishReason: typeof choice.finish_reason === "string" ? choice.finish_reason : null,
  };
}

/** Accumulates a chunk stream: content forwarded, tool-call fragments joined by index. */
export class ChunkAccumulator {
  content = "";
  finishReason: string | null = null;
  done = false;
  private calls = new Map<number, UpstreamToolCall>();
  private buffer = "";

  constructor(private readonly onContent?: (piece: string) => void) {}

  push(text: string): void {
    this.buffer += text;
    let end: number;
    while ((end = this.buffer.indexOf("\n")) >= 0) {
      const line = this.buffer.slice(0, end).replace(/\r$/, "");
      this.buffer = this.buffer.slice(end + 1);
      if (!line.startsWith("data:")) continue;
      const data = line.slice(5).trim();
      if (data === "[DONE]") {
        this.done = true;
        continue;
      }
      let chunk: { choices?: { delta?: { content?: unknown; tool_calls?: unknown }; finish_reason?: unknown }[]; error?: unknown };
      try {
        chunk = JSON.parse(data);
      } catch {
        continue;
      }
      if (chunk.error) throw unavailable("sent an error in its stream", RETRY_AFTER_S);
      const choice = chunk.choices?.[0];
      if (!choice) continue;
      if (typeof choice.finish_reason === "string") this.finishReason = choice.finish_reason;
      const delta = choice.delta;
      if (!delta) continue;
      if (typeof delta.content === "string" && delta.content !== "") {
        this.content += delta.content;
        this.onContent?.(delta.content);
      }
      if (Array.isArray(delta.tool_calls)) {
        for (const fragment of delta.tool_calls as { index?: unknown; id?: unknown; function?: { name?: unknown; arguments?: unknown } }[]) {
          const index = typeof fragment.index === "number" ? fragment.index : 0;
          const call = this.calls.get(index) ?? { id: "", name: "", arguments: "" };
          if (typeof fragment.id === "string" && fragment.id) call.id = fragment.id;
          if (typeof fragment.function?.name === "string") call.name += fragment.function.name;
          if (typeof fragment.function?.arguments === "string") call.arguments += fragment.function.arguments;
          this.calls.set(index, call);
        }
      }
    }
  }

  reply(): UpstreamReply {
    const toolCalls = [...this.calls.entries()].sort((a, b) => a[0] - b[0]).map(([i, c]) => ({ ...c, id: c.id || `call_${i}` }));
    return { content: this.content, toolCalls, finishReason: this.finishReason };
  }
}

export function createUpstream(options: UpstreamOptions): Upstream {
  const endpoint = `${options.baseUrl.replace(/\/+$/, "")}/chat/completions`;
  // Timeouts are ours (an idle timer below, restarted by every byte), so undici's own are off.
  const agent = new Agent({ keepAliveTimeout: 30_000, connections: 64, headersTimeout: 0, bodyTimeout: 0 });
  const headers: Record<string, string> = { "content-type": "application/json" };
  if (options.apiKey) headers.authorization = `Bearer ${options.apiKey}`;

  return {
    model: options.model,
    close: () => agent.close(),
    async complete(request, onContent) {
      const body = JSON.stringify({
        model: options.model,
        messages: request.messages,
        ...(request.tools.length > 0 ? { tools: request.tools, ...(request.toolChoice !== undefined ? { tool_choice: request.toolChoice } : {}) } : {}),
        ...(typeof request.maxTokens === "number" ? { max_tokens: request.maxTokens } : {}),
        stream: request.stream,
      });
      // An idle timer: restarted by every byte, so a stall (before or during the answer) ends the call.
      const controller = new AbortController();
      let timer: NodeJS.Timeout | undefined;
      let timedOut = false;
      const arm = () => {
        clearTimeout(timer);
        timer = setTimeout(() => {
          timedOut = true;
          controller.abort();
        }, options.timeoutMs);
      };
      arm();
      try {
        const response = await undiciRequest(endpoint, { method: "POST", headers: { ...headers, accept: request.stream ? "text/event-stream" : "application/json" }, body, signal: controller.signal, dispatcher: agent });
        if (response.statusCode < 200 || response.statusCode > 299) {
          await response.body.dump().catch(() => undefined);
          if (response.statusCode >= 500 || response.statusCode === 429) throw unavailable(`answered HTTP ${response.statusCode}`, retryAfterOf(response.headers));
          throw unavailable(`refused the request (HTTP ${response.statusCode}); check SVC_MODEL_API_KEY and SVC_MODEL_NAME`, undefined);
        }
        const accumulator = new ChunkAccumulator(onContent);
        const chunks: string[] = [];
        let size = 0;
        const type = response.headers["content-type"];
        const streamed = (Array.isArray(type) ? type.join(",") : (type ?? "")).includes("text/event-stream");
        response.body.setEncoding("utf8");
        for await (const text of response.body as AsyncIterable<string>) {
          arm();
          size += text.length;
          // Leaving the loop by a throw destroys the body (the iterator's return).
          if (size > MAX_RESPONSE_CHARS) {
            throw unavailable("sent a reply that is too large", RETRY_AFTER_S);
          }
          if (streamed) accumulator.push(text);
          else chunks.push(text);
        }
        if (streamed) {
          accumulator.push("\n");
          return accumulator.reply();
        }
        let parsed: unknown;
        try {
          parsed = JSON.parse(chunks.join(""));
        } catch {
          throw unavailable("sent a reply that is not JSON", RETRY_AFTER_S);
        }
        const reply = readReply(parsed);
        if (reply.content) onContent?.(reply.content);
        return reply;
      } catch (error) {
        if (error instanceof AppError) throw error;
        if (timedOut) throw unavailable(`sent nothing within ${options.timeoutMs} ms`, RETRY_AFTER_S);
        const e = error as { code?: unknown; cause?: { code?: unknown } } | null;
        const code = typeof e?.cause?.code === "string" ? e.cause.code : e?.code;
        throw unavailable(typeof code === "string" && /^[A-Z0-9_]{2,40}$/.test(code) ? `cannot be reached (${code})` : "cannot be reached", RETRY_AFTER_S);
      } finally {
        clearTimeout(timer);
      }
    },
  };
}
