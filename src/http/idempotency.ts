// Idempotency for every POST, PUT and PATCH that carries an Idempotency-Key: per workspace, 24 hours, in
// the database so it holds across processes. The first request claims the key; a repeat of the same
// request gets the stored status and body byte for byte (Idempotent-Replayed: true), a different request
// with the same key 422, a repeat while the first still runs 409 with Retry-After: 1. Answers that say the
// request was never processed (validation, auth, limits, conflicts) and 5xx are not stored: the key is
// freed so a corrected or later retry can run.
// An answer that was sent is replayed after any crash: it is made durable before it leaves (settle, in
// onSend, returns only then). On PostgreSQL (several processes) the claim is written before the request runs
// and the answer committed before it is sent. On the embedded database one process owns the data (a lock
// file sees to it), so a fresh key is claimed in memory, when a filter of the keys seen in the last 24 hours
// (loaded at start, then fed by every claim) says it was never seen; its answer is appended to a journal in
// the data directory (one write(): in the page cache, it outlives a killed process) and committed right
// behind, answers that come while a statement runs together in the next (group commit); the journal is
// replayed at start. Without a journal (database in memory) the answer waits for its commit. A key the
// filter may have seen is claimed in the database first, as on PostgreSQL. What this leaves, only if the
// process dies mid-request: a claim in memory is lost with it, and the retry runs the request again (on
// PostgreSQL too, after the claim counts as abandoned). docs/api-decisions.md, "Idempotency".
import { createHash } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import type { FastifyBaseLogger, FastifyReply, FastifyRequest } from "fastify";
import { canonicalJson } from "../canonical-json.ts";
import type { Clock } from "../clock.ts";
import type { Db } from "../db/index.ts";
import { AppError } from "../errors/app-error.ts";
import { KeyFilter } from "./idempotency-filter.ts";
import { claimKey, completeKey, findKey, liveKeys, purgeExpiredKeys, releaseKey, writeKeys, type IdempotencyRow } from "./idempotency-store.ts";
import { TRACE_HEADER } from "./trace.ts";
import type { App } from "./types.ts";

const TTL_MS = 24 * 60 * 60 * 1000;
// A claim still "in progress" after this long belongs to a process that died mid-request.
const ABANDONED_AFTER_MS = 5 * 60 * 1000;
const PURGE_EVERY_MS = 60 * 60 * 1000;
const LOAD_PAGE = 10_000;
const KEY_PATTERN = /^[\x21-\x7e]{1,255}$/;
const NOT_STORED = new Set([400, 401, 403, 409, 413, 415, 422, 429]);
const METHODS = new Set(["POST", "PUT", "PATCH"]);

function fingerprint(request: FastifyRequest): string {
  return createHash("sha256")
    .update(`${request.method} ${request.url}\n${canonicalJson(request.body)}`)
    .digest("hex");
}

interface Answer {
  status: number;
  body: string;
  contentType: string | null;
}

/** A key claimed by this process on the embedded database, kept in memory until its answer is stored. */
interface Held {
  scope: string;
  key: string;
  requestHash: string;
  traceId: string;
  createdAt: number;
  answer: Answer | null;
  /** The request was answered or its key freed: a close of the connection after that changes nothing. */
  settled: boolean;
  /** A row of this claim may be in the database (claimed there first, or written since). */
  written: boolean;
  /** The last write of this entry queued, until it is done. */
  lastWrite: Promise<void> | undefined;
  /** What the answer waits for before it may leave (its commit, when there is no journal); then undefined. */
  durable: Promise<void> | undefined;
}

// Rows written in one statement at most: a burst's answers are committed together, not one after another.
const BATCH = 100;

/** A journal line: an answer's row, dates as ISO text. */
type JournalLine = Omit<IdempotencyRow, "createdAt" | "expiresAt"> & { createdAt: string; expiresAt: string };

