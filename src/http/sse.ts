// Server-Sent Events in the one framing every published client parses (wire reference 2.1): `event: <name>`,
// one `data:` line of single-line JSON, a blank line; keep-alives as `: ping` comments, at least every
// 15 seconds (clients abort after 30 s of silence).
import type { FastifyReply } from "fastify";
import { TRACE_HEADER } from "./trace.ts";

export const PING_EVERY_MS = 15_000;

export interface EventStream {
  send(event: string, data: unknown): void;
  close(): void;
  readonly closed: boolean;
}

/** Takes over the reply and opens the stream; extra headers go out with the status line. */
export function openEventStream(reply: FastifyReply, traceId: string, headers: Record<string, string> = {}, pingEveryMs = PING_EVERY_MS): EventStream {
  reply.hijack();
  const raw = reply.raw;
  raw.writeHead(200, {
    "content-type": "text/event-stream; charset=utf-8",
    "cache-control": "no-cache, no-transform",
    connection: "keep-alive",
    "x-accel-buffering": "no",
    [TRACE_HEADER]: traceId,
    ...headers,
  });
  let closed = false;
  const ping = setInterval(() => {
    if (!closed) raw.write(": ping\n\n");
  }, pingEveryMs);
  ping.unref();
  const stop = () => {
    closed = true;
    clearInterval(ping);
  };
  raw.on("close", stop);
  return {
    get closed() {
      return closed;
    },
    send: (event, data) => {
      if (closed) return;
      // JSON.stringify never emits a raw newline, so one data line always holds the whole payload.
      raw.write(`event: ${event}\ndata: ${JSON.stringify(data)}\n\n`);
    },
    close: () => {
      if (closed) return;
      stop();
      raw.end();
    },
  };
}
