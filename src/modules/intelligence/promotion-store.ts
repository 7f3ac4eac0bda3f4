// What intelligence records were promoted to: SQL only, filtered by the workspace first.
import { and, eq } from "drizzle-orm";
import type { Db } from "../../db/index.ts";
import { promotions } from "../../db/schema.ts";

export type PromotionRow = typeof promotions.$inferSelect;
export type PromotionKind = PromotionRow["kind"];

export async function findPromotion(db: Db, workspaceId: string, intentId: string, kind: PromotionKind): Promise<PromotionRow | undefined> {
  const [row] = await db
    .select()
    .from(promotions)
    .where(and(eq(promotions.workspaceId, workspaceId), eq(promotions.intentId, intentId), eq(promotions.kind, kind)));
  return row;
}

/** Records a promotion; false when the record was already promoted to this kind (by a concurrent request). */
export async function insertPromotion(db: Db, workspaceId: string, row: Omit<PromotionRow, "workspaceId">): Promise<boolean> {
  const inserted = await db
    .insert(promotions)
    .values({ ...row, workspaceId })
    .onConflictDoNothing()
    .returning({ kind: promotions.kind });
  return inserted.length > 0;
}
