// POST /api/v1/svc/chat/completions: the OpenAI chat API, governed. JSON by default; OpenAI's chunk stream
// when the body says `stream: true`. The decision is made once, before anything is written, so a streamed
// answer carries exactly the decision the JSON one would.
import { AppError } from "../../errors/app-error.ts";
import { GATE_HEADER } from "../../http/gate.ts";
import { profileOf } from "../../http/profiles.ts";
import { PING_EVERY_MS } from "../../http/sse.ts";
import { actorOf, type App } from "../../http/types.ts";
import { ChatBody, ChatResponse } from "./schemas.ts";
import type { ChatAnswer, ChatRequest, ChatService } from "./service.ts";
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

/** The answer as OpenAI chunks: role, content deltas, whole tool calls, the finish, usage when asked, [DONE]. */
export function writeChunks(stream: ChunkStream, answer: ChatAnswer, includeUsage: boolean): void {
  const base = { id: answer.id, object: "chat.completion.chunk", created: answer.created, model: answer.model, system_fingerprint: null };
  const chunk = (delta: Record<string, unknown>, finish: string | null, extra: Record<string, unknown> = {}) =>
    stream.data({ ...base, choices: [{ index: 0, delta, logprobs: null, finish_reason: finish }], ...(includeUsage ? { usage: null } : {}), ...extra });
  chunk({ role: "assistant", content: "" }, null, { conversation_id: answer.conversationId, trace_id: answer.traceId });
  for (const piece of contentPieces(answer.content ?? "")) chunk({ content: piece }, null);
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
      const decided = deps.chat.complete(actor, body, { traceId: request.id });
      const gated = (error: unknown) => {
        if (error instanceof AppError && error.code === "blocked_by_policy") reply.header(GATE_HEADER, "blocked");
        return error;
      };
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
}
