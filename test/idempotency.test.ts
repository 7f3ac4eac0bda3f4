import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { sql } from "drizzle-orm";
import { openDb } from "../src/db/index.ts";
import { describe, expect, it } from "vitest";
import { afterAll, beforeAll } from "vitest";
import { AppError } from "../src/errors/app-error.ts";
import { liveKeys } from "../src/http/idempotency-store.ts";
import { call, expectError, newWorkspace, query, startServer, useServer, type TestServer } from "./helpers/server.ts";

const server = useServer();
const keysPath = (id: string) => `/api/v1/maas/workspaces/${id}/api-keys`;

async function activeKeyCount(workspaceId: string, key: string): Promise<number> {
  return (await call(server(), "GET", keysPath(workspaceId), { key })).body.count;
}

describe("Idempotency-Key", () => {
  it("replays the same request's status and body byte for byte, with no second effect", async () => {
    const ws = await newWorkspace(server());
    const headers = { "idempotency-key": "create-ci-key-1" };
    const first = await call(server(), "POST", keysPath(ws.id), { key: ws.key, body: { name: "ci" }, headers });
    expect(first.status).toBe(201);
    expect(first.headers.get("idempotent-replayed")).toBeNull();
    const second = await call(server(), "POST", keysPath(ws.id), { key: ws.key, body: { name: "ci" }, headers });
    expect(second.status).toBe(201);
    expect(second.text).toBe(first.text);
    expect(second.headers.get("idempotent-replayed")).toBe("true");
    expect(second.headers.get("content-type")).toBe(first.headers.get("content-type"));
    expect(second.headers.get("x-svc-trace-id")).toBe(first.headers.get("x-svc-trace-id"));
    expect(await activeKeyCount(ws.id, ws.key)).toBe(2);
  });

  it("the same key with a different request: 422 idempotency_key_reused", async () => {
    const ws = await newWorkspace(server());
    const headers = { "idempotency-key": "k-reused" };
    expect((await call(server(), "POST", keysPath(ws.id), { key: ws.key, body: { name: "one" }, headers })).status).toBe(201);
    expectError(await call(server(), "POST", keysPath(ws.id), { key: ws.key, body: { name: "two" }, headers }), 422, "idempotency_key_reused");
    expect(await activeKeyCount(ws.id, ws.key)).toBe(2);
  });

  it("keys are per workspace: another workspace may use the same key string", async () => {
    const a = await newWorkspace(server());
    const b = await newWorkspace(server());
    const headers = { "idempotency-key": "shared-string" };
    const ra = await call(server(), "POST", keysPath(a.id), { key: a.key, body: { name: "ci" }, headers });
    const rb = await call(server(), "POST", keysPath(b.id), { key: b.key, body: { name: "ci" }, headers });
    expect(ra.status).toBe(201);
    expect(rb.status).toBe(201);
    expect(rb.headers.get("idempotent-replayed")).toBeNull();
    expect(rb.body.id).not.toBe(ra.body.id);
  });

  it("20 concurrent duplicates create exactly one key", async () => {
    const ws = await newWorkspace(server());
    const headers = { "idempotency-key": "burst-1" };
    const replies = await Promise.all(
      Array.from({ length: 20 }, () => call(server(), "POST", keysPath(ws.id), { key: ws.key, body: { name: "burst" }, headers })),
    );
    const created = replies.filter((r) => r.status === 201);
    const busy = replies.filter((r) => r.status === 409);
    expect(created.length + busy.length).toBe(20);
    expect(created.length).toBeGreaterThanOrEqual(1);
    expect(new Set(created.map((r) => r.body.id)).size).toBe(1);
    for (const r of busy) {
      expectError(r, 409, "idempotency_key_in_use");
      expect(r.headers.get("retry-after")).toBe("1");
    }
    expect(await activeKeyCount(ws.id, ws.key)).toBe(2);
    const names = (await call(server(), "GET", keysPath(ws.id), { key: ws.key })).body.keys.map((k: { name: string }) => k.name);
    expect(names.filter((n: string) => n === "burst")).toHaveLength(1);
  });

  it("validation answers are not stored: the corrected request with the same key runs", async () => {
    const ws = await newWorkspace(server());
    const headers = { "idempotency-key": "fix-me" };
    expectError(await call(server(), "POST", keysPath(ws.id), { key: ws.key, body: { name: 5 }, headers }), 400, "invalid_request");
    const fixed = await call(server(), "POST", keysPath(ws.id), { key: ws.key, body: { name: "five" }, headers });
    expect(fixed.status).toBe(201);
    expect(fixed.headers.get("idempotent-replayed")).toBeNull();
  });

  it("auth failures are not stored and never consume the key", async () => {
    const ws = await newWorkspace(server());
    const headers = { "idempotency-key": "auth-first" };
    expectError(await call(server(), "POST", keysPath(ws.id), { body: { name: "x" }, headers }), 401, "auth_missing");
    const ok = await call(server(), "POST", keysPath(ws.id), { key: ws.key, body: { name: "x" }, headers });
    expect(ok.status).toBe(201);
    expect(ok.headers.get("idempotent-replayed")).toBeNull();
  });

  it("a 404 answer is stored and replayed (the request was processed)", async () => {
    const ws = await newWorkspace(server());
    const headers = { "idempotency-key": "rotate-missing" };
    const first = await call(server(), "POST", `${keysPath(ws.id)}/key_missing/rotate`, { key: ws.key, headers });
    expectError(first, 404, "api_key_not_found");
    const again = await call(server(), "POST", `${keysPath(ws.id)}/key_missing/rotate`, { key: ws.key, headers });
    expect(again.text).toBe(first.text);
    expect(again.headers.get("idempotent-replayed")).toBe("true");
  });

  it("an expired entry is purged and the key can be used afresh", async () => {
    const ws = await newWorkspace(server());
    const headers = { "idempotency-key": "old-key" };
    const first = await call(server(), "POST", keysPath(ws.id), { key: ws.key, body: { name: "a" }, headers });
    expect(first.status).toBe(201);
    await server().database.db.execute(sql`update idempotency_keys set expires_at = now() - interval '1 minute' where scope = ${ws.id} and key = 'old-key'`);
    const second = await call(server(), "POST", keysPath(ws.id), { key: ws.key, body: { name: "a" }, headers });
    expect(second.status).toBe(201);
    expect(second.headers.get("idempotent-replayed")).toBeNull();
    expect(second.body.id).not.toBe(first.body.id);
  });

  it("the keys loaded at start are read in pages: every live key once, expired ones not", async () => {
    const ws = await newWorkspace(server());
    const db = server().database.db;
    for (const key of ["k1", "k2", "k3", "k4", "k5"]) {
      await db.execute(sql`insert into idempotency_keys (scope, key, request_hash, state, trace_id, expires_at) values (${ws.id}, ${key}, 'h', 'completed', 't', now() + interval '1 hour')`);
    }
    await db.execute(sql`insert into idempotency_keys (scope, key, request_hash, state, trace_id, expires_at) values (${ws.id}, 'gone', 'h', 'completed', 't', now() - interval '1 minute')`);
    const seen: string[] = [];
    let pages = 0;
    for (let from: { scope: string; key: string } | null = null; ; pages++) {
      const page = await liveKeys(db, new Date(), from, 2);
      seen.push(...page.filter((row) => row.scope === ws.id).map((row) => row.key));
      if (page.length < 2) break;
      from = page[page.length - 1]!;
    }
    expect(seen).toEqual(["k1", "k2", "k3", "k4", "k5"]);
    expect(pages).toBeGreaterThanOrEqual(2);
  });

  it("rejects an unusable Idempotency-Key value", async () => {
    const ws = await newWorkspace(server());
    const reply = await call(server(), "POST", keysPath(ws.id), { key: ws.key, body: { name: "a" }, headers: { "idempotency-key": "x".repeat(300) } });
    const body = expectError(reply, 400, "invalid_request");
    expect(body.error.details[0].field).toBe("Idempotency-Key");
  });
});

