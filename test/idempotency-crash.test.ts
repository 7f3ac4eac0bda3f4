// An Idempotency-Key is a promise that outlives the process: a burst of keyed writes is answered, the
// service is killed with SIGKILL the moment the last answer arrives, and after the restart every retry with
// the same key must be a replay of the answer sent, with nothing created twice. Real child processes (bin/svc.js)
// on a temporary data directory (embedded database) or on DATABASE_URL.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { sql } from "drizzle-orm";
import { afterAll, describe, expect, it } from "vitest";
import { openDb } from "../src/db/index.ts";
import { spawnServe, type ServeProcess } from "./helpers/process.ts";
import { call, newWorkspace, onPostgres, type Reply } from "./helpers/server.ts";

const BURST = Number(process.env.CRASH_BURST ?? 160);
const LIMITS = { SVC_RATE_LIMIT_PER_KEY: "1000000", SVC_RATE_LIMIT_PER_WORKSPACE: "1000000", SVC_AUTH_FAILURE_LIMIT: "1000000" };
const SLOW = { timeout: 240_000 };

const dirs: string[] = [];
afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

const item = (i: number) => ({ type: "note", content: { text: `crash probe item ${i}` } });
const keyOf = (i: number) => `crash-${process.pid}-${i}`;
const post = (server: ServeProcess, key: string, i: number) =>
  call(server, "POST", "/api/v1/svc/memory", { key, body: item(i), headers: { "idempotency-key": keyOf(i) } });

async function countItems(env: { databaseUrl: string | undefined; dataDir: string }, workspaceId: string): Promise<number> {
  const database = await openDb(env);
  try {
    // Both drivers answer { rows }.
    const result = (await database.db.execute(sql`select count(*)::int as n from memory_items where workspace_id = ${workspaceId}`)) as unknown as { rows: { n: number }[] };
    const row = result.rows[0];
    return row!.n;
  } finally {
    await database.close();
  }
}

describe("Idempotency-Key after a kill -9", () => {
  it(`a burst of ${BURST} keyed writes answered just before SIGKILL replays after the restart, nothing run twice`, SLOW, async () => {
    const dataDir = mkdtempSync(path.join(tmpdir(), "svc-crash-"));
    dirs.push(dataDir);
    const env = onPostgres ? { DATABASE_URL: process.env.DATABASE_URL!, ...LIMITS } : { SVC_DATA_DIR: dataDir, DATABASE_URL: "", ...LIMITS };

    const first = await spawnServe(env, 120_000);
    let answers: Reply[];
    let ws: Awaited<ReturnType<typeof newWorkspace>>;
    try {
      ws = await newWorkspace(first);
      answers = await Promise.all(Array.from({ length: BURST }, (_, i) => post(first, ws.key, i)));
    } finally {
      // The moment the last answer is in: no shutdown, nothing written after this.
      await first.stop("SIGKILL");
    }
    for (const answer of answers) expect(answer.status, answer.text).toBe(201);

    // At info level: the restart says how many answers it took from the journal (embedded database).
    const second = await spawnServe({ ...env, SVC_LOG_LEVEL: "info" }, 120_000);
    let retries: Reply[];
    try {
      retries = await Promise.all(Array.from({ length: BURST }, (_, i) => post(second, ws.key, i)));
    } finally {
      await second.stop("SIGTERM");
    }
    const replayed = retries.filter((r, i) => r.headers.get("idempotent-replayed") === "true" && r.text === answers[i]!.text).length;
    const ranAgain = retries.filter((r) => r.status === 201 && r.headers.get("idempotent-replayed") !== "true").length;
    const inProgress = retries.filter((r) => r.status === 409).length;
    const created = await countItems({ databaseUrl: onPostgres ? process.env.DATABASE_URL : undefined, dataDir }, ws.id);
    const journaled = /"answers":(\d+),"msg":"idempotency answers replayed from the journal"/.exec(second.output())?.[1] ?? "0";
    console.log(
      `crash replay (${onPostgres ? "postgres" : "pglite"}): ${replayed}/${BURST} replayed, ${ranAgain} ran twice, ${inProgress} answered 409 in progress; ${created} items for ${BURST} requests; ${journaled} answers taken from the journal at the restart`,
    );
    expect({ replayed, ranAgain, inProgress, created }).toEqual({ replayed: BURST, ranAgain: 0, inProgress: 0, created: BURST });
  });
});
