// Questions are answered from an in-process index of the workspace's memory (src/modules/memory/recall.ts):
// these tests prove over HTTP that it is never stale, for writes through the same process (applied to the
// index at once) and through another app on the same database (announced by NOTIFY, dropped, loaded again).
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openDb, type Database } from "../src/db/index.ts";
import { call, newWorkspace, onPostgres, sharedDatabase, startServer, useServer, type TestServer, type TestWorkspace } from "./helpers/server.ts";

const INTENT = "/api/v1/svc/intent";
const MEMORY = "/api/v1/svc/memory";

const ask = async (server: TestServer, ws: TestWorkspace, question: string) => {
  const reply = await call(server, "POST", INTENT, { key: ws.key, body: { messages: [{ role: "user", content: question }] } });
  expect(reply.status, reply.text).toBe(200);
  expect(reply.body).toMatchObject({ type: "direct", status: "answered" });
  return reply.body as { message: { content: string; metadata: { memory_ids?: string[] } } };
};

async function remember(server: TestServer, ws: TestWorkspace, text: string, extra: Record<string, unknown> = {}): Promise<string> {
  const reply = await call(server, "POST", MEMORY, { key: ws.key, body: { type: "reference", content: { text }, ...extra } });
  expect(reply.status, reply.text).toBe(201);
  return reply.body.id;
}

/** Polls until `check` holds (another process's change arrives by notification), failing after `withinMs`. */
async function until(check: () => Promise<boolean>, withinMs = 5_000): Promise<void> {
  const started = Date.now();
  while (!(await check())) {
    if (Date.now() - started > withinMs) throw new Error(`not seen within ${withinMs} ms`);
    await new Promise((r) => setTimeout(r, 25));
  }
}

const QUESTION = "Where do visitors park at the riverside office?";

describe("intent answers from memory as it is now", () => {
  const server = useServer();

  it("answers from an item created after the first question, reflects its update, and forgets it when deleted", async () => {
    const ws = await newWorkspace(server());
    await remember(server(), ws, "The riverside office opens at 08:00 on weekdays.");
    // The first question loads the workspace's index; everything after it changes the index in place.
    expect((await ask(server(), ws, QUESTION)).message.content).toMatch(/don't know/i);

    const id = await remember(server(), ws, "Visitors park in the riverside office garage, level 2; the gate code is at reception.");
    const answered = await ask(server(), ws, QUESTION);
    expect(answered.message.content).toContain("level 2");
    expect(answered.message.metadata.memory_ids).toEqual([id]);

    const updated = await call(server(), "PATCH", `${MEMORY}/${id}`, { key: ws.key, body: { content: { text: "Visitors park in the riverside office garage, level 4, since the works." } } });
    expect(updated.status, updated.text).toBe(200);
    const after = await ask(server(), ws, QUESTION);
    expect(after.message.content).toContain("level 4");
    expect(after.message.content).not.toContain("level 2");

    expect((await call(server(), "DELETE", `${MEMORY}/${id}`, { key: ws.key })).status).toBe(200);
    expect((await ask(server(), ws, QUESTION)).message.content).toMatch(/don't know/i);
  });

  it("reads a misspelt question in the workspace's own words, and keeps workspaces apart", async () => {
    const ws = await newWorkspace(server());
    const other = await newWorkspace(server());
    await remember(server(), ws, "Expense reimbursements are paid with the monthly payroll.");
    await remember(server(), other, "Expense reimbursements are paid every Friday by bank transfer.");
    const reply = await ask(server(), ws, "When are expense reimbursments paid?");
    expect(reply.message.content).toContain("monthly payroll");
    expect((await ask(server(), other, "When are expense reimbursements paid?")).message.content).toContain("Friday");
  });

  it("finds an item by its tags, and follows a change of tags", async () => {
    const ws = await newWorkspace(server());
    const id = await remember(server(), ws, "Ask Dana in finance before signing anything above 10k.", { tags: ["contracts"] });
    expect((await ask(server(), ws, "Who handles contracts?")).message.metadata.memory_ids).toEqual([id]);
    await call(server(), "PATCH", `${MEMORY}/${id}`, { key: ws.key, body: { tags: ["purchasing"] } });
    expect((await ask(server(), ws, "Who handles contracts?")).message.content).toMatch(/don't know/i);
  });
});

// Two apps on one PostgreSQL, as two processes behind a load balancer: the second has its own pool and
// LISTEN connection, as another process would.
describe.skipIf(!onPostgres)("two processes on one PostgreSQL", () => {
  let a: TestServer;
  let b: TestServer;
  let second: Database | undefined;
  beforeAll(async () => {
    a = await startServer();
    second = await openDb({ databaseUrl: process.env.DATABASE_URL, dataDir: ":memory:" });
    b = await startServer({}, { database: second });
  });
  afterAll(async () => {
    await b?.close();
    await a?.close();
    await second?.close();
  });

  it("a write through one is in the other's next answers once its notification arrives", async () => {
    const ws = await newWorkspace(a);
    await remember(a, ws, "The riverside office opens at 08:00 on weekdays.");
    // Both hold the workspace's index before the writes.
    expect((await ask(a, ws, QUESTION)).message.content).toMatch(/don't know/i);
    expect((await ask(b, ws, QUESTION)).message.content).toMatch(/don't know/i);

    const id = await remember(a, ws, "Visitors park in the riverside office garage, level 2.");
    await until(async () => (await ask(b, ws, QUESTION)).message.content.includes("level 2"));

    expect((await call(b, "PATCH", `${MEMORY}/${id}`, { key: ws.key, body: { content: { text: "Visitors park in the riverside office garage, level 4." } } })).status).toBe(200);
    // The writer's own index is current at once; the other's after the notification.
    expect((await ask(b, ws, QUESTION)).message.content).toContain("level 4");
    await until(async () => (await ask(a, ws, QUESTION)).message.content.includes("level 4"));

    expect((await call(a, "DELETE", `${MEMORY}/${id}`, { key: ws.key })).status).toBe(200);
    await until(async () => /don't know/i.test((await ask(b, ws, QUESTION)).message.content));
  });
});

// The embedded database cannot be opened twice, so two apps share its handle; their notifications still go
// through Postgres's NOTIFY, which covers the same path on the default test run.
describe("two apps on one embedded database", () => {
  let a: TestServer;
  let b: TestServer;
  beforeAll(async () => {
    if (onPostgres) return;
    const database = await sharedDatabase();
    a = await startServer({}, { database });
    b = await startServer({}, { database });
  });
  afterAll(async () => {
    await b?.close();
    await a?.close();
  });

  it.skipIf(onPostgres)("hear each other's writes through the database's notifications", async () => {
    const ws = await newWorkspace(a);
    await remember(a, ws, "The riverside office opens at 08:00 on weekdays.");
    expect((await ask(b, ws, QUESTION)).message.content).toMatch(/don't know/i);
    const id = await remember(a, ws, "Visitors park in the riverside office garage, level 2.");
    await until(async () => (await ask(b, ws, QUESTION)).message.content.includes("level 2"));
    expect((await call(a, "DELETE", `${MEMORY}/${id}`, { key: ws.key })).status).toBe(200);
    await until(async () => /don't know/i.test((await ask(b, ws, QUESTION)).message.content));
  });
});
