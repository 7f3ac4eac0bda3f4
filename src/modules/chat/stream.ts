// OpenAI's chat stream framing: `data: <single-line JSON>` and a blank line per chunk, `data: [DONE]` at the
// end, `: ping` comments while nothing else is sent (at least every 15 s). No `event:` lines: the OpenAI
// clients treat a named event as something other than a chunk.
import type { FastifyReply } from "fastify";
import { PING_EVERY_MS, openRawStream } from "../../http/sse.ts";

export interface ChunkStream {
  data(payload: unknown): void;
  done(): void;
  readonly closed: boolean;
}

export function openChunkStream(reply: FastifyReply, traceId: string, headers: Record<string, string> = {}, pingEveryMs = PING_EVERY_MS): ChunkStream {
  const stream = openRawStream(reply, traceId, headers, pingEveryMs);
  return {
    get closed() {
      return stream.closed;
    },
    data: (payload) => stream.write(`data: ${JSON.stringify(payload)}\n\n`),
    done: () => {
      if (stream.closed) return;
      stream.write("data: [DONE]\n\n");
      stream.close();
    },
  };
}
