// POST /api/v1/svc/intent (and its alias POST /api/v1/intent): a conversation in, one decision out, with
// the trace. JSON by default (profiles through Accept); Server-Sent Events when the body says `stream: true`
// and Accept asks for text/event-stream.
import type { Static } from "typebox";
import { AppError } from "../../errors/app-error.ts";
import { GATE_HEADER } from "../../http/gate.ts";
import { profileOf, wantsEventStream, type Profile } from "../../http/profiles.ts";
import { openEventStream } from "../../http/sse.ts";
import { actorOf, type App } from "../../http/types.ts";
import { IntentBody, IntentResponse } from "./schemas.ts";
import type { IntentRequest, IntentService } from "./service.ts";

const tags = ["intent"];

/** The contract's message rules beyond types: the first turn is the user's, and user turns say something. */
function checkMessages(messages: IntentRequest["messages"]): void {
  const details: { field: string; message: string }[] = [];
  if (messages[0]?.role !== "user") details.push({ field: "messages[0].role", message: "the first message must be from the user" });
  messages.forEach((m, i) => {
    if (m.role === "user" && m.content.trim() === "") details.push({ field: `messages[${i}].content`, message: "must not be empty" });
  });
  if (details.length > 0) throw new AppError("invalid_request", { message: `Invalid request: ${details[0]!.field} ${details[0]!.message}.`, details });
}

/** The answer in the profile asked for: lean drops the trace, audit adds the gate decisions. */
export function shapeForProfile(body: Record<string, unknown>, profile: Profile, gate: string): Record<string, unknown> {
  if (profile === "lean") {
    const { intelligence: _trace, ...rest } = body;
    return rest;
  }
  if (profile === "audit") {
    const trace = body.intelligence as { governance?: unknown; humility?: unknown };
    return { ...body, gate: { decision: gate, governance: trace?.governance, humility: trace?.humility, reason_code: body.reason_code ?? null, policy_id: body.policy_id ?? null } };
  }
  return body;
}

export function registerIntentRoutes(app: App, intents: IntentService): void {
  for (const url of ["/api/v1/svc/intent", "/api/v1/intent"]) {
    app.post(
      url,
      {
        config: { errors: ["invalid_request", "tenant_required", "routing_unavailable"] },
        schema: {
          tags,
          summary: url === "/api/v1/intent" ? "Alias of POST /api/v1/svc/intent" : "Decide what to do with a conversation",
          body: IntentBody,
          response: { 200: IntentResponse },
        },
      },
      async (request, reply) => {
        const body = request.body as IntentRequest & { stream?: boolean };
        checkMessages(body.messages);
        const actor = actorOf(request);
        if (body.stream === true && wantsEventStream(request.headers.accept)) {
          const stream = openEventStream(reply, request.id);
          try {
            const answer = await intents.handle(actor, body, { traceId: request.id, path: url, onStage: (stage) => stream.send("stage", { type: "stage", ...stage }) });
            stream.send("gate", { type: "gate", gate: answer.gate });
            stream.send("intent", { type: "intent", gate: answer.gate, ...answer.body });
          } catch (error) {
            const e = error instanceof AppError ? error : new AppError("internal_error", { cause: error });
            request.log.error({ err: error }, "intent stream failed");
            stream.send("error", { type: "error", error: { code: e.code, message: e.message }, trace_id: request.id });
          } finally {
            stream.close();
          }
          return reply;
        }
        const answer = await intents.handle(actor, body, { traceId: request.id, path: url });
        reply.header(GATE_HEADER, answer.gate);
        return reply.send(shapeForProfile(answer.body, profileOf(request.headers.accept), answer.gate) as Static<typeof IntentResponse>);
      },
    );
  }
}
