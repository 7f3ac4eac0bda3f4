// Idempotency for every POST, PUT and PATCH that carries an Idempotency-Key: per workspace, 24 hours, in
// the database so it holds across processes. The first request claims the key; a repeat of the same
// request gets the stored status and body byte for byte (Idempotent-Replayed: true), a different request
// with the same key 422, a repeat while the first still runs 409 with Retry-After: 1. Answers that say the
// request was never processed (validation, auth, limits, conflicts) and 5xx are not stored: the key is
// freed so a corrected or later retry can run.
// On the embedded database one process owns the data (a lock file sees to it), so no other process reads
// or writes these keys, and the claim and the answer are kept in memory and written behind, one statement at
// a time in order, off the request's path. A fresh key is claimed at once when a filter of the keys seen in
// the last 24 hours (loaded at start, then fed by every claim) says it was never seen; a key the filter may
// have seen is claimed in the database first, as on PostgreSQL. Each statement on the embedded database costs
// 0.3 to 1 ms of its thread plus the trip there and back, and our SDKs send a key with every non-streamed
// POST. What this trades, only if the process dies: a claim not yet written (the first moment of a request)
// is lost with it, so a retry after the restart runs the request again at once; a claim written but whose
// answer was not is "in progress", and a retry gets 409 until the claim counts as abandoned
// (ABANDONED_AFTER_MS), then runs again. On PostgreSQL (several processes) the claim is written before the
// request runs and the answer before it is sent.
import { createHash } from "node:crypto";
import type { FastifyBaseLogger, FastifyReply, FastifyRequest } from "fastify";
import { canonicalJson } from "../canonical-json.ts";
import type { Clock } from "../clock.ts";
import type { Db } from "../db/index.ts";
import { AppError } from "../errors/app-error.ts";
import { KeyFilter } from "./idempotency-filter.ts";
import { claimKey, completeKey, findKey, liveKeys, purgeExpiredKeys, releaseKey, writeKey } from "./idempotency-store.ts";
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

/** A key claimed by this process whose rows are not all written yet (embedded database). */
interface Held {
  requestHash: string;
  traceId: string;
  createdAt: number;
  answer: Answer | null;
  /** A write of this entry is queued and has not started: it will write whatever the entry holds then. */
  queued: boolean;
}

