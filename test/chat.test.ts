// OpenAI-compatible chat completions, through the official `openai` client: plain and streamed answers,
// client tools (round trip), server tools run against a real local HTTPS OpenAPI service, the yes/no
// confirmation flow, blocked calls, the same decisions streamed, and errors as the client's typed errors.
import OpenAI from "openai";
import { openAiClient, streamed } from "./helpers/openai-client.ts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sql } from "drizzle-orm";
import { ADMIN_TOKEN, call, newWorkspace, query, startServer, type TestServer, type TestWorkspace } from "./helpers/server.ts";
import { SHOP_API_KEY, useShopApi } from "./helpers/shop-api.ts";
import { makeCertificate } from "./helpers/tls.ts";

const tls = makeCertificate();
const shop = useShopApi(tls);
let server: TestServer;
beforeAll(async () => {
  server = await startServer({ SVC_OUTBOUND_ALLOW_HOSTS: "127.0.0.1", SVC_OUTBOUND_CA_FILE: tls.certFile });
});
afterAll(async () => {
  await server?.close();
});

const clientOf = (key: string, headers: Record<string, string> = {}) => openAiClient(server.url, key, headers);

async function withPolicy(ws: TestWorkspace, name: string, rule: string): Promise<void> {
  const created = await call(server, "POST", "/api/v1/svc/policies", { key: ws.key, body: { name, rule } });
  expect(created.status, created.text).toBe(201);
  const confirmed = await call(server, "POST", `/api/v1/svc/policies/${created.body.id}/confirm`, { key: ws.key, body: { version: 1 } });
  expect(confirmed.status, confirmed.text).toBe(200);
}

async function shopWorkspace(policy?: [string, string]): Promise<TestWorkspace> {
  const ws = await newWorkspace(server);
  const credential = await call(server, "POST", "/api/v1/svc/credentials", { key: ws.key, body: { provider: "shop", name: "shop", key_data: { api_key: SHOP_API_KEY } } });
  const imported = await call(server, "POST", "/api/v1/svc/connections/openapi", { key: ws.key, body: { name: "shop", spec_url: `${shop().url}/openapi.json`, credential_id: credential.body.id } });
  expect(imported.status, imported.text).toBe(201);
  if (policy) await withPolicy(ws, ...policy);
  return ws;
}

const refundsSent = () => shop().requests.filter((r) => r.path === "/api/refunds").map((r) => JSON.parse(r.body));

const FILES: OpenAI.Chat.Completions.ChatCompletionTool[] = [
  {
    type: "function",
    function: {
      name: "delete_file",
      description: "Delete a file from the user's disk",
      parameters: { type: "object", properties: { path: { type: "string", description: "Path of the file" } }, required: ["path"] },
    },
  },
];
const INVOICES: OpenAI.Chat.Completions.ChatCompletionTool[] = [
  {
    type: "function",
    function: {
      name: "send_invoice",
      description: "Send an invoice to its customer",
      parameters: { type: "object", properties: { invoice_id: { type: "string", pattern: "^INV-[0-9]+$", description: "The invoice id" } }, required: ["invoice_id"], additionalProperties: false },
    },
  },
];



