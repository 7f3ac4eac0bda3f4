// The configured OpenAI-compatible upstream (SVC_MODEL_BASE_URL) for chat completions: one
// `POST {baseUrl}/chat/completions` per round, streamed when the client streams. Content deltas are handed to
// the caller as they arrive; tool-call fragments are accumulated by index and only returned whole, when the
// upstream finishes (the chat service governs them before anything about them is written).
// Errors map to the catalog: unreachable, no byte within SVC_MODEL_TIMEOUT_MS, 5xx and 429 →
// 503 `routing_unavailable` with `retry_after`; any other 4xx (the operator's key or model is wrong) →
// 503 `routing_unavailable` without retry advice, the message naming the HTTP status (the catalog has no
// gateway code for a refused upstream request).
// The base URL is operator configuration, so it is called directly (not through the SSRF-checked outbound
// client). Transport: undici's dispatcher on a keep-alive pool of its own, read through a dispatch handler.
// It is on every chat completion's path: global fetch costs about 0.3 ms more per call (WHATWG streams, a
// Response object), and undici's `request` another 30 to 40 microseconds (a body stream, its async iterator,
// an AbortSignal); the handler gets the bytes as they arrive and nothing else. The pool keeps connections to
// the one upstream warm.
import { StringDecoder } from "node:string_decoder";
import { Agent, type Dispatcher } from "undici";
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

/** Largest reply read from the upstream, in bytes. */
const MAX_RESPONSE_BYTES = 4 * 1024 * 1024;
/** Retry advice (seconds) when the upstream gives none. */
const RETRY_AFTER_S = 1;

function unavailable(message: string, retryAfter: number | undefined): AppError {
  return new AppError("routing_unavailable", { message: `The configured model provider ${message}.`, ...(retryAfter !== undefined ? { retryAfter } : {}) });
}

function retryAfterOf(headers: Record<string, string | string[] | undefined>): number {
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
  const endpoint = new URL(`${options.baseUrl.replace(/\/+$/, "")}/chat/completions`);
  const origin = endpoint.origin;
  const path = `${endpoint.pathname}${endpoint.search}`;
  // Timeouts are ours (an idle timer, restarted by every chunk), so undici's own are off.
  const agent = new Agent({ keepAliveTimeout: 30_000, connections: 64, headersTimeout: 0, bodyTimeout: 0 });
  const headers: Record<string, string> = { "content-type": "application/json" };
  if (options.apiKey) headers.authorization = `Bearer ${options.apiKey}`;
  const jsonHeaders = { ...headers, accept: "application/json" };
  const streamHeaders = { ...headers, accept: "text/event-stream" };

  /**
   * One POST: `onText` gets the body as text, piece by piece, as it arrives; resolves with whether the
   * answer is an event stream. Rejects with the catalog's error for a refused or failed call, a stall
   * (no byte within the timeout) and an oversized reply; an error thrown by `onText` ends the call with it.
   */
  const post = (body: string, stream: boolean, onText: (text: string, events: boolean) => void): Promise<boolean> =>
    new Promise<boolean>((resolve, reject) => {
      let controller: Dispatcher.DispatchController | undefined;
      let failure: AppError | undefined;
      let refused: AppError | undefined;
      let streamed = false;
      let size = 0;
      const decoder = new StringDecoder("utf8");
      const stop = (error: AppError) => {
        failure ??= error;
        if (controller) {
          if (!controller.aborted) controller.abort(error);
        } else end(); // not sent yet (still connecting): the call fails now; onRequestStart aborts it later
      };
      const timer = setTimeout(() => stop(unavailable(`sent nothing within ${options.timeoutMs} ms`, RETRY_AFTER_S)), options.timeoutMs);
      const end = (error?: unknown) => {
        clearTimeout(timer);
        if (failure ?? refused) return reject(failure ?? refused);
        if (error === undefined) return resolve(streamed);
        if (error instanceof AppError) return reject(error);
        const e = error as { code?: unknown; cause?: { code?: unknown } } | null;
        const code = typeof e?.cause?.code === "string" ? e.cause.code : e?.code;
        reject(unavailable(typeof code === "string" && /^[A-Z0-9_]{2,40}$/.test(code) ? `cannot be reached (${code})` : "cannot be reached", RETRY_AFTER_S));
      };
      agent.dispatch(
        { origin, path, method: "POST", headers: stream ? streamHeaders : jsonHeaders, body },
        {
          onRequestStart: (c) => {
            controller = c;
            if (failure) c.abort(failure);
          },
          onResponseStart: (_c, statusCode, responseHeaders) => {
            timer.refresh();
            if (statusCode < 200 || statusCode > 299) {
              // The body is read to its end (and ignored) so the connection stays usable.
              refused =
                statusCode >= 500 || statusCode === 429
                  ? unavailable(`answered HTTP ${statusCode}`, retryAfterOf(responseHeaders))
                  : unavailable(`refused the request (HTTP ${statusCode}); check SVC_MODEL_API_KEY and SVC_MODEL_NAME`, undefined);
              return;
            }
            const type = responseHeaders["content-type"];
            streamed = (Array.isArray(type) ? type.join(",") : (type ?? "")).includes("text/event-stream");
          },
          onResponseData: (_c, chunk) => {
            timer.refresh();
            size += chunk.length;
            if (size > MAX_RESPONSE_BYTES) return stop(unavailable("sent a reply that is too large", RETRY_AFTER_S));
            if (refused || failure) return;
            try {
              onText(decoder.write(chunk), streamed);
            } catch (error) {
              stop(error instanceof AppError ? error : unavailable("sent a reply that could not be read", RETRY_AFTER_S));
            }
          },
          onResponseEnd: () => {
            if (!refused && !failure) {
              try {
                const rest = decoder.end();
                if (rest) onText(rest, streamed);
              } catch (error) {
                failure = error instanceof AppError ? error : unavailable("sent a reply that could not be read", RETRY_AFTER_S);
              }
            }
            end();
          },
          onResponseError: (_c, error) => end(error),
        },
      );
    });

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
      const accumulator = new ChunkAccumulator(onContent);
      const chunks: string[] = [];
      // An event stream is read as it comes (content forwarded at once); a JSON answer whole.
      const streamed = await post(body, request.stream, (text, events) => (events ? accumulator.push(text) : chunks.push(text)));
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
    },
  };
}
