// Idempotency for every POST, PUT and PATCH that carries an Idempotency-Key: per workspace, 24 hours, in
// the database so it holds across processes. The first request claims the key; a repeat of the same
// request gets the stored status and body byte for byte (Idempotent-Replayed: true), a different request
// with the same key 422, a repeat while the first still runs 409 with Retry-After: 1. Answers that say the
// request was never processed (validation, auth, limits, conflicts) and 5xx are not stored: the key is
// freed so a corrected or later retry can run.
import { createHash } from "node:crypto";
import type { FastifyReply, FastifyRequest } from "fastify";
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

export function registerIdempotency(app: App, deps: { db: Db; clock: Clock }): void {
  const { db, clock } = deps;
  app.decorateRequest("idempotency", undefined);
  const replayed = new WeakSet<FastifyRequest>();

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
    if (claimed) request.idempotency = { scope, key };
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
      if (row.state === "in_progress") throw new AppError("idempotency_key_in_use", { retryAfter: 1 });
      replayed.add(request);
      reply.code(row.responseStatus ?? 200).header("idempotent-replayed", "true").header(TRACE_HEADER, row.traceId);
      if (row.contentType) reply.header("content-type", row.contentType);
      return reply.send(row.responseBody ?? "");
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
    await completeKey(db, claim.scope, claim.key, {
      status,
      body: payload === null || payload === undefined ? "" : payload.toString(),
      contentType: typeof contentType === "string" ? contentType : null,
    });
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
}
