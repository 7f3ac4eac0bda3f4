// The official OpenAI client pointed at this service, and a streamed completion read through its own
// stream helper (never hand-written parsing).
import OpenAI from "openai";

export type Chunk = OpenAI.Chat.Completions.ChatCompletionChunk & Record<string, any>;

export const openAiClient = (url: string, key: string, headers: Record<string, string> = {}) =>
  new OpenAI({ baseURL: `${url}/api/v1/svc`, apiKey: key, maxRetries: 0, defaultHeaders: headers });

/** A streamed completion: the final completion, every chunk, the text, and the chunk that finished it. */
export async function streamed(client: OpenAI, body: Record<string, unknown>) {
  const chunks: Chunk[] = [];
  let text = "";
  const stream = client.chat.completions.stream(body as never);
  stream.on("chunk", (chunk) => chunks.push(chunk as Chunk));
  stream.on("content", (delta) => (text += delta));
  const final = await stream.finalChatCompletion();
  return { final, chunks, text, last: [...chunks].reverse().find((c) => c.choices[0]?.finish_reason) };
}