export function registerIdempotency(app: App, deps: { db: Db; clock: Clock; writeBehind: boolean; log: FastifyBaseLogger }): { close(): Promise<void> } {
  const { db, clock } = deps;
  app.decorateRequest("idempotency", undefined);
  const replayed = new WeakSet<FastifyRequest>();
  // Embedded database only: the keys held in memory until written, by scope and key; the keys that may have
  // a row; the writes, one after another.
  const held = new Map<string, Held>();
  // Which held entry a request claimed: a trace id may repeat (a client's traceparent), an entry is one claim.
  const claimedBy = new WeakMap<FastifyRequest, Held>();
  const seen = new KeyFilter(TTL_MS);
  let writing: Promise<void> = Promise.resolve();
  const slot = (scope: string, key: string) => `${scope}\n${key}`;

  function replay(request: FastifyRequest, reply: FastifyReply, answer: { status: number | null; traceId: string; contentType: string | null; body: string | null }) {
    replayed.add(request);
    reply.code(answer.status ?? 200).header("idempotent-replayed", "true").header(TRACE_HEADER, answer.traceId);
    if (answer.contentType) reply.header("content-type", answer.contentType);
    return reply.send(answer.body ?? "");
  }

  /** Queues a write behind the others; one that keeps failing is logged (what is lost is said by `lost`). */
  function behind(scope: string, traceId: string, lost: string, write: () => Promise<unknown>): Promise<void> {
    writing = writing.then(async () => {
      for (let attempt = 1; ; attempt++) {
        try {
          await write();
          return;
        } catch (error) {
          if (attempt >= 3) {
            deps.log.error({ err: error, scope, trace_id: traceId }, lost);
            return;
          }
          await new Promise((resolve) => setTimeout(resolve, 50 * attempt));
        }
      }
    });
    return writing;
  }

  /** Writes a held key's row as it stands (claim or answer); forgets the key once its answer is written. */
  function writeHeld(scope: string, key: string, entry: Held): Promise<void> {
    entry.queued = true;
    const lost = "an idempotency key held in memory could not be stored; a retry after a restart would not find it";
    return behind(scope, entry.traceId, lost, async () => {
      entry.queued = false;
      const answered = entry.answer !== null;
      const written = await writeKey(db, scope, {
        key,
        requestHash: entry.requestHash,
        traceId: entry.traceId,
        state: entry.answer ? "completed" : "in_progress",
        responseStatus: entry.answer?.status ?? null,
        responseBody: entry.answer?.body ?? null,
        contentType: entry.answer?.contentType ?? null,
        createdAt: new Date(entry.createdAt),
        expiresAt: new Date(entry.createdAt + TTL_MS),
      });
      if (!written) deps.log.error({ scope, trace_id: entry.traceId }, "an idempotency key held in memory was found taken in the database; its row was left as it was");
      if (answered && held.get(slot(scope, key)) === entry) held.delete(slot(scope, key));
    });
  }

  /**
   * Keeps a claim of this request in memory until its rows are written. A reply that never reaches onSend
   * (a stream: the reply is hijacked) forgets an unanswered entry when it closes; its row stays in progress
   * for the abandoned-claim rule, as on PostgreSQL.
   */
  function hold(request: FastifyRequest, reply: FastifyReply, id: string, hash: string, createdAt: number): Held {
    const entry: Held = { requestHash: hash, traceId: request.id, createdAt, answer: null, queued: false };
    held.set(id, entry);
    claimedBy.set(request, entry);
    reply.raw.once("close", () => {
      if (held.get(id) === entry && entry.answer === null) held.delete(id);
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
      // Written already; held so that a repeat meets it in memory and its answer is written behind.
      if (deps.writeBehind) hold(request, reply, slot(scope, key), hash, now);
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
        if (entry.answer) return replay(request, reply, { ...entry.answer, traceId: entry.traceId });
        throw new AppError("idempotency_key_in_use", { retryAfter: 1 });
      }
      if (!entry && !seen.mayHave(id, now)) {
        // Never seen: claimed in memory, its row written behind (at once when nothing else is being written).
        seen.add(id, now);
        request.idempotency = { scope, key };
        void writeHeld(scope, key, hold(request, reply, id, hash, now));
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
    const mine = entry !== undefined && held.get(id) === entry;
    const status = reply.statusCode;
    const storable = status < 500 && !NOT_STORED.has(status) && (payload === null || payload === undefined || typeof payload === "string" || Buffer.isBuffer(payload));
    if (!storable) {
      if (mine) {
        // After the claim's own write (queued first), and held until then so that no one claims it between.
        await behind(claim.scope, request.id, "an idempotency key could not be freed; its key stays in progress until abandoned", () => releaseKey(db, claim.scope, claim.key, new Date(entry.createdAt)));
        if (held.get(id) === entry) held.delete(id);
      } else {
        await releaseKey(db, claim.scope, claim.key);
      }
      return payload;
    }
    const contentType = reply.getHeader("content-type");
    const answer = { status, body: payload === null || payload === undefined ? "" : payload.toString(), contentType: typeof contentType === "string" ? contentType : null };
    if (mine) {
      entry.answer = answer;
      // A claim still waiting to be written is written with its answer, in one statement.
      if (!entry.queued) void writeHeld(claim.scope, claim.key, entry);
    } else {
      await completeKey(db, claim.scope, claim.key, answer);
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
  // Called by the app before the database closes: the answers still behind are written.
  return { close: () => writing };
}
