import { and, asc, desc, eq, inArray, isNull, sql } from "drizzle-orm";
import type { Db } from "../../db/index.ts";
import { policies, policyVersions } from "../../db/schema.ts";

export type PolicyRow = typeof policies.$inferSelect;
export type PolicyVersionRow = typeof policyVersions.$inferSelect;
export type NewPolicyVersion = Omit<typeof policyVersions.$inferInsert, "workspaceId" | "policyId" | "version">;

const live = (workspaceId: string) => and(eq(policies.workspaceId, workspaceId), isNull(policies.deletedAt));

export async function findPolicyByName(db: Db, workspaceId: string, name: string): Promise<PolicyRow | undefined> {
  const [row] = await db.select().from(policies).where(and(live(workspaceId), eq(policies.name, name)));
  return row;
}

/** Inserts a policy and its first version; undefined when the name is taken (the partial unique index). */
export async function insertPolicy(db: Db, workspaceId: string, row: { id: string; name: string; createdAt: Date }, version: NewPolicyVersion): Promise<PolicyRow | undefined> {
  const [created] = await db
    .insert(policies)
    .values({ ...row, workspaceId, status: "pending_confirmation", latestVersion: 1, updatedAt: row.createdAt })
    .onConflictDoNothing()
    .returning();
  if (!created) return undefined;
  await db.insert(policyVersions).values({ ...version, workspaceId, policyId: row.id, version: 1 });
  return created;
}

export async function getPolicy(db: Db, workspaceId: string, id: string, forUpdate = false): Promise<PolicyRow | undefined> {
  const query = db.select().from(policies).where(and(live(workspaceId), eq(policies.id, id)));
  const [row] = forUpdate ? await query.for("update") : await query;
  return row;
}

export async function listPolicies(db: Db, workspaceId: string, page: { limit: number; offset: number }): Promise<{ rows: PolicyRow[]; total: number }> {
  const rows = await db.select().from(policies).where(live(workspaceId)).orderBy(asc(policies.createdAt), asc(policies.id)).limit(page.limit).offset(page.offset);
  const [count] = await db.select({ n: sql<number>`count(*)::int` }).from(policies).where(live(workspaceId));
  return { rows, total: Number(count?.n ?? 0) };
}

export async function versionsOf(db: Db, workspaceId: string, policyIds: string[]): Promise<PolicyVersionRow[]> {
  if (policyIds.length === 0) return [];
  return db
    .select()
    .from(policyVersions)
    .where(and(eq(policyVersions.workspaceId, workspaceId), inArray(policyVersions.policyId, policyIds)))
    .orderBy(asc(policyVersions.policyId), desc(policyVersions.version));
}

export async function addVersion(db: Db, workspaceId: string, policyId: string, version: number, row: NewPolicyVersion, at: Date): Promise<void> {
  await db.insert(policyVersions).values({ ...row, workspaceId, policyId, version });
  await db.update(policies).set({ latestVersion: version, updatedAt: at }).where(and(eq(policies.workspaceId, workspaceId), eq(policies.id, policyId)));
}

export async function markConfirmed(db: Db, workspaceId: string, policyId: string, version: number, at: Date, by: string | null): Promise<void> {
  await db
    .update(policyVersions)
    .set({ confirmedAt: at, confirmedBy: by })
    .where(and(eq(policyVersions.workspaceId, workspaceId), eq(policyVersions.policyId, policyId), eq(policyVersions.version, version), isNull(policyVersions.confirmedAt)));
  await db.update(policies).set({ activeVersion: version, status: "active", updatedAt: at }).where(and(eq(policies.workspaceId, workspaceId), eq(policies.id, policyId)));
}

export async function setPolicyStatus(db: Db, workspaceId: string, policyId: string, status: PolicyRow["status"], at: Date): Promise<void> {
  await db.update(policies).set({ status, updatedAt: at }).where(and(eq(policies.workspaceId, workspaceId), eq(policies.id, policyId)));
}

export async function softDeletePolicy(db: Db, workspaceId: string, policyId: string, at: Date): Promise<boolean> {
  const rows = await db.update(policies).set({ deletedAt: at, status: "disabled", updatedAt: at }).where(and(live(workspaceId), eq(policies.id, policyId))).returning({ id: policies.id });
  return rows.length > 0;
}

/** The clauses in force: the active version of every active policy of the workspace. */
export async function activeVersions(db: Db, workspaceId: string): Promise<{ policy: PolicyRow; version: PolicyVersionRow }[]> {
  const rows = await db
    .select({ policy: policies, version: policyVersions })
    .from(policies)
    .innerJoin(policyVersions, and(eq(policyVersions.policyId, policies.id), eq(policyVersions.version, policies.activeVersion)))
    .where(and(live(workspaceId), eq(policies.status, "active")));
  return rows;
}
