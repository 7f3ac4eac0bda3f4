// The governed actions' history: approved actions, kept while a rate rule is active, counted by rate rules
// ("at most 5 exports a day"). Governance owns it: every path that approves an action records it
// through the chokepoint, including calls a human approved and client tool calls approved in chat.
import { and, desc, eq, gt, lt } from "drizzle-orm";
import type { Db } from "../../db/index.ts";
import { governedActions } from "../../db/schema.ts";

export async function recordGovernedAction(db: Db, workspaceId: string, tool: string, at: Date): Promise<void> {
  await db.insert(governedActions).values({ workspaceId, tool, createdAt: at });
}

export async function recentGovernedActions(db: Db, workspaceId: string, since: Date, limit: number): Promise<{ tool: string; at: Date }[]> {
  const rows = await db
    .select({ tool: governedActions.tool, at: governedActions.createdAt })
    .from(governedActions)
    .where(and(eq(governedActions.workspaceId, workspaceId), gt(governedActions.createdAt, since)))
    .orderBy(desc(governedActions.createdAt))
    .limit(limit);
  return rows.reverse();
}

export async function pruneGovernedActions(db: Db, workspaceId: string, before: Date): Promise<void> {
  await db.delete(governedActions).where(and(eq(governedActions.workspaceId, workspaceId), lt(governedActions.createdAt, before)));
}