describe("Idempotency-Key and server failures", () => {
  // A runtime route that fails with a 5xx on its first call and succeeds afterwards, as a flaky backend would.
  let flaky: TestServer;
  let calls = 0;
  beforeAll(async () => {
    flaky = await startServer(
      {},
      {
        extend: (app) => {
          app.post("/api/v1/svc/test/flaky", async () => {
            calls++;
            if (calls === 1) throw new AppError("service_unavailable");
            return { attempt: calls };
          });
        },
      },
    );
  });
  afterAll(async () => {
    await flaky?.close();
  });

  it("a 5xx frees the key: the retry runs and its answer is the one stored", async () => {
    const ws = await newWorkspace(flaky);
    const headers = { "idempotency-key": "retry-after-5xx" };
    expectError(await call(flaky, "POST", "/api/v1/svc/test/flaky", { key: ws.key, body: {}, headers }), 503, "service_unavailable");
    const retried = await call(flaky, "POST", "/api/v1/svc/test/flaky", { key: ws.key, body: {}, headers });
    expect(retried.status).toBe(200);
    expect(retried.body).toEqual({ attempt: 2 });
    const replay = await call(flaky, "POST", "/api/v1/svc/test/flaky", { key: ws.key, body: {}, headers });
    expect(replay.headers.get("idempotent-replayed")).toBe("true");
    expect(replay.text).toBe(retried.text);
    expect(calls).toBe(2);
  });
});

