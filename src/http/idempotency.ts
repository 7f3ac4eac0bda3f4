// Idempotency for every POST, PUT and PATCH that carries an Idempotency-Key: per workspace, 24 hours, in
// the database so it holds across processes. The first request claims the key; a repeat of the same
// request gets the stored status and body byte for byte (Idempotent-Replayed: true), a different request
// with the same key 422, a repeat while the first still runs 409 with Retry-After: 1. Answers that say the
// request was never processed (validation, auth, limits, conflicts) and 5xx are not stored: the key is
// freed so a corrected or later retry can run.
// On the embedded database (one process owns it, so no other process reads these keys) the stored answer is
// written behind the response: it is kept in memory at once, so a repeat in this process replays it at
// once, and the row is updated right after, one update at a time off the request's path. Each statement on
// the embedded database costs 0.5 to 1 ms of its thread, and the claim already costs one; our SDKs send a
// key with every non-streamed POST, so this halves what idempotency adds to each. The claim itself stays
// before the request runs: it is what stops a duplicate, also one sent after a restart. What this trades: if
// the process dies within the few milliseconds between sending an answer and writing it, the key stays "in
// progress" and a retry gets 409 until the claim counts as abandoned (ABANDONED_AFTER_MS), then runs again.
// On PostgreSQL (several processes) the answer is written before it is sent.
import { createHash } from "node:crypto";
import type { FastifyBaseLogger, FastifyReply, FastifyRequest } from "fastify";
import { canonicalJson } from "../canonical-json.ts";
import type { Clock } from "../clock.ts";
import type { Db } from "../db/index.ts";
import { AppError } from "../errors/app-error.ts";
import { claimKey, completeKey, findKey, purgeExpiredKeys, releaseKey } from "./idempotency-store.ts";
import { TRACE_HEADER } from "./trace.ts";
import type { App } from "./types.ts";

const TTL_MS = 24 * 60 * 60 * 1000;
// A claim still "in progress" after this long belongs to a process that died mid-request.
const ABANDONED_AFTER_MS = 5 * 60 * 1000;
const PURGE_EVERY_MS = 60 * 60 * 1000;
const KEY_PATTERN = /^[\x21-\x7e]{1,255}$/;
const NOT_STORED = new Set([400, 401, 403, 409, 413, 415, 422, 429]);
const METHODS = new Set(["POST", "PUT", "PATCH"]);

function fingerprint(request: FastifyRequest): string {
  return createHash("sha256")
    .update(`${request.method} ${request.url}\n${canonicalJson(request.body)}`)
    .digest("hex");
}

interface StoredAnswer {
  requestHash: string;
  traceId: string;
  status: number;
  body: string;
  contentType: string | null;
}