describe("chat completions: answers", () => {
  it("a plain answer, from memory, as chat.completion with usage, trace and the gate", async () => {
    const ws = await newWorkspace(server);
    await call(server, "POST", "/api/v1/svc/memory", { key: ws.key, body: { type: "reference", content: { text: "The office wifi password rotates every Monday at 9am." } } });
    const client = clientOf(ws.key);
    const { data, response } = await client.chat.completions.create({ model: "anything", messages: [{ role: "user", content: "When does the office wifi password rotate?" }], temperature: 0.3, unknown_field: { x: 1 } } as never).withResponse();
    const completion = data as OpenAI.Chat.Completions.ChatCompletion & Record<string, any>;
    expect(response.headers.get("x-svc-gate")).toBe("ok");
    expect(completion).toMatchObject({ object: "chat.completion", model: "anything", choices: [{ index: 0, finish_reason: "stop", message: { role: "assistant" } }] });
    expect(completion.choices[0]!.message.content).toMatch(/Monday/);
    expect(completion.id).toMatch(/^int_/);
    expect(completion.conversation_id).toMatch(/^conv_/);
    expect(completion.trace_id).toBe(response.headers.get("x-svc-trace-id"));
    expect(completion.intelligence.governance).toBeDefined();
    expect(Number.isInteger(completion.created)).toBe(true);
    const usage = completion.usage!;
    expect(usage.prompt_tokens).toBeGreaterThan(5);
    expect(usage.completion_tokens).toBeGreaterThan(3);
    expect(usage.total_tokens).toBe(usage.prompt_tokens + usage.completion_tokens);

    // memory: false uses nothing from outside the request.
    const without = (await client.chat.completions.create({ model: "m", messages: [{ role: "user", content: "When does the office wifi password rotate?" }], memory: false } as never)) as OpenAI.Chat.Completions.ChatCompletion;
    expect(without.choices[0]!.message.content).not.toMatch(/Monday/);

    // The record is written behind the answer, yet a reader finds it at once (by id and by trace id).
    const byId = await call(server, "GET", `/api/v1/svc/intelligence/${completion.id}`, { key: ws.key });
    expect(byId.status, byId.text).toBe(200);
    expect(byId.body).toMatchObject({ id: completion.id, trace_id: completion.trace_id, type: "chat", request_path: "/api/v1/svc/chat/completions", meta: { governance: completion.intelligence.governance } });
    const listed = await call(server, "GET", "/api/v1/svc/intelligence?limit=10", { key: ws.key });
    expect(listed.body.traces.map((r: { id: string }) => r.id)).toEqual(expect.arrayContaining([completion.id, without.id]));
  });

  it("multimodal parts are accepted (text read) and max_tokens cuts with finish_reason length", async () => {
    const ws = await newWorkspace(server);
    const client = clientOf(ws.key);
    const completion = await client.chat.completions.create({
      model: "m",
      max_tokens: 2,
      messages: [
        { role: "system", content: "You are terse." },
        { role: "user", content: [{ type: "text", text: "What is the refund window?" }, { type: "image_url", image_url: { url: "data:image/png;base64,iVBORw0KGgo=" } }] },
      ],
    });
    expect(completion.choices[0]!.finish_reason).toBe("length");
    expect(completion.usage!.completion_tokens).toBeLessThanOrEqual(2);
  });

  it("a streamed answer: OpenAI chunks read by the client's stream helper, usage when asked", async () => {
    const ws = await newWorkspace(server);
    await call(server, "POST", "/api/v1/svc/memory", { key: ws.key, body: { type: "reference", content: { text: "The office wifi password rotates every Monday at 9am." } } });
    const client = clientOf(ws.key);
    const { final, chunks, text } = await streamed(client, { model: "m", messages: [{ role: "user", content: "When does the office wifi password rotate?" }], stream_options: { include_usage: true } });
    expect(final.choices[0]!.message.content).toMatch(/Monday/);
    expect(text).toBe(final.choices[0]!.message.content);
    expect(chunks[0]!.object).toBe("chat.completion.chunk");
    expect(chunks[0]!.choices[0]!.delta.role).toBe("assistant");
    expect(chunks.filter((c) => c.choices[0]?.delta.content).length).toBeGreaterThan(1);
    expect(final.choices[0]!.finish_reason).toBe("stop");
    expect(chunks.at(-1)!.usage!.total_tokens).toBeGreaterThan(0);
    expect(chunks.at(-1)!.choices).toEqual([]);
  });

  it("the raw stream ends with [DONE] and carries the gate header", async () => {
    const ws = await newWorkspace(server);
    const reply = await fetch(`${server.url}/api/v1/svc/chat/completions`, { method: "POST", headers: { authorization: `Bearer ${ws.key}`, "content-type": "application/json" }, body: JSON.stringify({ messages: [{ role: "user", content: "hello" }], stream: true }) });
    expect(reply.headers.get("content-type")).toMatch(/text\/event-stream/);
    expect(reply.headers.get("x-svc-gate")).toBe("ok");
    const text = await reply.text();
    expect(text.trimEnd().endsWith("data: [DONE]")).toBe(true);
    expect(text).not.toMatch(/^event:/m);
  });
});