describe("Idempotency-Key while the first request runs", () => {
  // A route that answers when the test lets it: the first request is still running while the repeat comes.
  let finish: () => void = () => {};
  let started = false;
  let runs = 0;
  let server: TestServer;
  beforeAll(async () => {
    server = await startServer(
      {},
      {
        extend: (app) => {
          app.post("/api/v1/svc/test/slow", async () => {
            const gate = new Promise<void>((resolve) => (finish = resolve));
            started = true;
            await gate;
            return { run: ++runs };
          });
        },
      },
    );
  });
  afterAll(async () => {
    finish();
    await server?.close();
  });

  it("a request still in progress: 409 with Retry-After: 1; the same key with another body 422; then the answer replays", async () => {
    const ws = await newWorkspace(server);
    const headers = { "idempotency-key": "running" };
    const first = call(server, "POST", "/api/v1/svc/test/slow", { key: ws.key, body: { n: 1 }, headers });
    await expect.poll(() => started, { interval: 5 }).toBe(true);
    const busy = await call(server, "POST", "/api/v1/svc/test/slow", { key: ws.key, body: { n: 1 }, headers });
    expectError(busy, 409, "idempotency_key_in_use");
    expect(busy.headers.get("retry-after")).toBe("1");
    expectError(await call(server, "POST", "/api/v1/svc/test/slow", { key: ws.key, body: { n: 2 }, headers }), 422, "idempotency_key_reused");
    finish();
    const answer = await first;
    expect(answer.body).toEqual({ run: 1 });
    const again = await call(server, "POST", "/api/v1/svc/test/slow", { key: ws.key, body: { n: 1 }, headers });
    expect(again.headers.get("idempotent-replayed")).toBe("true");
    expect(again.text).toBe(answer.text);
    expect(runs).toBe(1);
  });
});

describe("Idempotency-Key on a streamed answer", () => {
  it("is not replayed (nothing was stored): a repeat is refused as in progress, not run again", async () => {
    const server = await startServer({}, { extend: (app) => app.post("/api/v1/svc/test/stream-only", async (_request, reply) => {
      reply.hijack();
      reply.raw.writeHead(200, { "content-type": "text/event-stream" });
      reply.raw.end("data: [DONE]\n\n");
    }) });
    try {
      const ws = await newWorkspace(server);
      const headers = { "idempotency-key": "streamed" };
      const first = await call(server, "POST", "/api/v1/svc/test/stream-only", { key: ws.key, body: {}, headers });
      expect(first.status).toBe(200);
      expect(first.text).toBe("data: [DONE]\n\n");
      expectError(await call(server, "POST", "/api/v1/svc/test/stream-only", { key: ws.key, body: {}, headers }), 409, "idempotency_key_in_use");
    } finally {
      await server.close();
    }
  });
});