/** Rows in order, cut into statements of at most BATCH rows with one row per key each (an upsert touches a row once). */
function batches<T>(items: T[], idOf: (item: T) => string): T[][] {
  const out: T[][] = [];
  let batch: T[] = [];
  let keys = new Set<string>();
  for (const item of items) {
    const id = idOf(item);
    if (batch.length >= BATCH || keys.has(id)) {
      out.push(batch);
      batch = [];
      keys = new Set();
    }
    batch.push(item);
    keys.add(id);
  }
  if (batch.length > 0) out.push(batch);
  return out;
}

export function registerIdempotency(
  app: App,
  deps: { db: Db; clock: Clock; writeBehind: boolean; dataDir?: string; log: FastifyBaseLogger },
): { close(): Promise<void> } {
  const { db, clock } = deps;
  app.decorateRequest("idempotency", undefined);
  const replayed = new WeakSet<FastifyRequest>();
  // Embedded database only: the keys held in memory, by scope and key; the keys that may have a row; the
  // rows waiting to be written (group commit: what arrives while a statement runs goes in the next one).
  const held = new Map<string, Held>();
  // Which held entry a request claimed: a trace id may repeat (a client's traceparent), an entry is one claim.
  const claimedBy = new WeakMap<FastifyRequest, Held>();
  const seen = new KeyFilter(TTL_MS);
  const queue: { entry: Held; done: () => void }[] = [];
  let draining: Promise<void> | undefined;
  // Embedded database on a directory: each answer is appended to a journal there (one write(), in the page
  // cache once it returns, so it outlives a killed process) before it is sent, and committed right behind.
  // Emptied whenever every answer in it is committed; replayed into the table at start.
  const journalPath = deps.writeBehind && deps.dataDir ? path.join(deps.dataDir, "idempotency.journal") : undefined;
  let journal: number | undefined;
  // A journaled answer whose row could not be written: the journal is kept for the next start to replay.
  let journalKept = false;
  const slot = (scope: string, key: string) => `${scope}\n${key}`;

  function replay(request: FastifyRequest, reply: FastifyReply, answer: { status: number | null; traceId: string; contentType: string | null; body: string | null }) {
    replayed.add(request);
    reply.code(answer.status ?? 200).header("idempotent-replayed", "true").header(TRACE_HEADER, answer.traceId);
    if (answer.contentType) reply.header("content-type", answer.contentType);
    return reply.send(answer.body ?? "");
  }

  /** The row of a held entry as it stands now: its answer, or the claim still in progress. */
  const rowOf = (entry: Held): IdempotencyRow => ({
    scope: entry.scope,
    key: entry.key,
    requestHash: entry.requestHash,
    traceId: entry.traceId,
    state: entry.answer ? "completed" : "in_progress",
    responseStatus: entry.answer?.status ?? null,
    responseBody: entry.answer?.body ?? null,
    contentType: entry.answer?.contentType ?? null,
    createdAt: new Date(entry.createdAt),
    expiresAt: new Date(entry.createdAt + TTL_MS),
  });

  /** Writes rows, retried; on failure of several at once, each alone, so that one bad row fails alone. */
  async function writeRows(rows: IdempotencyRow[]): Promise<Set<string> | undefined> {
    for (let attempt = 1; ; attempt++) {
      try {
        return await writeKeys(db, rows);
      } catch (error) {
        if (rows.length > 1) {
          const written = new Set<string>();
          for (const row of rows) for (const id of (await writeRows([row])) ?? []) written.add(id);
          return written;
        }
        if (attempt >= 3) {
          journalKept = true;
          deps.log.error({ err: error, scope: rows[0]!.scope, trace_id: rows[0]!.traceId }, "an idempotency key held in memory could not be stored; it replays from memory until the process stops");
          return undefined;
        }
        await new Promise((resolve) => setTimeout(resolve, 50 * attempt));
      }
    }
  }

  /** Writes the queued entries, a batch per statement, until none is left. */
  async function drain(): Promise<void> {
    while (queue.length > 0) {
      // One row per key in a statement: a second entry of the same key waits for the next one.
      const batch: Held[] = [];
      const waiting: (() => void)[] = [];
      const keys = new Set<string>();
      while (queue.length > 0 && batch.length < BATCH) {
        const { entry, done } = queue[0]!;
        const id = slot(entry.scope, entry.key);
        if (!batch.includes(entry)) {
          if (keys.has(id)) break;
          keys.add(id);
          batch.push(entry);
        }
        waiting.push(done);
        queue.shift();
      }
      const rows = batch.map(rowOf);
      const written = await writeRows(rows);
      batch.forEach((entry, i) => {
        const id = slot(entry.scope, entry.key);
        if (!written) return;
        if (!written.has(id)) {
          deps.log.error({ scope: entry.scope, trace_id: entry.traceId }, "an idempotency key held in memory was found taken in the database; its row was left as it was");
          return;
        }
        entry.written = true;
        // Stored: from now on the database answers for it (an answer, or a claim whose request is gone).
        const answered = rows[i]!.state === "completed";
        if ((answered || entry.answer === null) && held.get(id) === entry) held.delete(id);
      });
      for (const done of waiting) done();
    }
    // Nothing queued: every answer journaled so far is committed (they are queued as they are journaled).
    if (journal !== undefined && !journalKept) truncateJournal();
    draining = undefined;
  }

  function truncateJournal(): void {
    try {
      fs.ftruncateSync(journal!, 0);
    } catch (error) {
      deps.log.error({ err: error }, "the idempotency journal could not be emptied; it is replayed at the next start");
    }
  }

  /** Appends the answer's row to the journal; false when it could not be (the answer then waits for its commit). */
  function journalAnswer(entry: Held): boolean {
    if (journal === undefined) return false;
    const row = rowOf(entry);
    const line: JournalLine = { ...row, createdAt: row.createdAt.toISOString(), expiresAt: row.expiresAt.toISOString() };
    try {
      fs.writeSync(journal, `${JSON.stringify(line)}\n`);
      return true;
    } catch (error) {
      deps.log.error({ err: error }, "an idempotency answer could not be journaled; it is committed before it is sent");
      return false;
    }
  }

  /** At start: the answers journaled by a process that stopped before committing them, into the table. */
  async function replayJournal(): Promise<void> {
    if (!journalPath) return;
    let text = "";
    try {
      text = fs.readFileSync(journalPath, "utf8");
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "ENOENT") throw error;
    }
    const rows: IdempotencyRow[] = [];
    for (const line of text.split("\n")) {
      if (!line) continue;
      try {
        const row = JSON.parse(line) as JournalLine;
        rows.push({ ...row, createdAt: new Date(row.createdAt), expiresAt: new Date(row.expiresAt) });
      } catch {
        // A line cut short by the end of the process: its answer was never sent.
      }
    }
    // The same statement as behind an answer: a row already committed is written again as it was.
    for (const batch of batches(rows, (row) => slot(row.scope, row.key))) await writeRows(batch);
    if (rows.length > 0) deps.log.info({ answers: rows.length }, "idempotency answers replayed from the journal");
    // What it holds is what the database holds: the same bodies as the table, so the same care (owner only).
    journal = fs.openSync(journalPath, "a", 0o600);
    // Kept when a row could not be written (logged): the next start tries again.
    if (!journalKept) fs.ftruncateSync(journal, 0);
  }

  /** Queues the entry's row as it will stand when its turn comes; resolves once it is committed (or failed, logged). */
  function store(entry: Held): Promise<void> {
    const done = new Promise<void>((resolve) => queue.push({ entry, done: resolve }));
    draining ??= drain();
    entry.lastWrite = done;
    return done;
  }

  /**
   * Keeps a claim of this request in memory until its answer is stored. A reply closed before it was
   * answered (a stream: the reply is hijacked and never reaches onSend; or the client went away) writes the
   * claim in progress, so that the key stays taken for the abandoned-claim rule, as on PostgreSQL.
   */
  function hold(request: FastifyRequest, reply: FastifyReply, scope: string, key: string, hash: string, createdAt: number, written: boolean): Held {
    const entry: Held = { scope, key, requestHash: hash, traceId: request.id, createdAt, answer: null, settled: false, written, lastWrite: undefined, durable: undefined };
    const id = slot(scope, key);
    held.set(id, entry);
    claimedBy.set(request, entry);
    reply.raw.once("close", () => {
      if (entry.settled || held.get(id) !== entry) return;
      if (entry.written) held.delete(id);
      else void store(entry);
    });
    return entry;
  }

  /** Whether a held entry still stands: an answer for the key's TTL, a claim until it counts as abandoned. */
  const standing = (entry: Held, now: number) => (entry.answer ? now - entry.createdAt < TTL_MS : now - entry.createdAt <= ABANDONED_AFTER_MS);

  /** Claims the key for this request; false when another request holds or held it. */
  async function tryClaim(request: FastifyRequest, reply: FastifyReply, scope: string, key: string, hash: string): Promise<boolean> {
    const now = clock.nowMs();
    // The filter's hour is the row's: a key is never forgotten before its row expires.
    if (deps.writeBehind) seen.add(slot(scope, key), now);
    const claimed = await claimKey(db, scope, {
      key,
      requestHash: hash,
      traceId: request.id,
      createdAt: new Date(now),
      expiresAt: new Date(now + TTL_MS),
    });
    if (claimed) {
      request.idempotency = { scope, key };
      // Written already; held so that a repeat meets it in memory, and its answer goes with the others.
      if (deps.writeBehind) hold(request, reply, scope, key, hash, now, true);
    }
    return claimed;
  }

  async function claim(request: FastifyRequest, reply: FastifyReply) {
    const key = request.headers["idempotency-key"];
    if (key === undefined) return;
    if (typeof key !== "string" || !KEY_PATTERN.test(key)) {
      throw new AppError("invalid_request", {
        message: "The Idempotency-Key header must be 1 to 255 visible ASCII characters.",
        details: [{ field: "Idempotency-Key", message: "must be 1 to 255 visible ASCII characters" }],
      });
    }
    const scope = request.principal?.workspaceId ?? "operator";
    const hash = fingerprint(request);
    if (deps.writeBehind) {
      const id = slot(scope, key);
      const entry = held.get(id);
      const now = clock.nowMs();
      if (entry && standing(entry, now)) {
        if (entry.requestHash !== hash) throw new AppError("idempotency_key_reused");
        if (entry.answer) {
          // Not before the first answer is durable: a replay is a promise too.
          await entry.durable;
          return replay(request, reply, { ...entry.answer, traceId: entry.traceId });
        }
        throw new AppError("idempotency_key_in_use", { retryAfter: 1 });
      }
      if (!entry && !seen.mayHave(id, now)) {
        // Never seen: claimed in memory; its row is written with its answer, before the answer is sent.
        seen.add(id, now);
        request.idempotency = { scope, key };
        hold(request, reply, scope, key, hash, now, false);
        return;
      }
      // Held but abandoned (a request that never answered) or expired, or maybe seen: the database decides.
      if (entry) held.delete(id);
    }
    // A few rounds: between reading a stale claim and replacing it, another request may win the key.
    for (let attempt = 0; attempt < 3; attempt++) {
      if (await tryClaim(request, reply, scope, key, hash)) return;
      const row = await findKey(db, scope, key);
      if (!row) continue;
      const now = clock.nowMs();
      const abandoned = row.state === "in_progress" && now - row.createdAt.getTime() > ABANDONED_AFTER_MS;
      if (row.expiresAt.getTime() <= now || abandoned) {
        await releaseKey(db, scope, key, row.createdAt);
        continue;
      }
      if (row.requestHash !== hash) throw new AppError("idempotency_key_reused");
      if (row.state === "in_progress") throw new AppError("idempotency_key_in_use", { retryAfter: 1 });
      return replay(request, reply, { status: row.responseStatus, traceId: row.traceId, contentType: row.contentType, body: row.responseBody });
    }
    throw new AppError("idempotency_key_in_use", { retryAfter: 1 });
  }

  async function settle(request: FastifyRequest, reply: FastifyReply, payload: unknown) {
    const claim = request.idempotency;
    if (!claim || replayed.has(request)) return payload;
    request.idempotency = undefined;
    const id = slot(claim.scope, claim.key);
    const entry = claimedBy.get(request);
    const status = reply.statusCode;
    const storable = status < 500 && !NOT_STORED.has(status) && (payload === null || payload === undefined || typeof payload === "string" || Buffer.isBuffer(payload));
    const contentType = reply.getHeader("content-type");
    const answer = { status, body: payload === null || payload === undefined ? "" : payload.toString(), contentType: typeof contentType === "string" ? contentType : null };
    if (!entry) {
      // PostgreSQL: the claim was written before the request ran; the answer is written before it is sent.
      if (storable) await completeKey(db, claim.scope, claim.key, answer);
      else await releaseKey(db, claim.scope, claim.key);
      return payload;
    }
    // Embedded database: the claim this request holds in memory (or held: a stream's, written when it closed).
    entry.settled = true;
    if (!storable) {
      // Held until freed, so that no one claims it between; a claim never written needs no statement.
      await entry.lastWrite;
      if (entry.written) await releaseKey(db, claim.scope, claim.key, new Date(entry.createdAt));
      if (held.get(id) === entry) held.delete(id);
      return payload;
    }
    // Durable before the answer leaves (the reply is sent when this hook returns), so a retry after a crash
    // finds it: journaled, or else committed. Answers that come while a statement runs are committed
    // together in the next one. Only this very claim's row is completed: a newer claim of the key (this one
    // abandoned) is left as it is.
    entry.answer = answer;
    if (journalAnswer(entry)) {
      void store(entry);
    } else {
      entry.durable = store(entry);
      await entry.durable;
      entry.durable = undefined;
    }
    return payload;
  }

  // Attached to the routes that can change something (POST, PUT, PATCH), so reads pay nothing for it.
  app.addHook("onRoute", (route) => {
    const methods = Array.isArray(route.method) ? route.method : [route.method];
    if (!methods.some((m) => METHODS.has(m)) || route.config?.idempotent === false) return;
    route.preHandler = [claim, ...(route.preHandler ? [route.preHandler].flat() : [])];
    route.onSend = [settle, ...(route.onSend ? [route.onSend].flat() : [])];
  });


  const purge = setInterval(() => {
    void purgeExpiredKeys(db, clock.now()).catch(() => {});
    // Entries whose rows could not be written (logged) go once their key has expired or been abandoned.
    const now = clock.nowMs();
    for (const [id, entry] of held) if (!standing(entry, now)) held.delete(id);
  }, PURGE_EVERY_MS);
  purge.unref();
  app.addHook("onClose", async () => clearInterval(purge));
  app.addHook("onReady", async () => {
    await replayJournal();
    await purgeExpiredKeys(db, clock.now());
    if (!deps.writeBehind) return;
    // Every key still live, into the filter, a page at a time (before the server takes requests).
    const now = clock.now();
    for (let from: { scope: string; key: string } | null = null; ; ) {
      const page = await liveKeys(db, now, from, LOAD_PAGE);
      for (const row of page) seen.add(slot(row.scope, row.key), row.createdAt.getTime());
      if (page.length < LOAD_PAGE) break;
      from = page[page.length - 1]!;
    }
  });
  // Called by the app before the database closes: the rows still queued (claims of streams) are written.
  return {
    close: async () => {
      while (draining) await draining;
      if (journal !== undefined) fs.closeSync(journal);
      journal = undefined;
    },
  };
}
