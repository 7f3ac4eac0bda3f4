// /api/v1/svc/executions/{id}: read, confirm, cancel and stream an execution (the intent engine creates them).
// The stream is Server-Sent Events (http/sse.ts: the wire reference's §2.1 framing, `: ping` keep-alives).
import { Type } from "typebox";
import { openEventStream } from "../../http/sse.ts";
import { actorOf, workspaceIdOf, type App } from "../../http/types.ts";
import { eventKey, eventsFromRow, isTerminalEvent, terminalEvent, type ExecutionEvent } from "./events.ts";
import { Execution, ExecutionParams, executionToWire } from "./schemas.ts";
import type { ExecutionService } from "./service.ts";
import { isTerminal } from "./store.ts";

const tags = ["executions"];

export function registerExecutionRoutes(app: App, deps: { executions: ExecutionService; pingMs: number }): void {
  const { executions, pingMs } = deps;
  // Open streams end before the server closes (it would otherwise wait for them).
  const streams = new Set<() => void>();
  app.addHook("preClose", async () => {
    for (const end of [...streams]) end();
  });

  app.get(
    "/api/v1/svc/executions/:id",
    { config: { errors: ["execution_not_found"] }, schema: { tags, summary: "Get an execution: status, progress, steps, result, diagnosis", params: ExecutionParams, response: { 200: Execution } } },
    async (request) => executionToWire(await executions.get(workspaceIdOf(request.principal), request.params.id)),
  );

  app.post(
    "/api/v1/svc/executions/:id/confirm",
    {
      config: { errors: ["execution_not_found", "execution_not_ready"] },
      schema: { tags, summary: "Start a ready execution; it runs in the background (status running)", params: ExecutionParams, response: { 200: Execution } },
    },
    async (request) => executionToWire(await executions.start(actorOf(request), request.params.id)),
  );

  app.post(
    "/api/v1/svc/executions/:id/cancel",
    {
      config: { errors: ["execution_not_found", "execution_finished"] },
      schema: { tags, summary: "Cancel an execution (a running one stops before its next step)", params: ExecutionParams, response: { 200: Execution } },
    },
    async (request) => executionToWire(await executions.cancel(actorOf(request), request.params.id)),
  );

  app.get(
    "/api/v1/svc/executions/:id/stream",
    {
      config: { errors: ["execution_not_found"] },
      schema: {
        tags,
        summary: "Server-Sent Events of an execution: step_started, step_completed, step_failed, execution_steps_complete, then mission_complete, mission_partial or mission_blocked",
        params: ExecutionParams,
        response: { 200: { description: "text/event-stream", content: { "text/event-stream": { schema: Type.String() } } } },
      },
    },
    async (request, reply) => {
      const workspaceId = workspaceIdOf(request.principal);
      const id = request.params.id;
      // Subscribed before the first read, so nothing between the read and the subscription is lost.
      const early: ExecutionEvent[] = [];
      const live: { handler?: (event: ExecutionEvent) => void; timer?: NodeJS.Timeout } = {};
      const unsubscribe = executions.subscribe(workspaceId, id, (event) => (live.handler ? live.handler(event) : early.push(event)));
      let row;
      try {
        row = await executions.get(workspaceId, id);
      } catch (error) {
        unsubscribe();
        throw error;
      }

      const stream = openEventStream(reply, request.id, {}, pingMs);
      if (request.method === "HEAD") {
        unsubscribe();
        stream.close();
        return reply;
      }

      const sent = new Set<string>();
      const end = () => {
        clearInterval(live.timer);
        unsubscribe();
        streams.delete(end);
        stream.close();
      };
      streams.add(end);
      reply.raw.on("close", end);
      const send = (event: ExecutionEvent) => {
        if (stream.closed) return;
        const key = eventKey(event);
        if (sent.has(key)) return;
        sent.add(key);
        stream.send(event.type, event);
        if (isTerminalEvent(event)) end();
      };
      // What the row says now: missed step events, and the terminal event (with the full outcome) once it ended.
      const catchUp = async (fallback?: ExecutionEvent) => {
        try {
          for (const event of eventsFromRow(await executions.get(workspaceId, id))) send(event);
        } catch (error) {
          request.log.warn({ err: error, execution_id: id }, "execution stream could not read the execution");
          if (fallback) send(fallback);
        }
      };

      if (isTerminal(row.status)) {
        send(terminalEvent(row));
        return reply;
      }
      for (const event of eventsFromRow(row)) send(event);
      live.handler = (event) => (isTerminalEvent(event) ? void catchUp(event) : send(event));
      for (const event of early.splice(0)) live.handler(event);
      // Beside the keep-alive pings: a poll of the row, so the stream ends right even if a notification was lost.
      live.timer = setInterval(() => {
        if (!stream.closed) void catchUp();
      }, pingMs);
      live.timer.unref();
      return reply;
    },
  );
}
