// Chat completions with a configured upstream (SVC_MODEL_BASE_URL → a local fake OpenAI server), through the
// official `openai` client: streamed content passes through, fragmented tool-call arguments arrive assembled
// and only after governance, a server tool's result goes back to the upstream, and upstream failures are 503.
import OpenAI from "openai";
import { openAiClient, streamed, type Chunk } from "./helpers/openai-client.ts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { deadPort, startFakeOpenAi, type FakeOpenAi } from "./helpers/fake-openai.ts";
import { call, newWorkspace, startServer, type TestServer, type TestWorkspace } from "./helpers/server.ts";
import { SHOP_API_KEY, useShopApi } from "./helpers/shop-api.ts";
import { makeCertificate } from "./helpers/tls.ts";

const tls = makeCertificate();
const shop = useShopApi(tls);
let fake: FakeOpenAi;
let server: TestServer;
beforeAll(async () => {
  fake = await startFakeOpenAi();
  server = await startServer({ SVC_OUTBOUND_ALLOW_HOSTS: "127.0.0.1", SVC_OUTBOUND_CA_FILE: tls.certFile, SVC_MODEL_BASE_URL: `${fake.url}/v1`, SVC_MODEL_NAME: "fake-model", SVC_MODEL_TIMEOUT_MS: "400" });
});
afterAll(async () => {
  await server?.close();
  await fake?.close();
});

const clientOf = (key: string, url = server.url) => openAiClient(url, key);

async function withPolicy(ws: TestWorkspace, name: string, rule: string): Promise<void> {
  const created = await call(server, "POST", "/api/v1/svc/policies", { key: ws.key, body: { name, rule } });
  expect(created.status, created.text).toBe(201);
  const confirmed = await call(server, "POST", `/api/v1/svc/policies/${created.body.id}/confirm`, { key: ws.key, body: { version: 1 } });
  expect(confirmed.status, confirmed.text).toBe(200);
}

const FILES: OpenAI.Chat.Completions.ChatCompletionTool[] = [
  { type: "function", function: { name: "delete_file", description: "Delete a file from the user's disk", parameters: { type: "object", properties: { path: { type: "string" } }, required: ["path"] } } },
];



