import { and, asc, eq, gt, lt, or, sql } from "drizzle-orm";
import type { Db } from "../db/index.ts";
import { idempotencyKeys } from "../db/schema.ts";

export type IdempotencyRow = typeof idempotencyKeys.$inferSelect;

/** Claims (scope, key) for a new request; false when another request holds or held it. */
export async function claimKey(
  db: Db,
  scope: string,
  row: { key: string; requestHash: string; traceId: string; createdAt: Date; expiresAt: Date },
): Promise<boolean> {
  const inserted = await db
    .insert(idempotencyKeys)
    .values({ scope, ...row, state: "in_progress" })
    .onConflictDoNothing()
    .returning({ key: idempotencyKeys.key });
  return inserted.length === 1;
}

export async function findKey(db: Db, scope: string, key: string): Promise<IdempotencyRow | undefined> {
  const [row] = await db
    .select()
    .from(idempotencyKeys)
    .where(and(eq(idempotencyKeys.scope, scope), eq(idempotencyKeys.key, key)))
    .limit(1);
  return row;
}

export async function completeKey(
  db: Db,
  scope: string,
  key: string,
  response: { status: number; body: string; contentType: string | null },
): Promise<void> {
  await db
    .update(idempotencyKeys)
    .set({ state: "completed", responseStatus: response.status, responseBody: response.body, contentType: response.contentType })
    .where(and(eq(idempotencyKeys.scope, scope), eq(idempotencyKeys.key, key)));
}

/** Frees a key. With `createdAt`, only the very claim that was read (so a newer claim is never freed). */
export async function releaseKey(db: Db, scope: string, key: string, createdAt?: Date): Promise<void> {
  const match = and(eq(idempotencyKeys.scope, scope), eq(idempotencyKeys.key, key));
  await db.delete(idempotencyKeys).where(createdAt ? and(match, eq(idempotencyKeys.createdAt, createdAt)) : match);
}

/** Purges expired entries of every workspace: housekeeping, not a read on anybody's behalf. */
export async function purgeExpiredKeys(db: Db, now: Date): Promise<void> {
  await db.delete(idempotencyKeys).where(lt(idempotencyKeys.expiresAt, now));
}

/**
 * Writes claims and answers first held in memory (embedded database, see idempotency.ts), several in one
 * statement (one commit): inserts each row, replaces one that has expired, or completes that very claim
 * (same trace id and claim time). Returns the rows written, as `scope\nkey`; a row missing from it was found
 * held by another live claim, which the filter in memory should have ruled out. At most one row per
 * (scope, key) in a call: an upsert cannot touch one row twice.
 */
export async function writeKeys(db: Db, rows: IdempotencyRow[]): Promise<Set<string>> {
  // Plain SQL: it runs before every keyed answer, and the query builder's mapping of ten columns cost more of
  // the event loop than the rest of the claim.
  const values = sql.join(
    rows.map(
      (row) =>
        sql`(${row.scope}, ${row.key}, ${row.requestHash}, ${row.state}, ${row.responseStatus}, ${row.responseBody}, ${row.contentType}, ${row.traceId}, ${row.createdAt.toISOString()}, ${row.expiresAt.toISOString()})`,
    ),
    sql`, `,
  );
  const written = (await db.execute(sql`
    insert into idempotency_keys as k (scope, key, request_hash, state, response_status, response_body, content_type, trace_id, created_at, expires_at)
    values ${values}
    on conflict (scope, key) do update set request_hash = excluded.request_hash, state = excluded.state, response_status = excluded.response_status,
      response_body = excluded.response_body, content_type = excluded.content_type, trace_id = excluded.trace_id, created_at = excluded.created_at, expires_at = excluded.expires_at
    where k.expires_at <= excluded.created_at or (k.trace_id = excluded.trace_id and k.created_at = excluded.created_at)
    returning scope, key`)) as unknown as { rows: { scope: string; key: string }[] };
  return new Set(written.rows.map((row) => `${row.scope}\n${row.key}`));
}

/** One page of the keys still live at `now` (every workspace), after `from`, in key order: loads the filter. */
export async function liveKeys(db: Db, now: Date, from: { scope: string; key: string } | null, limit: number) {
  const after = from ? or(gt(idempotencyKeys.scope, from.scope), and(eq(idempotencyKeys.scope, from.scope), gt(idempotencyKeys.key, from.key))) : undefined;
  return db
    .select({ scope: idempotencyKeys.scope, key: idempotencyKeys.key, createdAt: idempotencyKeys.createdAt })
    .from(idempotencyKeys)
    .where(and(gt(idempotencyKeys.expiresAt, now), after))
    .orderBy(asc(idempotencyKeys.scope), asc(idempotencyKeys.key))
    .limit(limit);
}
