import { and, eq } from "drizzle-orm";
import type { Db } from "../../db/index.ts";
import { conversations, executions, intents } from "../../db/schema.ts";

export type ConversationRow = typeof conversations.$inferSelect;
export type PendingTool = NonNullable<ConversationRow["pending"]>;

export async function findConversation(db: Db, workspaceId: string, id: string): Promise<ConversationRow | undefined> {
  const [row] = await db.select().from(conversations).where(and(eq(conversations.workspaceId, workspaceId), eq(conversations.id, id)));
  return row;
}

/** Written whole each turn: the transcript and what it waits on (null clears a pending tool). */
export async function upsertConversation(db: Db, workspaceId: string, id: string, state: Record<string, unknown>, pending: PendingTool | null, at: Date): Promise<void> {
  await db
    .insert(conversations)
    .values({ workspaceId, id, state, pending, createdAt: at, updatedAt: at })
    .onConflictDoUpdate({ target: [conversations.workspaceId, conversations.id], set: { state, pending, updatedAt: at } });
}

/** The conversation of the intent whose execution waits on this escalation, if any. */
export async function conversationOfEscalation(db: Db, workspaceId: string, escalationId: string): Promise<{ conversationId: string; intentId: string } | undefined> {
  const [row] = await db
    .select({ conversationId: intents.conversationId, intentId: intents.id })
    .from(executions)
    .innerJoin(intents, and(eq(intents.workspaceId, executions.workspaceId), eq(intents.id, executions.intentId)))
    .where(and(eq(executions.workspaceId, workspaceId), eq(executions.escalationId, escalationId)))
    .limit(1);
  return row?.conversationId ? { conversationId: row.conversationId, intentId: row.intentId } : undefined;
}