describe("chat completions: governed tool calls", () => {
  it("a client tool round trip: tool_calls returned, then the tool message gives the final answer", async () => {
    const ws = await newWorkspace(server);
    const client = clientOf(ws.key);
    const messages: OpenAI.Chat.Completions.ChatCompletionMessageParam[] = [{ role: "user", content: "Send invoice INV-2041 to the customer" }];
    const first = await client.chat.completions.create({ model: "m", messages, tools: INVOICES });
    expect(first.choices[0]!.finish_reason).toBe("tool_calls");
    const callMade = first.choices[0]!.message.tool_calls![0]! as OpenAI.Chat.Completions.ChatCompletionMessageFunctionToolCall;
    expect(callMade.id).toMatch(/^call_/);
    expect(callMade.function.name).toBe("send_invoice");
    expect(JSON.parse(callMade.function.arguments)).toEqual({ invoice_id: "INV-2041" });
    messages.push(first.choices[0]!.message, { role: "tool", tool_call_id: callMade.id, content: JSON.stringify({ sent: true, to: "ada@example.com" }) });
    const second = await client.chat.completions.create({ model: "m", messages, tools: INVOICES });
    expect(second.choices[0]!.finish_reason).toBe("stop");
    expect(second.choices[0]!.message.tool_calls).toBeUndefined();
    expect(second.choices[0]!.message.content).toMatch(/send_invoice returned: .*ada@example\.com/);
  });

  it("a missing required argument is asked for in words", async () => {
    const ws = await newWorkspace(server);
    const completion = await clientOf(ws.key).chat.completions.create({ model: "m", messages: [{ role: "user", content: "Delete the file please" }], tools: FILES });
    expect(completion.choices[0]!.finish_reason).toBe("stop");
    expect(completion.choices[0]!.message.tool_calls).toBeUndefined();
    expect(completion.choices[0]!.message.content).toMatch(/path|file/i);
  });

  it("a server tool runs on the server against the real service; the answer reports it", async () => {
    const ws = await shopWorkspace();
    const before = refundsSent().length;
    const { data, response } = await clientOf(ws.key).chat.completions.create({ model: "m", messages: [{ role: "user", content: "Refund order A-77 for $12.50" }] }).withResponse();
    expect(response.headers.get("x-svc-gate")).toBe("ok");
    expect(data.choices[0]!.finish_reason).toBe("stop");
    expect(data.choices[0]!.message.tool_calls).toBeUndefined();
    expect(data.choices[0]!.message.content).toMatch(/refund_order succeeded/);
    expect(refundsSent().slice(before)).toEqual([{ order_id: "A-77", amount: 12.5 }]);
  });

  it("approval asked, then granted with a yes: the server tool runs", async () => {
    const ws = await shopWorkspace(["refund approval", "Require approval for refunds over $100"]);
    const client = clientOf(ws.key);
    const before = refundsSent().length;
    const { data, response } = await client.chat.completions.create({ model: "m", messages: [{ role: "user", content: "Refund order A-31 for $250" }] }).withResponse();
    const asked = data as OpenAI.Chat.Completions.ChatCompletion & Record<string, any>;
    expect(response.headers.get("x-svc-gate")).toBe("escalate");
    expect(asked.choices[0]!.finish_reason).toBe("stop");
    expect(asked.choices[0]!.message.tool_calls).toBeUndefined();
    expect(asked.choices[0]!.message.content).toMatch(/yes to proceed or no to skip/);
    expect(asked.pending_actions).toEqual([{ tool: "refund_order", arguments: { order_id: "A-31", amount: 250 }, confirm_with: "yes", expires_at: expect.any(Number) }]);
    expect(refundsSent().length).toBe(before);
    expect(asked.intelligence.next_action).toEqual({ type: "confirm_execution", label: "Answer yes to run refund_order, or no to skip it" });
    const yes = (await client.chat.completions.create({ model: "m", messages: [{ role: "user", content: "Sure, go ahead!" }], conversation_id: asked.conversation_id } as never)) as OpenAI.Chat.Completions.ChatCompletion & Record<string, any>;
    expect(yes.choices[0]!.message.content).toMatch(/refund_order succeeded/);
    expect(refundsSent().slice(before)).toEqual([{ order_id: "A-31", amount: 250 }]);
    // The yes turn was decided outside the engine; its trace has every section all the same.
    expect(yes.intelligence).toMatchObject({
      version: "1.0",
      summary: "Ran refund_order on the server after the user's yes: succeeded.",
      capability: { total_available: expect.any(Number) },
      memory: { healthy: true },
      governance: { active: true, decision: "conditional", evaluated: true, rules_fired: [expect.objectContaining({ name: "refund approval" })] },
      humility: { gaps_detected: 0 },
      process: { components: { governance: true } },
      next_action: { type: "none" },
      field_stability: expect.any(Object),
    });
    expect(yes.intelligence.stages.map((s: { name: string }) => s.name)).toEqual(["governance_eval", "execution"]);
    // Answered once: a second yes does not run it again.
    await client.chat.completions.create({ model: "m", messages: [{ role: "user", content: "yes" }], conversation_id: asked.conversation_id } as never);
    expect(refundsSent().length).toBe(before + 1);
  });

  it("approval refused with a no: nothing runs", async () => {
    const ws = await shopWorkspace(["refund approval", "Require approval for refunds over $100"]);
    const client = clientOf(ws.key);
    const before = refundsSent().length;
    const asked = (await client.chat.completions.create({ model: "m", messages: [{ role: "user", content: "Refund order A-32 for $300" }] })) as OpenAI.Chat.Completions.ChatCompletion & Record<string, any>;
    expect(asked.pending_actions).toHaveLength(1);
    const no = (await client.chat.completions.create({ model: "m", messages: [{ role: "user", content: "nope" }], conversation_id: asked.conversation_id } as never)) as OpenAI.Chat.Completions.ChatCompletion;
    expect(no.choices[0]!.message.content).toMatch(/Skipped refund_order; nothing was run/);
    expect(refundsSent().length).toBe(before);
  });

  it("an approved client call after a yes comes back as a tool call", async () => {
    const ws = await newWorkspace(server);
    await withPolicy(ws, "file deletion", "Require approval for deleting files");
    const client = clientOf(ws.key);
    const asked = (await client.chat.completions.create({ model: "m", messages: [{ role: "user", content: "Delete the file /tmp/report.txt" }], tools: FILES })) as OpenAI.Chat.Completions.ChatCompletion & Record<string, any>;
    expect(asked.choices[0]!.message.tool_calls).toBeUndefined();
    expect(asked.pending_actions).toMatchObject([{ tool: "delete_file", confirm_with: "yes" }]);
    const yes = await client.chat.completions.create({ model: "m", messages: [{ role: "user", content: "ok" }], tools: FILES, conversation_id: asked.conversation_id } as never);
    const made = (yes as OpenAI.Chat.Completions.ChatCompletion).choices[0]!;
    expect(made.finish_reason).toBe("tool_calls");
    expect((made.message.tool_calls![0] as OpenAI.Chat.Completions.ChatCompletionMessageFunctionToolCall).function.name).toBe("delete_file");
  });

  it('tool_choice "required": a request that points to no tool is asked which one; one that does gets its call', async () => {
    const ws = await newWorkspace(server);
    const client = clientOf(ws.key);
    const { data, response } = await client.chat.completions.create({ model: "m", messages: [{ role: "user", content: "What is the refund window?" }], tools: [...FILES, ...INVOICES], tool_choice: "required" }).withResponse();
    expect(response.headers.get("x-svc-gate")).toBe("needs_input");
    expect(data.choices[0]!.finish_reason).toBe("stop");
    expect(data.choices[0]!.message.content).toMatch(/Which should I use: delete_file, send_invoice\?/);
    const made = await client.chat.completions.create({ model: "m", messages: [{ role: "user", content: "Send invoice INV-2201 to its customer" }], tools: [...FILES, ...INVOICES], tool_choice: "required" });
    expect(made.choices[0]!.finish_reason).toBe("tool_calls");
    expect((made.choices[0]!.message.tool_calls![0] as OpenAI.Chat.Completions.ChatCompletionMessageFunctionToolCall).function).toEqual({ name: "send_invoice", arguments: JSON.stringify({ invoice_id: "INV-2201" }) });
  });

  it("replaying a chat record decides it again as a dry run: a policy added since shows, nothing runs or is recorded", async () => {
    const ws = await shopWorkspace();
    const client = clientOf(ws.key);
    const turn = (await client.chat.completions.create({ model: "m", messages: [{ role: "system", content: "Be brief." }, { role: "user", content: "Delete the file /tmp/report.txt" }], tools: FILES })) as OpenAI.Chat.Completions.ChatCompletion & Record<string, any>;
    expect(turn.choices[0]!.finish_reason).toBe("tool_calls");
    const same = await call(server, "POST", `/api/v1/svc/intelligence/${turn.id}/replay`, { key: ws.key });
    expect(same.status, same.text).toBe(200);
    expect(same.body).toMatchObject({ type: "chat", original_gate: "ok", current_gate: "ok", changed: false, change_summary: "Same decision as recorded.", current: { tool_calls: ["delete_file"] } });

    await withPolicy(ws, "no deletions", "Block deleting files");
    const replayed = await call(server, "POST", `/api/v1/svc/intelligence/${turn.trace_id}/replay`, { key: ws.key });
    expect(replayed.body).toMatchObject({ original_gate: "ok", current_gate: "blocked", gate_changed: true, changed: true, original: { tool_calls: ["delete_file"] }, current: { tool_calls: [], gate: "blocked" } });
    expect(replayed.body.change_summary).toMatch(/gate ok → blocked; tool calls \[delete_file\] → \[\]/);

    // A server tool is not run by a replay, and a replay leaves no record.
    const before = refundsSent().length;
    const refund = (await client.chat.completions.create({ model: "m", messages: [{ role: "user", content: "Refund order A-78 for $12.50" }] })) as OpenAI.Chat.Completions.ChatCompletion & Record<string, any>;
    expect(refundsSent().length).toBe(before + 1);
    const records = async () => (await call(server, "GET", "/api/v1/svc/intelligence?limit=200", { key: ws.key })).body.total as number;
    const count = await records();
    const again = await call(server, "POST", `/api/v1/svc/intelligence/${refund.id}/replay`, { key: ws.key });
    expect(again.body).toMatchObject({ original_gate: "ok", current_gate: "ok", changed: false, current: { content: expect.stringMatching(/Would run refund_order/) } });
    expect(refundsSent().length).toBe(before + 1);
    expect(await records()).toBe(count);
  });

  it("replaying a yes turn decides again the action it answered, against today's policies", async () => {
    const ws = await shopWorkspace(["refund approval", "Require approval for refunds over $100"]);
    const client = clientOf(ws.key);
    const asked = (await client.chat.completions.create({ model: "m", messages: [{ role: "user", content: "Refund order A-61 for $250" }] })) as OpenAI.Chat.Completions.ChatCompletion & Record<string, any>;
    const before = refundsSent().length;
    const yes = (await client.chat.completions.create({ model: "m", messages: [{ role: "user", content: "yes" }], conversation_id: asked.conversation_id } as never)) as OpenAI.Chat.Completions.ChatCompletion & Record<string, any>;
    expect(refundsSent().length).toBe(before + 1);
    const replay = async () => (await call(server, "POST", `/api/v1/svc/intelligence/${yes.id}/replay`, { key: ws.key })).body;
    const same = await replay();
    expect(same).toMatchObject({ original_gate: "ok", current_gate: "ok", changed: false, current: { content: expect.stringMatching(/Would run refund_order with .*A-61/) } });
    expect(refundsSent().length).toBe(before + 1);

    await withPolicy(ws, "no refunds", "Block refunds");
    const now = await replay();
    expect(now).toMatchObject({ original_gate: "ok", current_gate: "blocked", gate_changed: true, changed: true, current: { content: expect.stringMatching(/no refunds/) } });
    expect(refundsSent().length).toBe(before + 1);
  });

  it("the record of a yes keeps the action it answered with secret values masked, whatever the field is called", async () => {
    const ws = await newWorkspace(server);
    await withPolicy(ws, "file deletion", "Require approval for deleting files");
    const client = clientOf(ws.key);
    const token = "ghp_" + "A1b2C3d4E5f6G7h8I9j0K1l2";
    const asked = (await client.chat.completions.create({ model: "m", messages: [{ role: "user", content: `Delete the file /tmp/${token}.txt` }], tools: FILES })) as OpenAI.Chat.Completions.ChatCompletion & Record<string, any>;
    expect(asked.pending_actions).toMatchObject([{ tool: "delete_file" }]);
    const yes = (await client.chat.completions.create({ model: "m", messages: [{ role: "user", content: "yes" }], tools: FILES, conversation_id: asked.conversation_id } as never)) as OpenAI.Chat.Completions.ChatCompletion & Record<string, any>;
    expect(yes.choices[0]!.finish_reason).toBe("tool_calls");
    await expect.poll(async () => (await call(server, "GET", `/api/v1/svc/intelligence/${yes.id}`, { key: ws.key })).status, { timeout: 2000 }).toBe(200);
    const [row] = await query(server, sql`select request from intents where id = ${yes.id}`);
    expect(row.request.chat.open_confirmation).toMatchObject({ tool: "delete_file", client: true, arguments: { path: expect.stringMatching(/^\/tmp\//) } });
    expect(JSON.stringify(row.request)).not.toContain(token);
  });

  it("several requests in one message become several governed calls; a blocked one is named, not returned", async () => {
    const ws = await newWorkspace(server);
    const client = clientOf(ws.key);
    const both = await client.chat.completions.create({ model: "m", messages: [{ role: "user", content: "Delete /tmp/a.txt and /tmp/b.txt" }], tools: FILES });
    expect(both.choices[0]!.finish_reason).toBe("tool_calls");
    expect(both.choices[0]!.message.tool_calls!.map((c) => (c as OpenAI.Chat.Completions.ChatCompletionMessageFunctionToolCall).function)).toEqual([
      { name: "delete_file", arguments: JSON.stringify({ path: "/tmp/a.txt" }) },
      { name: "delete_file", arguments: JSON.stringify({ path: "/tmp/b.txt" }) },
    ]);
    // Streamed: one whole delta per call, keyed by index.
    const { chunks } = await streamed(client, { model: "m", messages: [{ role: "user", content: "Delete /tmp/a.txt and /tmp/b.txt" }], tools: FILES });
    expect(chunks.flatMap((c) => c.choices[0]?.delta?.tool_calls ?? []).map((t) => [t.index, t.function?.arguments])).toEqual([
      [0, JSON.stringify({ path: "/tmp/a.txt" })],
      [1, JSON.stringify({ path: "/tmp/b.txt" })],
    ]);

    await withPolicy(ws, "no invoices", "Block sending invoices");
    const { data, response } = await client.chat.completions.create({ model: "m", messages: [{ role: "user", content: "Send invoice INV-1 and then delete the file /tmp/x.log" }], tools: [...FILES, ...INVOICES] }).withResponse();
    const mixed = data as OpenAI.Chat.Completions.ChatCompletion & Record<string, any>;
    expect(response.headers.get("x-svc-gate")).toBe("ok");
    expect(mixed.choices[0]!.message.tool_calls!.map((c) => (c as OpenAI.Chat.Completions.ChatCompletionMessageFunctionToolCall).function.name)).toEqual(["delete_file"]);
    expect(mixed.choices[0]!.message.content).toMatch(/send_invoice is blocked by policy "no invoices"/);
    expect(mixed.intelligence.governance).toMatchObject({ decision: "blocked", rules_fired: [expect.objectContaining({ name: "no invoices", tool: "send_invoice" })] });
    expect(mixed.intelligence.summary).toBe("2 requests in one message: 1 approved, 1 blocked.");
  });

  it("several requests with one needing approval: the others run, that one is asked after them and runs on a yes", async () => {
    const ws = await shopWorkspace(["refund approval", "Require approval for refunds over $100"]);
    const client = clientOf(ws.key);
    const before = refundsSent().length;
    const { data, response } = await client.chat.completions.create({ model: "m", messages: [{ role: "user", content: "Refund order A-41 for $20 and then refund order A-42 for $400" }] }).withResponse();
    const asked = data as OpenAI.Chat.Completions.ChatCompletion & Record<string, any>;
    expect(response.headers.get("x-svc-gate")).toBe("escalate");
    expect(asked.choices[0]!.finish_reason).toBe("stop");
    // The small refund ran; the large one waits, its question last.
    expect(refundsSent().slice(before)).toEqual([{ order_id: "A-41", amount: 20 }]);
    const content = asked.choices[0]!.message.content!;
    expect(content).toMatch(/refund_order succeeded/);
    expect(content).toMatch(/needs approval under .*Answer yes to proceed or no to skip\.$/s);
    expect(asked.pending_actions).toEqual([{ tool: "refund_order", arguments: { order_id: "A-42", amount: 400 }, confirm_with: "yes", expires_at: expect.any(Number) }]);
    expect(asked.intelligence.summary).toBe("2 requests in one message: 1 approved, 0 blocked, 1 waits for the user's yes or no (refund_order).");
    expect(asked.intelligence.next_action).toEqual({ type: "confirm_execution", label: "Answer yes to run refund_order, or no to skip it" });
    const yes = (await client.chat.completions.create({ model: "m", messages: [{ role: "user", content: "yes" }], conversation_id: asked.conversation_id } as never)) as OpenAI.Chat.Completions.ChatCompletion;
    expect(yes.choices[0]!.message.content).toMatch(/refund_order succeeded/);
    expect(refundsSent().slice(before)).toEqual([
      { order_id: "A-41", amount: 20 },
      { order_id: "A-42", amount: 400 },
    ]);

    // Streamed, the same decisions: the small refund runs, the large one is asked about.
    const { final, chunks } = await streamed(client, { model: "m", messages: [{ role: "user", content: "Refund order A-43 for $30; refund order A-44 for $500" }] });
    expect(final.choices[0]!.finish_reason).toBe("stop");
    expect(final.choices[0]!.message.content).toMatch(/refund_order succeeded[\s\S]*A-44[\s\S]*Answer yes to proceed or no to skip\.$/);
    expect(chunks.flatMap((c) => c.choices[0]?.delta?.tool_calls ?? [])).toEqual([]);
    expect(refundsSent().slice(before).map((r) => r.order_id)).toEqual(["A-41", "A-42", "A-43"]);
  });

  it("several requests with one needing approval and a client's call: the call comes back, the question stays open through its result", async () => {
    const ws = await newWorkspace(server);
    await withPolicy(ws, "file deletion", "Require approval for deleting files");
    const client = clientOf(ws.key);
    const { data, response } = await client.chat.completions.create({ model: "m", messages: [{ role: "user", content: "Send invoice INV-5 and then delete the file /tmp/x.log" }], tools: [...FILES, ...INVOICES] }).withResponse();
    const first = data as OpenAI.Chat.Completions.ChatCompletion & Record<string, any>;
    expect(response.headers.get("x-svc-gate")).toBe("escalate");
    expect(first.choices[0]!.finish_reason).toBe("tool_calls");
    const sent = first.choices[0]!.message.tool_calls! as OpenAI.Chat.Completions.ChatCompletionMessageFunctionToolCall[];
    expect(sent.map((c) => c.function)).toEqual([{ name: "send_invoice", arguments: JSON.stringify({ invoice_id: "INV-5" }) }]);
    expect(first.choices[0]!.message.content).toMatch(/delete_file .*needs approval under .*Answer yes to proceed or no to skip\.$/);
    expect(first.pending_actions).toMatchObject([{ tool: "delete_file", arguments: { path: "/tmp/x.log" } }]);
    // Streamed, the same: the question in the content, the call as one delta.
    const { final } = await streamed(client, { model: "m", messages: [{ role: "user", content: "Send invoice INV-6 and then delete the file /tmp/y.log" }], tools: [...FILES, ...INVOICES] });
    expect(final.choices[0]!.finish_reason).toBe("tool_calls");
    expect(final.choices[0]!.message.content).toMatch(/delete_file .*needs approval under .*Answer yes to proceed or no to skip\.$/);
    expect((final.choices[0]!.message.tool_calls as OpenAI.Chat.Completions.ChatCompletionMessageFunctionToolCall[]).map((c) => c.function.name)).toEqual(["send_invoice"]);

    // The client sends the invoice's result: reported, and the deletion asked about again.
    const history: OpenAI.Chat.Completions.ChatCompletionMessageParam[] = [
      { role: "user", content: "Send invoice INV-5 and then delete the file /tmp/x.log" },
      { role: "assistant", content: first.choices[0]!.message.content, tool_calls: sent },
      { role: "tool", tool_call_id: sent[0]!.id, content: "invoice INV-5 sent" },
    ];
    const reported = (await client.chat.completions.create({ model: "m", messages: history, tools: [...FILES, ...INVOICES], conversation_id: first.conversation_id } as never)) as OpenAI.Chat.Completions.ChatCompletion & Record<string, any>;
    expect(reported.choices[0]!.message.content).toMatch(/send_invoice returned: invoice INV-5 sent\ndelete_file .*still needs approval\. Answer yes to proceed or no to skip\.$/);
    expect(reported.pending_actions).toMatchObject([{ tool: "delete_file" }]);
    // Its replay asks again too: the open question is kept in the turn's record.
    const replayed = await call(server, "POST", `/api/v1/svc/intelligence/${reported.id}/replay`, { key: ws.key });
    expect(replayed.body).toMatchObject({ original_gate: "escalate", current_gate: "escalate", changed: false });

    const yes = (await client.chat.completions.create({ model: "m", messages: [{ role: "user", content: "yes" }], tools: FILES, conversation_id: first.conversation_id } as never)) as OpenAI.Chat.Completions.ChatCompletion;
    expect(yes.choices[0]!.finish_reason).toBe("tool_calls");
    expect((yes.choices[0]!.message.tool_calls![0] as OpenAI.Chat.Completions.ChatCompletionMessageFunctionToolCall).function).toEqual({ name: "delete_file", arguments: JSON.stringify({ path: "/tmp/x.log" }) });
  });

  it("a blocked call is never returned: the content names the policy, X-Svc-Gate blocked", async () => {
    const ws = await newWorkspace(server);
    await withPolicy(ws, "no deletions", "Block deleting files");
    const { data, response } = await clientOf(ws.key).chat.completions.create({ model: "m", messages: [{ role: "user", content: "Delete the file /tmp/report.txt" }], tools: FILES }).withResponse();
    expect(response.headers.get("x-svc-gate")).toBe("blocked");
    expect(data.choices[0]!.finish_reason).toBe("stop");
    expect(data.choices[0]!.message.tool_calls).toBeUndefined();
    expect(data.choices[0]!.message.content).toMatch(/no deletions/);
  });

  it("a blocked server call is never run", async () => {
    const ws = await shopWorkspace(["no big refunds", "Block refunds over $500"]);
    const before = refundsSent().length;
    const { data, response } = await clientOf(ws.key).chat.completions.create({ model: "m", messages: [{ role: "user", content: "Refund order A-90 for $900" }] }).withResponse();
    expect(response.headers.get("x-svc-gate")).toBe("blocked");
    expect(data.choices[0]!.message.content).toMatch(/no big refunds/);
    expect(refundsSent().length).toBe(before);
  });
});

describe("chat completions: the same decisions streamed", () => {
  it("approved client call: the whole tool call in one delta, finish_reason tool_calls", async () => {
    const ws = await newWorkspace(server);
    const { final, chunks } = await streamed(clientOf(ws.key), { model: "m", messages: [{ role: "user", content: "Send invoice INV-2041 to the customer" }], tools: INVOICES });
    expect(final.choices[0]!.finish_reason).toBe("tool_calls");
    const call0 = final.choices[0]!.message.tool_calls![0] as OpenAI.Chat.Completions.ChatCompletionMessageFunctionToolCall;
    expect(call0.function.name).toBe("send_invoice");
    expect(JSON.parse(call0.function.arguments)).toEqual({ invoice_id: "INV-2041" });
    const deltas = chunks.flatMap((c) => c.choices[0]?.delta.tool_calls ?? []);
    expect(deltas).toHaveLength(1);
    expect(deltas[0]).toMatchObject({ index: 0, id: call0.id, type: "function" });
  });

  it("blocked: no tool call streamed, the content names the policy, the gate in the final chunk", async () => {
    const ws = await newWorkspace(server);
    await withPolicy(ws, "no deletions", "Block deleting files");
    const { final, chunks, last } = await streamed(clientOf(ws.key), { model: "m", messages: [{ role: "user", content: "Delete the file /tmp/report.txt" }], tools: FILES });
    expect(chunks.some((c) => c.choices[0]?.delta.tool_calls)).toBe(false);
    expect(final.choices[0]!.message.content).toMatch(/no deletions/);
    expect(last!.gate).toBe("blocked");
  });

  it("needs approval: the confirmation streamed with pending_actions; a streamed yes runs the server tool", async () => {
    const ws = await shopWorkspace(["refund approval", "Require approval for refunds over $100"]);
    const client = clientOf(ws.key);
    const before = refundsSent().length;
    const conversation = `conv_stream_${Date.now()}`;
    const asked = await streamed(client, { model: "m", messages: [{ role: "user", content: "Refund order A-33 for $400" }], conversation_id: conversation });
    expect(asked.final.choices[0]!.message.content).toMatch(/yes to proceed or no to skip/);
    expect(asked.last!.gate).toBe("escalate");
    expect(asked.last!.pending_actions).toMatchObject([{ tool: "refund_order", confirm_with: "yes" }]);
    expect(refundsSent().length).toBe(before);
    const yes = await streamed(client, { model: "m", messages: [{ role: "user", content: "yes" }], conversation_id: conversation });
    expect(yes.final.choices[0]!.message.content).toMatch(/refund_order succeeded/);
    expect(refundsSent().slice(before)).toEqual([{ order_id: "A-33", amount: 400 }]);
  });
});

describe("chat completions: errors as the client's typed errors", () => {
  it("401 without a valid key", async () => {
    const error = await clientOf("sk_svc_not_a_real_key").chat.completions.create({ model: "m", messages: [{ role: "user", content: "hi" }] }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(OpenAI.AuthenticationError);
    expect((error as InstanceType<typeof OpenAI.AuthenticationError>).status).toBe(401);
  });

  it("422 tenant_required for the operator without a workspace header", async () => {
    const error = await clientOf(ADMIN_TOKEN).chat.completions.create({ model: "m", messages: [{ role: "user", content: "hi" }] }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(OpenAI.UnprocessableEntityError);
    expect((error as InstanceType<typeof OpenAI.APIError>).code).toBe("tenant_required");
  });

  it("403 blocked_by_policy when tool_choice forces a function policy blocks (streamed or not)", async () => {
    const ws = await newWorkspace(server);
    await withPolicy(ws, "no deletions", "Block deleting files");
    const client = clientOf(ws.key);
    const body = { model: "m", messages: [{ role: "user" as const, content: "Delete the file /tmp/report.txt" }], tools: FILES, tool_choice: { type: "function" as const, function: { name: "delete_file" } } };
    const error = await client.chat.completions.create(body).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(OpenAI.PermissionDeniedError);
    expect((error as InstanceType<typeof OpenAI.APIError>).code).toBe("blocked_by_policy");
    expect((error as InstanceType<typeof OpenAI.APIError>).headers?.get("x-svc-gate")).toBe("blocked");
    const streamedError = await client.chat.completions.create({ ...body, stream: true }).catch((e: unknown) => e);
    expect(streamedError).toBeInstanceOf(OpenAI.PermissionDeniedError);
  });

  it("400 invalid_request with the canonical body for a missing or empty messages array", async () => {
    const ws = await newWorkspace(server);
    for (const body of [{ model: "m" }, { model: "m", messages: [] }]) {
      const reply = await call(server, "POST", "/api/v1/svc/chat/completions", { key: ws.key, body });
      expect(reply.status).toBe(400);
      expect(reply.body.error).toMatchObject({ code: "invalid_request", type: expect.any(String), hint: expect.any(String), doc_url: expect.stringContaining("err-invalid_request") });
    }
    const error = await clientOf(ws.key).chat.completions.create({ model: "m", messages: [] }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(OpenAI.BadRequestError);
  });
});