describe("Idempotency-Key across a restart", () => {
  // A runtime route that counts its runs, on two servers one after the other over the same database.
  let runs = 0;
  const counting = (app: TestServer["app"]) => {
    app.post("/api/v1/svc/test/counted", async () => ({ run: ++runs }));
  };

  it("a repeat right after the answer replays it, and so does a server started afresh on the same database", async () => {
    const first = await startServer({}, { extend: counting });
    const ws = await newWorkspace(first);
    const headers = { "idempotency-key": "across-restart" };
    const answer = await call(first, "POST", "/api/v1/svc/test/counted", { key: ws.key, body: { n: 1 }, headers });
    expect(answer.body).toEqual({ run: 1 });
    // At once, from the same process (on the embedded database the answer is still being stored).
    const again = await call(first, "POST", "/api/v1/svc/test/counted", { key: ws.key, body: { n: 1 }, headers });
    expect(again.headers.get("idempotent-replayed")).toBe("true");
    expect(again.text).toBe(answer.text);
    expectError(await call(first, "POST", "/api/v1/svc/test/counted", { key: ws.key, body: { n: 2 }, headers }), 422, "idempotency_key_reused");
    await first.close();
    // Stopping wrote the stored answer: the key is completed in the database.
    const [row] = await query(first, sql`select state, response_status, response_body from idempotency_keys where scope = ${ws.id} and key = 'across-restart'`);
    expect(row).toEqual({ state: "completed", response_status: 200, response_body: answer.text });

    const second = await startServer({}, { extend: counting });
    try {
      const replay = await call(second, "POST", "/api/v1/svc/test/counted", { key: ws.key, body: { n: 1 }, headers });
      expect(replay.headers.get("idempotent-replayed")).toBe("true");
      expect(replay.text).toBe(answer.text);
      expect(replay.headers.get("x-svc-trace-id")).toBe(answer.headers.get("x-svc-trace-id"));
      expect(runs).toBe(1);
    } finally {
      await second.close();
    }
  });

  it("a claim left in progress by a server that stopped is still in progress for the next one: 409", async () => {
    const first = await startServer({}, { extend: counting });
    const ws = await newWorkspace(first);
    const body = { n: 7 };
    await call(first, "POST", "/api/v1/svc/test/counted", { key: ws.key, body, headers: { "idempotency-key": "probe" } });
    await first.close();
    // The request hash of `body` on this route, and a claim for another key that a stopped server left behind.
    const [probe] = await query(first, sql`select request_hash from idempotency_keys where scope = ${ws.id} and key = 'probe'`);
    await query(
      first,
      sql`insert into idempotency_keys (scope, key, request_hash, state, trace_id, expires_at) values (${ws.id}, 'left-running', ${probe.request_hash}, 'in_progress', 'abc', now() + interval '1 hour')`,
    );
    const before = runs;
    const second = await startServer({}, { extend: counting });
    try {
      const reply = await call(second, "POST", "/api/v1/svc/test/counted", { key: ws.key, body, headers: { "idempotency-key": "left-running" } });
      expectError(reply, 409, "idempotency_key_in_use");
      expect(runs).toBe(before);
    } finally {
      await second.close();
    }
  });
});

