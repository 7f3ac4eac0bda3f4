// POST /api/v1/svc/chat/completions: the OpenAI chat API, governed. JSON by default; OpenAI's chunk stream
// when the body says `stream: true`. The decision is made once, before anything is written, so a streamed
// answer carries exactly the decision the JSON one would.
import type { FastifyReply, FastifyRequest } from "fastify";
import { AppError } from "../../errors/app-error.ts";
import { GATE_HEADER } from "../../http/gate.ts";
import { profileOf } from "../../http/profiles.ts";
import { PING_EVERY_MS } from "../../http/sse.ts";
import { actorOf, type App } from "../../http/types.ts";
import { ChatBody, ChatResponse } from "./schemas.ts";
import type { ChatAnswer, ChatHead, ChatRequest, ChatService } from "./service.ts";
import { openChunkStream, type ChunkStream } from "./stream.ts";

/** The non-streamed answer: OpenAI's `chat.completion` plus the service's fields. */
export function completionBody(answer: ChatAnswer, lean = false): Record<string, unknown> {
  const message: Record<string, unknown> = { role: "assistant", content: answer.toolCalls.length > 0 && answer.content === "" ? null : answer.content, refusal: null };
  if (answer.toolCalls.length > 0) message.tool_calls = answer.toolCalls;
  return {
    id: answer.id,
    object: "chat.completion",
    created: answer.created,
    model: answer.model,
    choices: [{ index: 0, message, logprobs: null, finish_reason: answer.finishReason }],
    usage: answer.usage,
    conversation_id: answer.conversationId,
    trace_id: answer.traceId,
    ...(answer.pendingActions.length > 0 ? { pending_actions: answer.pendingActions } : {}),
    ...(lean ? {} : { intelligence: answer.intelligence }),
  };
}

/** Words in small pieces, as a model would stream them (whitespace kept, so the pieces join back exactly). */
export function contentPieces(text: string): string[] {
  const pieces = text.match(/\S+\s*|\s+/g) ?? [];
  const out: string[] = [];
  for (let i = 0; i < pieces.length; i += 4) out.push(pieces.slice(i, i + 4).join(""));
  return out;
}

/** One `chat.completion.chunk`. */
export function chunkOf(head: ChatHead, includeUsage: boolean, delta: Record<string, unknown>, finish: string | null, extra: Record<string, unknown> = {}): Record<string, unknown> {
  return { id: head.id, object: "chat.completion.chunk", created: head.created, model: head.model, system_fingerprint: null, choices: [{ index: 0, delta, logprobs: null, finish_reason: finish }], ...(includeUsage ? { usage: null } : {}), ...extra };
}

/**
 * The answer as OpenAI chunks: role, content deltas, whole tool calls, the finish, usage when asked, [DONE].
 * `already`: what was written before the answer was decided (an upstream's content, forwarded as it came).
 */
export function writeChunks(stream: ChunkStream, answer: ChatAnswer, includeUsage: boolean, already?: { role: boolean; content: string }): void {
  const base = { id: answer.id, object: "chat.completion.chunk", created: answer.created, model: answer.model, system_fingerprint: null };
  const chunk = (delta: Record<string, unknown>, finish: string | null, extra: Record<string, unknown> = {}) => stream.data(chunkOf(answer, includeUsage, delta, finish, extra));
  if (!already?.role) chunk({ role: "assistant", content: "" }, null, { conversation_id: answer.conversationId, trace_id: answer.traceId });
  const text = answer.content ?? "";
  const sent = already?.content ?? "";
  for (const piece of contentPieces(sent !== "" && text.startsWith(sent) ? text.slice(sent.length) : text)) chunk({ content: piece }, null);
  // A tool call goes out only whole and approved: id, type, name and the complete arguments in one delta.
  answer.toolCalls.forEach((call, index) => chunk({ tool_calls: [{ index, id: call.id, type: "function", function: { name: call.function.name, arguments: call.function.arguments } }] }, null));
  chunk({}, answer.finishReason, {
    conversation_id: answer.conversationId,
    trace_id: answer.traceId,
    gate: answer.gate,
    ...(answer.pendingActions.length > 0 ? { pending_actions: answer.pendingActions } : {}),
    intelligence: answer.intelligence,
  });
  if (includeUsage) stream.data({ ...base, choices: [], usage: answer.usage });
  stream.done();
}

