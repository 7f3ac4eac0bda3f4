import { and, eq, lt } from "drizzle-orm";
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