describe.skipIf(process.env.DATABASE_URL)("Idempotency-Key on the embedded database", () => {
  // The route holds the database in a transaction until the test lets go: the answer cannot be stored yet.
  let release: () => void = () => {};
  let held: Promise<unknown> = Promise.resolve();
  let runs = 0;
  let plainRuns = 0;
  let server: TestServer;
  beforeAll(async () => {
    server = await startServer(
      {},
      {
        extend: (app) => {
          app.post("/api/v1/svc/test/plain", async () => ({ plain: ++plainRuns }));
          app.post("/api/v1/svc/test/holding", async () => {
            const gate = new Promise<void>((resolve) => (release = resolve));
            held = server.database.db.transaction(async () => gate);
            return { run: ++runs };
          });
        },
      },
    );
  });
  afterAll(async () => {
    release();
    await held;
    await server?.close();
  });

  it("a fresh key is claimed in memory, but the answer leaves only once it is stored; a repeat replays it", async () => {
    const ws = await newWorkspace(server);
    const headers = { "idempotency-key": "while-busy" };
    let arrived = false;
    const answer = call(server, "POST", "/api/v1/svc/test/holding", { key: ws.key, body: {}, headers }).then((reply) => {
      arrived = true;
      return reply;
    });
    await expect.poll(() => runs, { interval: 5 }).toBe(1);
    // A fresh key runs while the database is held (its claim needs no statement), and waits to be answered.
    const fresh = call(server, "POST", "/api/v1/svc/test/plain", { key: ws.key, body: {}, headers: { "idempotency-key": "fresh-while-busy" } }).then((reply) => {
      arrived = true;
      return reply;
    });
    await expect.poll(() => plainRuns, { interval: 5, timeout: 1500 }).toBe(1);
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(arrived).toBe(false);
    release();
    await held;
    const state = async (key: string) => (await query(server, sql`select state, response_body from idempotency_keys where scope = ${ws.id} and key = ${key}`))[0];
    const first = await answer;
    expect(first.body).toEqual({ run: 1 });
    // Stored by the time it arrived, with no waiting.
    expect(await state("while-busy")).toEqual({ state: "completed", response_body: first.text });
    const plain = await fresh;
    expect(await state("fresh-while-busy")).toEqual({ state: "completed", response_body: plain.text });
    const again = await call(server, "POST", "/api/v1/svc/test/holding", { key: ws.key, body: {}, headers });
    expect(again.headers.get("idempotent-replayed")).toBe("true");
    expect(again.text).toBe(first.text);
    const plainAgain = await call(server, "POST", "/api/v1/svc/test/plain", { key: ws.key, body: {}, headers: { "idempotency-key": "fresh-while-busy" } });
    expect(plainAgain.headers.get("idempotent-replayed")).toBe("true");
    expect(plainAgain.text).toBe(plain.text);
    expect({ runs, plainRuns }).toEqual({ runs: 1, plainRuns: 1 });
  });

  it("a key freed by its answer (4xx not stored) costs no statement and runs again when corrected", async () => {
    const ws = await newWorkspace(server);
    const headers = { "idempotency-key": "freed-fresh" };
    const keys = `/api/v1/maas/workspaces/${ws.id}/api-keys`;
    expectError(await call(server, "POST", keys, { key: ws.key, body: { name: 5 }, headers }), 400, "invalid_request");
    expect(await query(server, sql`select key from idempotency_keys where scope = ${ws.id} and key = 'freed-fresh'`)).toEqual([]);
    const fixed = await call(server, "POST", keys, { key: ws.key, body: { name: "five" }, headers });
    expect(fixed.status).toBe(201);
    expect(fixed.headers.get("idempotent-replayed")).toBeNull();
  });
});

describe.skipIf(process.env.DATABASE_URL)("Idempotency-Key on the embedded database in a directory: the journal", () => {
  // A database of its own in a directory (initdb: seconds on a busy machine).
  it("the answer is journaled before it is sent, and a journaled answer the database never got is replayed after a restart", { timeout: 180_000 }, async () => {
    const dir = mkdtempSync(path.join(tmpdir(), "svc-journal-"));
    const database = await openDb({ databaseUrl: undefined, dataDir: dir });
    let runs = 0;
    let release: () => void = () => {};
    let held: Promise<unknown> = Promise.resolve();
    const routes = (app: TestServer["app"]) => {
      app.post("/api/v1/svc/test/journaled", async () => {
        // The database is held: the answer can leave only through the journal.
        const gate = new Promise<void>((resolve) => (release = resolve));
        held = database.db.transaction(async () => gate);
        return { run: ++runs };
      });
    };
    const journal = path.join(dir, "idempotency.journal");
    try {
      const first = await startServer({}, { database, extend: routes });
      const ws = await newWorkspace(first);
      const headers = { "idempotency-key": "journaled-1" };
      const answer = await call(first, "POST", "/api/v1/svc/test/journaled", { key: ws.key, body: {}, headers });
      expect(answer.body).toEqual({ run: 1 });
      const line = JSON.parse(readFileSync(journal, "utf8").trim());
      expect(line).toMatchObject({ scope: ws.id, key: "journaled-1", state: "completed", responseStatus: 200, responseBody: answer.text });
      release();
      await held;
      await first.close();
      // Committed and the journal emptied; now as if the process had died before the commit.
      expect(readFileSync(journal, "utf8")).toBe("");
      await database.db.execute(sql`delete from idempotency_keys where key = 'journaled-1'`);
      writeFileSync(journal, `${JSON.stringify(line)}\n{"cut short`);

      const second = await startServer({}, { database, extend: routes });
      try {
        const replay = await call(second, "POST", "/api/v1/svc/test/journaled", { key: ws.key, body: {}, headers });
        expect(replay.headers.get("idempotent-replayed")).toBe("true");
        expect(replay.text).toBe(answer.text);
        expect(runs).toBe(1);
        expect(readFileSync(journal, "utf8")).toBe("");
      } finally {
        await second.close();
      }
    } finally {
      release();
      await held;
      await database.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