export function registerIdempotency(app: App, deps: { db: Db; clock: Clock; writeBehind: boolean; log: FastifyBaseLogger }): { close(): Promise<void> } {
  const { db, clock } = deps;
  app.decorateRequest("idempotency", undefined);
  const replayed = new WeakSet<FastifyRequest>();
  // Answers sent but not written yet (embedded database only), by scope and key; and the writes in order.
  const unwritten = new Map<string, StoredAnswer>();
  let writing: Promise<void> = Promise.resolve();
  const slot = (scope: string, key: string) => `${scope}\n${key}`;

  function replay(request: FastifyRequest, reply: FastifyReply, answer: { status: number | null; traceId: string; contentType: string | null; body: string | null }) {
    replayed.add(request);
    reply.code(answer.status ?? 200).header("idempotent-replayed", "true").header(TRACE_HEADER, answer.traceId);
    if (answer.contentType) reply.header("content-type", answer.contentType);
    return reply.send(answer.body ?? "");
  }

  /** Writes a sent answer behind it; a write that keeps failing is logged and left to the abandoned-claim rule. */
  function writeBehind(scope: string, key: string, answer: StoredAnswer): void {
    unwritten.set(slot(scope, key), answer);
    writing = writing.then(async () => {
      for (let attempt = 1; ; attempt++) {
        try {
          await completeKey(db, scope, key, { status: answer.status, body: answer.body, contentType: answer.contentType });
          break;
        } catch (error) {
          if (attempt >= 3) {
            deps.log.error({ err: error, scope, trace_id: answer.traceId }, "an idempotent answer could not be stored; its key stays in progress until abandoned");
            break;
          }
          await new Promise((resolve) => setTimeout(resolve, 50 * attempt));
        }
      }
      unwritten.delete(slot(scope, key));
    });
  }

  /** Claims the key for this request; false when another request holds or held it. */
  async function tryClaim(request: FastifyRequest, scope: string, key: string, hash: string): Promise<boolean> {
    const now = clock.nowMs();
    const claimed = await claimKey(db, scope, {
      key,
      requestHash: hash,
      traceId: request.id,
      createdAt: new Date(now),
      expiresAt: new Date(now + TTL_MS),
    });
    if (claimed) request.idempotency = { scope, key, hash };
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
    const pending = unwritten.get(slot(scope, key));
    if (pending) {
      if (pending.requestHash !== hash) throw new AppError("idempotency_key_reused");
      return replay(request, reply, pending);
    }
    // A few rounds: between reading a stale claim and replacing it, another request may win the key.
    for (let attempt = 0; attempt < 3; attempt++) {
      if (await tryClaim(request, scope, key, hash)) return;
      const row = await findKey(db, scope, key);
      if (!row) continue;
      const now = clock.nowMs();
      const abandoned = row.state === "in_progress" && now - row.createdAt.getTime() > ABANDONED_AFTER_MS;
      if (row.expiresAt.getTime() <= now || abandoned) {
        await releaseKey(db, scope, key, row.createdAt);
        continue;
      }
      if (row.requestHash !== hash) throw new AppError("idempotency_key_reused");
      if (row.state === "in_progress") {
        // Answered a moment ago and being written behind (embedded database): replay it from memory.
        const sent = unwritten.get(slot(scope, key));
        if (sent) return replay(request, reply, sent);
        throw new AppError("idempotency_key_in_use", { retryAfter: 1 });
      }
      return replay(request, reply, { status: row.responseStatus, traceId: row.traceId, contentType: row.contentType, body: row.responseBody });
    }
    throw new AppError("idempotency_key_in_use", { retryAfter: 1 });
  }

  async function settle(request: FastifyRequest, reply: FastifyReply, payload: unknown) {
    const claim = request.idempotency;
    if (!claim || replayed.has(request)) return payload;
    request.idempotency = undefined;
    const status = reply.statusCode;
    const storable = status < 500 && !NOT_STORED.has(status) && (payload === null || payload === undefined || typeof payload === "string" || Buffer.isBuffer(payload));
    if (!storable) {
      await releaseKey(db, claim.scope, claim.key);
      return payload;
    }
    const contentType = reply.getHeader("content-type");
    const answer = { status, body: payload === null || payload === undefined ? "" : payload.toString(), contentType: typeof contentType === "string" ? contentType : null };
    if (deps.writeBehind) writeBehind(claim.scope, claim.key, { ...answer, requestHash: claim.hash, traceId: request.id });
    else await completeKey(db, claim.scope, claim.key, answer);
    return payload;
  }

  // Attached to the routes that can change something (POST, PUT, PATCH), so reads pay nothing for it.
  app.addHook("onRoute", (route) => {
    const methods = Array.isArray(route.method) ? route.method : [route.method];
    if (!methods.some((m) => METHODS.has(m)) || route.config?.idempotent === false) return;
    route.preHandler = [claim, ...(route.preHandler ? [route.preHandler].flat() : [])];
    route.onSend = [settle, ...(route.onSend ? [route.onSend].flat() : [])];
  });


  const purge = setInterval(() => void purgeExpiredKeys(db, clock.now()).catch(() => {}), PURGE_EVERY_MS);
  purge.unref();
  app.addHook("onClose", async () => clearInterval(purge));
  app.addHook("onReady", async () => {
    await purgeExpiredKeys(db, clock.now());
  });
  // Called by the app before the database closes: the answers still behind are written.
  return { close: () => writing };
}