describe("chat completions through a configured upstream", () => {
  it("streamed content passes through, with memory injected and the service's tools sent", async () => {
    const ws = await newWorkspace(server);
    await call(server, "POST", "/api/v1/svc/memory", { key: ws.key, body: { type: "reference", content: { text: "The office wifi password rotates every Monday at 9am." } } });
    fake.script({ text: "It rotates every Monday at 9am." });
    const before = fake.requests.length;
    const { text, chunks, final } = await streamed(clientOf(ws.key), { model: "x", messages: [{ role: "user", content: "When does the office wifi password rotate?" }], tools: FILES });
    expect(text).toBe("It rotates every Monday at 9am.");
    expect(final.choices[0]!.finish_reason).toBe("stop");
    expect(chunks.filter((c) => c.choices[0]?.delta?.content).length).toBeGreaterThan(3);
    const sent = fake.requests[before]!.body;
    expect(sent.stream).toBe(true);
    expect(sent.model).toBe("fake-model");
    expect(sent.messages[0].role).toBe("system");
    expect(sent.messages[0].content).toMatch(/wifi password rotates/);
    expect(sent.tools.map((t: any) => t.function.name)).toContain("delete_file");
  });

  it("memory: false sends nothing from outside the request", async () => {
    const ws = await newWorkspace(server);
    await call(server, "POST", "/api/v1/svc/memory", { key: ws.key, body: { type: "reference", content: { text: "The office wifi password rotates every Monday at 9am." } } });
    fake.script({ text: "I don't know." });
    const before = fake.requests.length;
    const data = await clientOf(ws.key).chat.completions.create({ model: "x", messages: [{ role: "user", content: "When does the office wifi password rotate?" }], memory: false } as never);
    expect((data as OpenAI.Chat.Completions.ChatCompletion).choices[0]!.message.content).toBe("I don't know.");
    expect(fake.requests[before]!.body.messages).toEqual([{ role: "user", content: "When does the office wifi password rotate?" }]);
  });

  it("fragmented tool-call arguments arrive assembled, after governance", async () => {
    const ws = await newWorkspace(server);
    fake.script({ tool: "delete_file", arguments: { path: "/tmp/report-2024-final.txt" } });
    const { final, chunks } = await streamed(clientOf(ws.key), { model: "x", messages: [{ role: "user", content: "Delete /tmp/report-2024-final.txt" }], tools: FILES });
    const deltas = chunks.filter((c) => c.choices[0]?.delta?.tool_calls);
    expect(deltas).toHaveLength(1);
    expect(deltas[0]!.choices[0]!.delta.tool_calls![0]!.function!.arguments).toBe(JSON.stringify({ path: "/tmp/report-2024-final.txt" }));
    expect(final.choices[0]!.finish_reason).toBe("tool_calls");
    expect(final.choices[0]!.message.tool_calls![0]!.id).toMatch(/^call_/);
  });

  it("a blocked call never appears in the stream; the content names the policy", async () => {
    const ws = await newWorkspace(server);
    await withPolicy(ws, "no deletions", "Block deleting files");
    fake.script({ tool: "delete_file", arguments: { path: "/etc/passwd" }, text: "Deleting it now." });
    const { final, chunks, last, text } = await streamed(clientOf(ws.key), { model: "x", messages: [{ role: "user", content: "Delete /etc/passwd" }], tools: FILES });
    expect(chunks.some((c) => c.choices[0]?.delta?.tool_calls)).toBe(false);
    expect(final.choices[0]!.finish_reason).toBe("stop");
    expect(text).toMatch(/^Deleting it now\.[\s\S]*no deletions/);
    expect(last!.gate).toBe("blocked");
  });

  it("non-streamed: a blocked call is named, not returned; the trace has every section and the rule that fired", async () => {
    const ws = await newWorkspace(server);
    await withPolicy(ws, "no deletions", "Block deleting files");
    fake.script({ tool: "delete_file", arguments: { path: "/etc/passwd" } });
    const { data, response } = await clientOf(ws.key).chat.completions.create({ model: "x", messages: [{ role: "user", content: "Delete /etc/passwd" }], tools: FILES }).withResponse();
    expect(response.headers.get("x-svc-gate")).toBe("blocked");
    expect(data.choices[0]!.message.tool_calls).toBeUndefined();
    expect(data.choices[0]!.message.content).toMatch(/no deletions/);
    const trace = (data as any).intelligence;
    expect(trace).toMatchObject({
      version: "1.0",
      summary: expect.stringMatching(/Blocked delete_file by policy "no deletions"/),
      capability: { total_available: 1, healthy_count: 1, active_integrations: [] },
      reasoning: { capability_matches: 1, evidence: expect.arrayContaining([expect.stringMatching(/proposed delete_file/)]) },
      memory: { healthy: true, knowledge_queried: 0 },
      governance: { active: true, decision: "blocked", evaluated: true, rules_fired: [expect.objectContaining({ name: "no deletions", tool: "delete_file" })] },
      humility: { gaps_detected: 0, blocking: 0 },
      process: { components: { memory: true, governance: true, tools: true } },
      next_action: { type: "none" },
      field_stability: { stable: ["summary", "capability.total_available", "governance.decision"] },
    });
    expect(trace.stages.map((s: { name: string }) => s.name)).toEqual(["memory_lookup", "plan", "governance_eval"]);
    expect(Date.parse(trace.process.started_at)).not.toBeNaN();
  });

  it("a plain model answer carries the full trace, with the memory items it was given", async () => {
    const ws = await newWorkspace(server);
    const item = await call(server, "POST", "/api/v1/svc/memory", { key: ws.key, body: { type: "reference", content: { text: "Parking at the riverside office costs 4 EUR a day." } } });
    fake.script({ text: "4 EUR a day." });
    const data = (await clientOf(ws.key).chat.completions.create({ model: "x", messages: [{ role: "user", content: "How much is parking at the riverside office?" }] })) as any;
    expect(data.intelligence).toMatchObject({
      summary: "Answered by the model fake-model with 1 memory item(s).",
      memory: { healthy: true, knowledge_queried: 1, items_used: [item.body.id] },
      governance: { decision: "approved", evaluated: false, rules_fired: [] },
      next_action: { type: "none" },
    });
  });

  it("a server tool call runs and the upstream gets its result for the final words", async () => {
    const ws = await newWorkspace(server);
    const credential = await call(server, "POST", "/api/v1/svc/credentials", { key: ws.key, body: { provider: "shop", name: "shop", key_data: { api_key: SHOP_API_KEY } } });
    const imported = await call(server, "POST", "/api/v1/svc/connections/openapi", { key: ws.key, body: { name: "shop", spec_url: `${shop().url}/openapi.json`, credential_id: credential.body.id } });
    expect(imported.status, imported.text).toBe(201);
    const refunds = () => shop().requests.filter((r) => r.path === "/api/refunds").length;
    const before = refunds();
    const seen = fake.requests.length;
    fake.script((request) => (request.body.messages.some((m: any) => m.role === "tool") ? { text: "The refund of 12.50 for A-77 went through." } : { tool: "refund_order", arguments: { order_id: "A-77", amount: 12.5 } }));
    const { text } = await streamed(clientOf(ws.key), { model: "x", messages: [{ role: "user", content: "Refund order A-77 for $12.50" }] });
    expect(text).toBe("The refund of 12.50 for A-77 went through.");
    expect(refunds()).toBe(before + 1);
    const second = fake.requests[seen + 1]!.body.messages;
    expect(second.at(-2).tool_calls[0].function.name).toBe("refund_order");
    expect(second.at(-1).role).toBe("tool");
  });

  it("an unreachable upstream is 503 routing_unavailable with retry advice", async () => {
    const port = await deadPort();
    const dead = await startServer({ SVC_MODEL_BASE_URL: `http://127.0.0.1:${port}/v1` });
    try {
      const ws = await newWorkspace(dead);
      const error = await clientOf(ws.key, dead.url).chat.completions.create({ model: "x", messages: [{ role: "user", content: "Hello" }] }).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(OpenAI.InternalServerError);
      const e = error as InstanceType<typeof OpenAI.InternalServerError>;
      expect(e.status).toBe(503);
      expect((e.error as any).code).toBe("routing_unavailable");
      expect((e.error as any).retry_after).toBeGreaterThan(0);
      const streamedError = await clientOf(ws.key, dead.url).chat.completions.create({ model: "x", messages: [{ role: "user", content: "Hello" }], stream: true }).catch((e2: unknown) => e2);
      expect((streamedError as { status?: number }).status).toBe(503);
    } finally {
      await dead.close();
    }
  });

  it("SVC_MODEL_FALLBACK=embedded: an unreachable model gives way to the embedded planner, streamed or not", async () => {
    const port = await deadPort();
    const dead = await startServer({ SVC_MODEL_BASE_URL: `http://127.0.0.1:${port}/v1`, SVC_MODEL_FALLBACK: "embedded" });
    try {
      const ws = await newWorkspace(dead);
      await call(dead, "POST", "/api/v1/svc/memory", { key: ws.key, body: { type: "reference", content: { text: "The office wifi password rotates every Monday at 9am." } } });
      const ask = { model: "x", messages: [{ role: "user" as const, content: "When does the office wifi password rotate?" }] };
      const data = (await clientOf(ws.key, dead.url).chat.completions.create(ask)) as any;
      expect(data.choices[0].message.content).toMatch(/Monday at 9am/);
      expect(data.intelligence.reasoning.evidence).toEqual(expect.arrayContaining([expect.stringMatching(/model provider unavailable, embedded planner used/)]));
      const { text } = await streamed(clientOf(ws.key, dead.url), ask);
      expect(text).toMatch(/Monday at 9am/);
      // A client tool the embedded planner picks comes back governed, as it would from the model.
      const tool = (await clientOf(ws.key, dead.url).chat.completions.create({ model: "x", messages: [{ role: "user", content: "Delete the file /tmp/report.txt" }], tools: [{ type: "function", function: { name: "delete_file", description: "Delete a file from the user's disk", parameters: { type: "object", properties: { path: { type: "string", description: "Path of the file" } }, required: ["path"] } } }] })) as any;
      expect(tool.choices[0].finish_reason, JSON.stringify(tool.choices[0].message)).toBe("tool_calls");
      expect(JSON.parse(tool.choices[0].message.tool_calls[0].function.arguments)).toEqual({ path: "/tmp/report.txt" });
    } finally {
      await dead.close();
    }
  });

  it("an upstream 5xx is 503; a stall past the timeout is 503", async () => {
    const ws = await newWorkspace(server);
    fake.script({ status: 500 });
    const failed = await clientOf(ws.key).chat.completions.create({ model: "x", messages: [{ role: "user", content: "Hello" }] }).catch((e: unknown) => e);
    expect((failed as { status?: number }).status).toBe(503);
    fake.script({ hang: true });
    const stalled = await clientOf(ws.key).chat.completions.create({ model: "x", messages: [{ role: "user", content: "Hello" }] }).catch((e: unknown) => e);
    expect((stalled as { status?: number }).status).toBe(503);
    expect(((stalled as { error?: any }).error).code).toBe("routing_unavailable");
  });

  it("a refused request, a reply that is not JSON and one too large are 503 each; the next call still works", async () => {
    const ws = await newWorkspace(server);
    const ask = () => call(server, "POST", "/api/v1/svc/chat/completions", { key: ws.key, body: { model: "x", messages: [{ role: "user", content: "Hello" }] } });
    fake.script({ status: 401, body: '{"error":{"message":"bad key"}}' });
    const refused = await ask();
    expect(refused.status).toBe(503);
    expect(refused.body.error.code).toBe("routing_unavailable");
    expect(refused.body.error.message).toContain("HTTP 401");
    // A wrong key or model is not cured by waiting: no retry advice.
    expect(refused.body.error.retry_after).toBeUndefined();
    fake.script({ raw: "<html>gateway</html>" });
    const garbled = await ask();
    expect(garbled.status).toBe(503);
    expect(garbled.body.error.message).toContain("not JSON");
    fake.script({ raw: `{"pad":"${"x".repeat(4 * 1024 * 1024)}"}` });
    const huge = await ask();
    expect(huge.status).toBe(503);
    expect(huge.body.error.message).toContain("too large");
    fake.script({ text: "Back to normal." });
    const fine = await ask();
    expect(fine.status).toBe(200);
    expect(fine.body.choices[0].message.content).toBe("Back to normal.");
  });

  it("a stall mid-stream ends with an error chunk after the content already sent", async () => {
    const ws = await newWorkspace(server);
    fake.script({ text: "one two three four five", stallAfter: 3 });
    const chunks: Chunk[] = [];
    const error = await (async () => {
      const stream = await clientOf(ws.key).chat.completions.create({ model: "x", messages: [{ role: "user", content: "Count" }], stream: true });
      for await (const chunk of stream) chunks.push(chunk as Chunk);
    })().catch((e: unknown) => e);
    expect(chunks.map((c) => c.choices[0]?.delta?.content ?? "").join("")).toBe("one two ");
    expect(error).toBeInstanceOf(OpenAI.APIError);
    expect(String((error as Error).message)).toMatch(/nothing within 400 ms|routing/);
  });
});
