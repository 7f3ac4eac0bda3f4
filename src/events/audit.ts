// The audit log: every mutation writes one entry, in the same transaction as the change it records, so an
// entry exists exactly when the change does. Entries of a workspace form a SHA-256 hash chain.
import { createHash } from "node:crypto";
import { desc, eq, sql, type SQL } from "drizzle-orm";
import { canonicalJson } from "../canonical-json.ts";
import type { Clock } from "../clock.ts";
import type { Db } from "../db/index.ts";
import { auditEntries, auditHeads } from "../db/schema.ts";
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
  const { before, after } = canonicalAround(entry);
  return createHash("sha256").update(prevHash).update(`${before}${entry.seq}${after}`).digest("hex");
}

/**
 * The canonical JSON of an entry's hashed fields, in chain order, as the text before and after its seq (an
 * integer, written as its digits): appends compute the halves here and the database joins them around the
 * seq it assigns.
 */
function canonicalAround(entry: Omit<AuditEntry, "hash" | "prevHash" | "seq">): { before: string; after: string } {
  return {
    before: `${canonicalJson([entry.id, entry.workspaceId]).slice(0, -1)},`,
    after: `,${canonicalJson([entry.actorType, entry.actorId, entry.action, entry.resourceType, entry.resourceId, entry.traceId, entry.details, entry.createdAt.toISOString()]).slice(1)}`,
  };
}

export interface AuditLog {
  /** Appends an entry inside the caller's transaction, or alone (one statement) when given the database. */
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
      const entry = {
        id: ids.make("aud"),
        workspaceId: actor.workspaceId,
        actorType: actor.type,
        actorId: actor.id ?? null,
        action: record.action,
        resourceType: record.resourceType,
        resourceId: record.resourceId ?? null,
        traceId: actor.traceId ?? null,
        details: record.details ?? {},
        createdAt: clock.now(),
      };
      // One statement, one round trip: the head row moves (its lock serialises a workspace's appends, and
      // ON CONFLICT reads its latest committed version, so concurrent writers each get the next seq) and the
      // entry it returns is inserted. The hash is chainHash's recipe, with the seq only known here spliced
      // into the canonical text between the two halves computed from the entry.
      const { before, after } = canonicalAround(entry);
      const hashOf = (prev: SQL, seq: SQL) => sql`encode(sha256(convert_to(${prev} || ${before}::text || (${seq})::text || ${after}::text, 'UTF8')), 'hex')`;
      await tx.execute(sql`
        with head as (
          insert into ${auditHeads} as h (workspace_id, seq, prev_hash, hash)
          values (${entry.workspaceId}, 1, ${GENESIS}, ${hashOf(sql`${GENESIS}::text`, sql`1`)})
          on conflict (workspace_id) do update
            set seq = h.seq + 1, prev_hash = h.hash, hash = ${hashOf(sql`h.hash`, sql`h.seq + 1`)}
          returning seq, prev_hash, hash
        )
        insert into ${auditEntries} (id, workspace_id, seq, actor_type, actor_id, action, resource_type, resource_id, trace_id, details, created_at, prev_hash, hash)
        select ${entry.id}, ${entry.workspaceId}, head.seq, ${entry.actorType}, ${entry.actorId}, ${entry.action}, ${entry.resourceType}, ${entry.resourceId},
          ${entry.traceId}, ${JSON.stringify(entry.details)}::jsonb, ${entry.createdAt.toISOString()}::timestamptz, head.prev_hash, head.hash
        from head`);
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
