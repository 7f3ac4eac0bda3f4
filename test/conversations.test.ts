// Dialogue state over real HTTP: a clarification keeps, with its conversation, the tool it asked about, the
// fields it asked for and the arguments already known; the next turn with the same conversation_id gives
// a bare value to those fields (on /intent and on /chat/completions alike), a new request by its verb is
// planned on its own, and the state ends with the conversation's execution, block or answer.
import { sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { call, newWorkspace, query, useServer, type TestWorkspace } from "./helpers/server.ts";

const server = useServer();
const INTENT = "/api/v1/svc/intent";
const CHAT = "/api/v1/svc/chat/completions";

// A lending library: a domain of its own, with a code-shaped id, a bounded count and a free-text place.
const RENEW = {
  type: "object",
  required: ["loan_id", "weeks"],
  properties: {
    loan_id: { type: "string", pattern: "^LN-[0-9]{4}$", description: "The loan to renew." },
    weeks: { type: "integer", minimum: 1, maximum: 6, description: "How many more weeks." },
  },
};
const HOLD = {
  type: "object",
  required: ["title", "branch"],
  properties: {
    title: { type: "string", description: "Title of the book." },
    branch: { type: "string", description: "Library branch for pickup." },
  },
};
const CANCEL = { type: "object", required: ["loan_id"], properties: { loan_id: { type: "string", pattern: "^LN-[0-9]{4}$", description: "The loan to cancel." } } };

const SPEC = {
  openapi: "3.0.3",
  info: { title: "Library", version: "1" },
  servers: [{ url: "https://library.example.test" }],
  paths: {
    "/loans/renew": { post: { operationId: "renew_loan", summary: "Renew a book loan for more weeks", requestBody: { required: true, content: { "application/json": { schema: RENEW } } } } },
    "/loans/cancel": { post: { operationId: "cancel_loan", summary: "Cancel a book loan", requestBody: { required: true, content: { "application/json": { schema: CANCEL } } } } },
    "/holds": { post: { operationId: "place_hold", summary: "Place a hold on a book at a branch", requestBody: { required: true, content: { "application/json": { schema: HOLD } } } } },
  },
};

async function workspace(): Promise<TestWorkspace> {
  const ws = await newWorkspace(server());
  const imported = await call(server(), "POST", "/api/v1/svc/connections/openapi", { key: ws.key, body: { name: "library", spec_content: SPEC } });
  expect(imported.status, imported.text).toBe(201);
  return ws;
}

const intent = (ws: TestWorkspace, content: string, extra: Record<string, unknown> = {}) => call(server(), "POST", INTENT, { key: ws.key, body: { messages: [{ role: "user", content }], ...extra } });

async function pendingOf(ws: TestWorkspace, conversationId: string) {
  const [row] = await query(server(), sql`select pending from conversations where workspace_id = ${ws.id} and id = ${conversationId}`);
  return row?.pending ?? null;
}

describe("dialogue state", () => {
  it("/intent: a clarification keeps its tool and fields; a bare number answers it, and the state ends with the execution", async () => {
    const ws = await workspace();
    const first = await intent(ws, "Please renew loan LN-4821");
    expect(first.body).toMatchObject({ type: "clarify", status: "needs_input", clarification: { tool: "renew_loan" } });
    const conversation = first.body.conversation_id as string;
    expect(await pendingOf(ws, conversation)).toEqual({ tool: "renew_loan", fields: ["weeks"], arguments: { loan_id: "LN-4821" } });

    const second = await intent(ws, "3", { conversation_id: conversation });
    expect(second.body).toMatchObject({ type: "execution", status: "ready_to_execute", action: { tool: "renew_loan", arguments: { loan_id: "LN-4821", weeks: 3 } } });
    expect(await pendingOf(ws, conversation)).toBeNull();
  });

  it("/intent: a bare place answers the field asked for; another workspace cannot resume the conversation", async () => {
    const ws = await workspace();
    const first = await intent(ws, "Place a hold on the title \"The Left Hand of Darkness\"");
    expect(first.body).toMatchObject({ type: "clarify", clarification: { tool: "place_hold" } });
    const conversation = first.body.conversation_id as string;
    const pending = await pendingOf(ws, conversation);
    expect(pending).toMatchObject({ tool: "place_hold", fields: ["branch"] });

    const other = await workspace();
    const elsewhere = await intent(other, "Harbourside", { conversation_id: conversation });
    expect(elsewhere.body.type).not.toBe("execution");

    const second = await intent(ws, "Harbourside", { conversation_id: conversation });
    expect(second.body).toMatchObject({ type: "execution", action: { tool: "place_hold", arguments: { branch: "Harbourside" } } });
  });

  it("/intent: a new request named by its verb is planned on its own, not as the answer", async () => {
    const ws = await workspace();
    const first = await intent(ws, "Please renew loan LN-4821");
    const conversation = first.body.conversation_id as string;
    const second = await intent(ws, "Actually, cancel loan LN-4821", { conversation_id: conversation });
    expect(second.body).toMatchObject({ type: "execution", action: { tool: "cancel_loan", arguments: { loan_id: "LN-4821" } } });
    expect(await pendingOf(ws, conversation)).toBeNull();
  });

  it("/chat/completions: the same clarification resumed with a bare value becomes the tool call", async () => {
    const ws = await workspace();
    const tools = [{ type: "function", function: { name: "renew_loan", description: "Renew a book loan for more weeks", parameters: RENEW } }];
    const conversation = "conv_library_renewal";
    const first = await call(server(), "POST", CHAT, { key: ws.key, body: { messages: [{ role: "user", content: "Please renew loan LN-4821" }], tools, conversation_id: conversation } });
    expect(first.status, first.text).toBe(200);
    expect(first.body.choices[0].finish_reason).toBe("stop");
    expect(await pendingOf(ws, conversation)).toEqual({ tool: "renew_loan", fields: ["weeks"], arguments: { loan_id: "LN-4821" } });

    const second = await call(server(), "POST", CHAT, { key: ws.key, body: { messages: [{ role: "user", content: "4" }], tools, conversation_id: conversation } });
    expect(second.status, second.text).toBe(200);
    const calls = second.body.choices[0].message.tool_calls;
    expect(calls).toHaveLength(1);
    expect(calls[0].function.name).toBe("renew_loan");
    expect(JSON.parse(calls[0].function.arguments)).toEqual({ loan_id: "LN-4821", weeks: 4 });
    expect(await pendingOf(ws, conversation)).toBeNull();
  });

  it("one sentence with two requests is split the same way on /intent and on /chat/completions", async () => {
    const ws = await workspace();
    const sentence = "Cancel loan LN-1001 and cancel loan LN-1002";
    const decided = await intent(ws, sentence);
    expect(decided.body).toMatchObject({ type: "execution", status: "ready_to_execute" });
    expect(decided.body.execution.steps.map((s: { arguments: { loan_id: string } }) => s.arguments.loan_id)).toEqual(["LN-1001", "LN-1002"]);

    const tools = [{ type: "function", function: { name: "cancel_loan", description: "Cancel a book loan", parameters: CANCEL } }];
    const chat = await call(server(), "POST", CHAT, { key: ws.key, body: { messages: [{ role: "user", content: sentence }], tools } });
    expect(chat.status, chat.text).toBe(200);
    const calls = chat.body.choices[0].message.tool_calls.map((c: { function: { arguments: string } }) => JSON.parse(c.function.arguments).loan_id);
    expect(calls).toEqual(["LN-1001", "LN-1002"]);
  });
});
