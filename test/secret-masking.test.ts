// A value a user types that equals one of the workspace's stored secrets is kept as "[redacted]" in every
// record of the request: the intent record (request and response), the chat record, the conversation. The
// secret here has no well-known format, so only masking by value can catch it.
import { sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { isSecretKey, redactAction } from "../src/modules/escalations/service.ts";
import { call, newWorkspace, query, useServer, type TestWorkspace } from "./helpers/server.ts";

const server = useServer();
const SECRET = "zq7Vx2-Lm9Pw4-Rt8Ky3";

async function withCredential(ws: TestWorkspace, keyData: Record<string, unknown>): Promise<void> {
  const created = await call(server(), "POST", "/api/v1/svc/credentials", { key: ws.key, body: { provider: "warehouse", name: "wh", key_data: keyData } });
  expect(created.status, created.text).toBe(201);
}

const stored = async (ws: TestWorkspace, id: string) => (await query(server(), sql`select request, response from intents where workspace_id = ${ws.id} and id = ${id}`))[0];
const conversation = async (ws: TestWorkspace, id: string) => (await query(server(), sql`select state from conversations where workspace_id = ${ws.id} and id = ${id}`))[0];

describe("secrets masked by value in stored records", () => {
  it("an intent request carrying a stored credential's value is recorded masked (request, response, conversation)", async () => {
    const ws = await newWorkspace(server());
    await withCredential(ws, { api_key: SECRET, username: "warehouse-operator" });
    const reply = await call(server(), "POST", "/api/v1/svc/intent", {
      key: ws.key,
      body: { messages: [{ role: "user", content: `please use ${SECRET} to sync the warehouse for warehouse-operator` }], conversation_id: "conv_masking1", context: { note: `key ${SECRET}` } },
    });
    expect(reply.status, reply.text).toBe(200);
    const record = await call(server(), "GET", `/api/v1/svc/intelligence/${reply.body.id}`, { key: ws.key });
    expect(record.status, record.text).toBe(200);
    expect(record.text).not.toContain(SECRET);

    const row = await stored(ws, reply.body.id);
    expect(JSON.stringify(row)).not.toContain(SECRET);
    expect(row.request.messages[0].content).toBe("please use [redacted] to sync the warehouse for warehouse-operator");
    expect(row.request.context).toEqual({ note: "key [redacted]" });
    const state = await conversation(ws, "conv_masking1");
    expect(JSON.stringify(state)).not.toContain(SECRET);
    expect(JSON.stringify(state)).toContain("[redacted]");
  });

  it("a chat turn carrying it is recorded masked; a credential created later is masked from then on", async () => {
    const ws = await newWorkspace(server());
    const later = "Kp4-Late-Value-77QzW";
    // Before the credential exists the value is nobody's secret.
    const before = await call(server(), "POST", "/api/v1/svc/chat/completions", { key: ws.key, body: { model: "m", messages: [{ role: "user", content: `remember ${later}` }] } });
    expect(before.status, before.text).toBe(200);
    await withCredential(ws, { token: SECRET });
    await withCredential(ws, { token: later });
    const turn = await call(server(), "POST", "/api/v1/svc/chat/completions", {
      key: ws.key,
      body: { model: "m", conversation_id: "conv_masking2", messages: [{ role: "user", content: `my token is ${SECRET} and ${later}; what can you do?` }] },
    });
    expect(turn.status, turn.text).toBe(200);
    const record = await call(server(), "GET", `/api/v1/svc/intelligence/${turn.body.id}`, { key: ws.key });
    expect(record.status, record.text).toBe(200);
    const row = await stored(ws, turn.body.id);
    expect(JSON.stringify(row)).not.toContain(SECRET);
    expect(JSON.stringify(row)).not.toContain(later);
    expect(row.request.messages.at(-1).content).toBe("my token is [redacted] and [redacted]; what can you do?");
    expect(row.request.chat.messages.at(-1).content).toBe("my token is [redacted] and [redacted]; what can you do?");
    expect(JSON.stringify(await conversation(ws, "conv_masking2"))).not.toContain(SECRET);
    // The earlier record is what was stored then.
    expect((await stored(ws, before.body.id)).request.messages[0].content).toBe(`remember ${later}`);
  });

  it("another workspace's secrets are not its own: nothing of them is masked there", async () => {
    const owner = await newWorkspace(server());
    await withCredential(owner, { api_key: SECRET });
    const other = await newWorkspace(server());
    const reply = await call(server(), "POST", "/api/v1/svc/intent", { key: other.key, body: { messages: [{ role: "user", content: `what is ${SECRET}?` }] } });
    expect(reply.status, reply.text).toBe(200);
    expect((await stored(other, reply.body.id)).request.messages[0].content).toBe(`what is ${SECRET}?`);
  });
});

describe("argument keys that name a secret", () => {
  // Keys are read as words in any casing, so a fragment inside an ordinary word ("pass" in a lift pass id,
  // "token" in a model's token limit) withholds nothing, and a secret's name in any layout is withheld.
  const secret = ["password", "db_password", "dbPassword", "DB-PASSWORD", "passwd", "pass", "api_key", "apiKey", "API-Key", "apikey", "client_secret", "clientSecret", "auth_token", "authToken", "access_token", "refresh-token", "private_key", "privateKey", "Authorization", "session_cookie", "aws_secret_access_key", "signingKey", "credentials"];
  const ordinary = ["pass_id", "passId", "pass_type", "boarding_pass", "passenger_count", "bypass_valve", "compass_heading", "max_tokens", "tokens_used", "key_account", "keyword", "monkey_id", "secretary_name", "consent_banner_text"];
  it.each(secret)("%s is withheld", (key) => {
    expect(isSecretKey(key)).toBe(true);
    expect(redactAction({ [key]: "value-1234" })).toEqual({ [key]: "[redacted]" });
  });
  it.each(ordinary)("%s is shown", (key) => {
    expect(isSecretKey(key)).toBe(false);
    expect(redactAction({ nested: [{ [key]: "PAS-1234" }] })).toEqual({ nested: [{ [key]: "PAS-1234" }] });
  });
});