export function registerChatRoutes(app: App, deps: { chat: ChatService; pingMs?: number }): void {
  const pingMs = deps.pingMs ?? PING_EVERY_MS;
  app.post(
    "/api/v1/svc/chat/completions",
    {
      config: { errors: ["invalid_request", "tenant_required", "blocked_by_policy", "routing_unavailable"] },
      schema: {
        tags: ["chat"],
        summary: "OpenAI-compatible chat completions: every tool call the model proposes is governed (X-Svc-Gate tells the outcome)",
        body: ChatBody,
        response: { 200: ChatResponse },
      },
    },
    async (request, reply) => {
      const body = request.body as unknown as ChatRequest;
      const actor = actorOf(request);
      const gated = (error: unknown) => {
        if (error instanceof AppError && error.code === "blocked_by_policy") reply.header(GATE_HEADER, "blocked");
        return error;
      };
      if (body.stream === true && deps.chat.upstream) return streamUpstream(body, actor, request, reply, gated);
      const decided = deps.chat.complete(actor, body, { traceId: request.id });
      if (body.stream !== true) {
        const answer = await decided.catch((error: unknown) => Promise.reject(gated(error)));
        reply.header(GATE_HEADER, answer.gate);
        return reply.send(completionBody(answer, profileOf(request.headers.accept) === "lean") as never);
      }

      const includeUsage = body.stream_options?.include_usage === true;
      // The gate header goes out with the status line when the decision is quick (it nearly always is);
      // a slow decision (a remote model) opens the stream first so pings keep it alive, and the gate is
      // then in the final chunk only. An error before the stream opens is an ordinary error reply.
      let timer: NodeJS.Timeout | undefined;
      const early = new Promise<"slow">((resolve) => {
        timer = setTimeout(() => resolve("slow"), Math.min(pingMs, 5_000));
      });
      const first = await Promise.race([decided.then((a) => ({ answer: a })), early]).catch((error: unknown) => {
        clearTimeout(timer);
        throw gated(error);
      });
      clearTimeout(timer);
      if (first !== "slow") {
        writeChunks(openChunkStream(reply, request.id, { [GATE_HEADER]: first.answer.gate }, pingMs), first.answer, includeUsage);
        return reply;
      }
      const stream = openChunkStream(reply, request.id, {}, pingMs);
      try {
        writeChunks(stream, await decided, includeUsage);
      } catch (error) {
        const e = error instanceof AppError ? error : new AppError("internal_error", { cause: error });
        request.log.error({ err: error }, "chat stream failed");
        stream.data({ error: { type: "api_error", code: e.code, message: e.message }, trace_id: request.id });
        stream.done();
      }
      return reply;
    },
  );

  /**
   * A streamed answer from the configured upstream: its content is forwarded as it comes (the stream opens
   * with the first delta, or after the ping interval so pings keep it alive); tool calls are governed first
   * and written whole with the finish. An error before the stream opens (upstream unreachable: 503) is an
   * ordinary error reply; after, an error chunk and [DONE].
   */
  async function streamUpstream(body: ChatRequest, actor: ReturnType<typeof actorOf>, request: FastifyRequest, reply: FastifyReply, gated: (error: unknown) => unknown) {
    const includeUsage = body.stream_options?.include_usage === true;
    let stream: ChunkStream | undefined;
    let role = false;
    let sent = "";
    const open = () => (stream ??= openChunkStream(reply, request.id, {}, pingMs));
    const timer = setTimeout(open, Math.min(pingMs, 5_000));
    const onContent = (piece: string, head: ChatHead) => {
      const s = open();
      if (!role) {
        role = true;
        s.data(chunkOf(head, includeUsage, { role: "assistant", content: "" }, null, { conversation_id: head.conversationId, trace_id: request.id }));
      }
      sent += piece;
      s.data(chunkOf(head, includeUsage, { content: piece }, null));
    };
    let answer: ChatAnswer;
    try {
      answer = await deps.chat.complete(actor, body, { traceId: request.id, onContent });
    } catch (error) {
      clearTimeout(timer);
      if (!stream) throw gated(error);
      const e = error instanceof AppError ? error : new AppError("internal_error", { cause: error });
      request.log.error({ err: error }, "chat stream failed");
      stream.data({ error: { type: "api_error", code: e.code, message: e.message, ...(e.options.retryAfter !== undefined ? { retry_after: e.options.retryAfter } : {}) }, trace_id: request.id });
      stream.done();
      return reply;
    }
    clearTimeout(timer);
    writeChunks(stream ?? openChunkStream(reply, request.id, { [GATE_HEADER]: answer.gate }, pingMs), answer, includeUsage, { role, content: sent });
    return reply;
  }
}
