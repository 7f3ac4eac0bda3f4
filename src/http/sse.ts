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

/** A text/event-stream response taken over from Fastify: raw writes, pings while open. */
export interface RawStream {
  write(text: string): void;
  close(): void;
  readonly closed: boolean;
}

/** Takes over the reply and opens the stream; extra headers go out with the status line. */
export function openRawStream(reply: FastifyReply, traceId: string, headers: Record<string, string> = {}, pingEveryMs = PING_EVERY_MS): RawStream {
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
    write: (text) => {
      if (!closed) raw.write(text);
    },
    close: () => {
      if (closed) return;
      stop();
      raw.end();
    },
  };
}

/** Named events: `event: <name>` and one `data:` line of JSON each. */
export function openEventStream(reply: FastifyReply, traceId: string, headers: Record<string, string> = {}, pingEveryMs = PING_EVERY_MS): EventStream {
  const stream = openRawStream(reply, traceId, headers, pingEveryMs);
  return {
    get closed() {
      return stream.closed;
    },
    // JSON.stringify never emits a raw newline, so one data line always holds the whole payload.
    send: (event, data) => stream.write(`event: ${event}\ndata: ${JSON.stringify(data)}\n\n`),
    close: () => stream.close(),
  };
}
