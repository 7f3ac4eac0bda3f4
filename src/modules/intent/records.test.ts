// The record writer against a real embedded database: records queued behind answers are all written, in
// batches per workspace; a batch the database refuses is retried and then dropped with an error naming its
// records, without holding back the other workspaces' records.
import { eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { FastifyBaseLogger } from "fastify";
import { openDb, type Database } from "../../db/index.ts";
import { intents, workspaces } from "../../db/schema.ts";
import { createRecordWriter } from "./records.ts";
import type { NewIntentRow } from "./store.ts";

let database: Database;
beforeAll(async () => {
  database = await openDb({ databaseUrl: undefined, dataDir: ":memory:" });
  await database.db.insert(workspaces).values([
    { id: "wsp_a", name: "a" },
    { id: "wsp_b", name: "b" },
  ]);
});
afterAll(async () => {
  await database?.close();
});

let n = 0;
const row = (): NewIntentRow => ({
  id: `int_rec_${n++}`,
  traceId: `trace_${n}`,
  conversationId: `conv_${n}`,
  type: "chat",
  status: "answered",
  domain: n % 2 ? "support" : null,
  decision: "approved",
  confidence: 0.75,
  gaps: n % 3,
  durationMs: n,
  request: { path: "/api/v1/svc/chat/completions", messages: [{ role: "user", content: "Ünïcode \"quoted\" and\nnewline" }], n },
  response: { object: "chat.completion" },
  executionId: null,
  createdAt: new Date(),
});

/** A logger that keeps what was logged at warn and error. */
function keptLog() {
  const lines: { level: string; fields: Record<string, unknown>; message: string }[] = [];
  const keep = (level: string) => (fields: Record<string, unknown>, message: string) => lines.push({ level, fields, message });
  const log = { error: keep("error"), warn: keep("warn"), info: () => {}, debug: () => {}, trace: () => {}, fatal: keep("fatal"), child: () => log, level: "info", silent: () => {} };
  return { log: log as unknown as FastifyBaseLogger, lines };
}

const stored = async (ids: string[]) => {
  const rows = (await database.db.execute(sql`select id from intents where id in (${sql.join(ids.map((id) => sql`${id}`), sql`, `)})`)) as unknown as { rows: { id: string }[] };
  return rows.rows.map((r) => r.id).sort();
};

describe("record writer", () => {
  it("writes every queued record, several workspaces at once, on flush and by itself after the window", async () => {
    const { log, lines } = keptLog();
    const writer = createRecordWriter(database.db, log);
    const a = [row(), row(), row()];
    const b = [row()];
    for (const r of a) await writer.add("wsp_a", r);
    for (const r of b) await writer.add("wsp_b", r);
    expect(await stored([...a, ...b].map((r) => r.id))).toEqual([]);
    await writer.flush();
    expect(await stored([...a, ...b].map((r) => r.id))).toEqual([...a, ...b].map((r) => r.id).sort());
    // Without a reader, the timer writes it.
    const later = row();
    await writer.add("wsp_a", later);
    await expect.poll(() => stored([later.id]), { timeout: 2000, interval: 5 }).toEqual([later.id]);
    expect(lines).toEqual([]);
    await writer.close();
  });

  it("a refused batch is retried, then dropped with an error naming its records; other workspaces are written", async () => {
    const { log, lines } = keptLog();
    const writer = createRecordWriter(database.db, log);
    const orphan = row(); // its workspace does not exist: the foreign key refuses it
    const fine = row();
    await writer.add("wsp_missing", orphan);
    await writer.add("wsp_b", fine);
    await writer.flush();
    expect(await stored([fine.id])).toEqual([fine.id]);
    await expect.poll(() => lines.filter((l) => l.level === "error").length, { timeout: 2000, interval: 5 }).toBe(1);
    expect(lines.filter((l) => l.level === "warn").length).toBe(2);
    expect(lines.find((l) => l.level === "error")!.fields.records).toEqual([orphan.id]);
    expect(await stored([orphan.id])).toEqual([]);
    await writer.close();
  });

  it("a record queued as a function is made at the flush; one that cannot be made is dropped with an error, the rest written", async () => {
    const { log, lines } = keptLog();
    const writer = createRecordWriter(database.db, log);
    let made = 0;
    const lazy = row();
    await writer.add("wsp_a", () => {
      made++;
      return lazy;
    });
    await writer.add("wsp_a", () => {
      throw new Error("broken record");
    });
    const plain = row();
    await writer.add("wsp_a", plain);
    expect(made).toBe(0);
    await writer.flush();
    expect(made).toBe(1);
    expect(await stored([lazy.id, plain.id])).toEqual([lazy.id, plain.id].sort());
    // Every column arrives as it was made (the rows cross as one JSON parameter).
    const [back] = await database.db.select().from(intents).where(eq(intents.id, lazy.id));
    expect(back).toEqual({ ...lazy, workspaceId: "wsp_a" });
    expect(lines.filter((l) => l.level === "error").map((l) => l.message)).toEqual(["a chat record could not be made and was dropped"]);
    await writer.close();
  });
});
