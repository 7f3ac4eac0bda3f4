// The audit log: every mutation writes one entry, in the same transaction as the change it records, so an
// entry exists exactly when the change does. Entries of a workspace form a SHA-256 hash chain.
import { createHash } from "node:crypto";
import { desc, eq, sql } from "drizzle-orm";
import { canonicalJson } from "../canonical-json.ts";
import type { Clock } from "../clock.ts";
import type { Db } from "../db/index.ts";
import { auditEntries } from "../db/schema.ts";
import type { Ids } from "../ids.ts";

/** Who did it and in which request: every service mutation receives this. */
export interface Actor {
  workspaceId: string;
  type: "key" | "operator" | "system";
  /** The API key id for keys; absent for the operator and the system. */
  id?: string;
  traceId?: string;
}

export interface AuditRecord {
  action: string;
  resourceType: string;
  resourceId?: string;
  /** Non-secret facts about the change. Callers never put secrets here. */
  details?: Record<string, unknown>;
}

export type AuditEntry = typeof auditEntries.$inferSelect;

/** The `prev_hash` of a workspace's first entry. */
export const GENESIS = "0".repeat(64);

/**
 * The hash of an entry: SHA-256 over the previous entry's hash (hex text) then the canonical JSON of the
 * entry's fields in this order. Exported so the audit API (and docs) verify with the very same recipe.
 */
export function chainHash(prevHash: string, entry: Omit<AuditEntry, "hash" | "prevHash">): string {
  const canonical = canonicalJson([
    entry.id,
    entry.workspaceId,
    entry.seq,
    entry.actorType,
    entry.actorId,
    entry.action,
    entry.resourceType,
    entry.resourceId,
    entry.traceId,
    entry.details,
    entry.createdAt.toISOString(),
  ]);
  return createHash("sha256").update(prevHash).update(canonical).digest("hex");
}

export interface AuditLog {
  /** Appends an entry inside the caller's transaction. */
  record(tx: Db, actor: Actor, record: AuditRecord): Promise<void>;
  /** Entries of a workspace, newest first. */
  list(workspaceId: string, limit: number): Promise<AuditEntry[]>;
  /** Recomputes the chain; the first broken entry's seq, or null when intact. */
  verify(workspaceId: string): Promise<number | null>;
}

export function createAuditLog(deps: { db: Db; ids: Ids; clock: Clock }): AuditLog {
  const { db, ids, clock } = deps;
  return {
    record: async (tx, actor, record) => {
      // Serialises appends per workspace (released at commit), so seq and the chain stay linear.
      await tx.execute(sql`select pg_advisory_xact_lock(hashtext(${`audit:${actor.workspaceId}`}))`);
      const [last] = await tx
        .select({ seq: auditEntries.seq, hash: auditEntries.hash })
        .from(auditEntries)
        .where(eq(auditEntries.workspaceId, actor.workspaceId))
        .orderBy(desc(auditEntries.seq))
        .limit(1);
      const entry = {
        id: ids.make("aud"),
        workspaceId: actor.workspaceId,
        seq: (last?.seq ?? 0) + 1,
        actorType: actor.type,
        actorId: actor.id ?? null,
        action: record.action,
        resourceType: record.resourceType,
        resourceId: record.resourceId ?? null,
        traceId: actor.traceId ?? null,
        details: record.details ?? {},
        createdAt: clock.now(),
      };
      const prevHash = last?.hash ?? GENESIS;
      await tx.insert(auditEntries).values({ ...entry, prevHash, hash: chainHash(prevHash, entry) });
    },
    list: (workspaceId, limit) =>
      db.select().from(auditEntries).where(eq(auditEntries.workspaceId, workspaceId)).orderBy(desc(auditEntries.seq)).limit(limit),
    verify: async (workspaceId) => {
      const rows = await db.select().from(auditEntries).where(eq(auditEntries.workspaceId, workspaceId)).orderBy(auditEntries.seq);
      let prev = GENESIS;
      for (const row of rows) {
        if (row.prevHash !== prev || chainHash(prev, row) !== row.hash) return row.seq;
        prev = row.hash;
      }
      return null;
    },
  };
}
