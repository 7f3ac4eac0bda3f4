// The governed actions' history: approved actions, kept while a rate rule is active, counted by rate rules
// ("at most 5 exports a day"). Governance owns it: every path that approves an action records it
// through the chokepoint, including calls a human approved and client tool calls approved in chat.
import { and, desc, eq, gt, lt } from "drizzle-orm";
import type { Db } from "../../db/index.ts";
import { governedActions } from "../../db/schema.ts";
import { isSecretKey } from "./secret-keys.ts";

export type HistoryArgs = Record<string, string | number | boolean>;

export interface PastAction {
  tool: string;
  at: Date;
  /** Its short scalar arguments, by path: what a rate counted per party compares ("of the same user"). */
  args?: HistoryArgs;
}

// Only what names a party is kept: short texts, numbers and yes/no values, top level and one level down.
// Long texts (a message body, a note) never name one and are not copied into the history.
const MAX_TEXT = 120;
const MAX_KEYS = 24;

/** The arguments of an action a rate rule could group by, flattened to paths ("customer.id"). */
export function historyArgs(args: Record<string, unknown> | undefined): HistoryArgs | undefined {
  if (!args) return undefined;
  const out: HistoryArgs = {};
  let n = 0;
  const keep = (path: string, value: unknown) => {
    // (A secret is never copied, whatever its length.)
    if (n >= MAX_KEYS || path.split(".").some(isSecretKey)) return;
    if ((typeof value === "string" && value.length > 0 && value.length <= MAX_TEXT) || typeof value === "number" || typeof value === "boolean") {
      out[path] = value;
      n++;
    }
  };
  for (const [key, value] of Object.entries(args)) {
    if (value && typeof value === "object" && !Array.isArray(value)) for (const [inner, v] of Object.entries(value as Record<string, unknown>)) keep(`${key}.${inner}`, v);
    else keep(key, value);
  }
  return n > 0 ? out : undefined;
}

export async function recordGovernedAction(db: Db, workspaceId: string, tool: string, at: Date, args?: Record<string, unknown>): Promise<void> {
  await db.insert(governedActions).values({ workspaceId, tool, createdAt: at, args: historyArgs(args) ?? null });
}

export async function recentGovernedActions(db: Db, workspaceId: string, since: Date, limit: number): Promise<PastAction[]> {
  const rows = await db
    .select({ tool: governedActions.tool, at: governedActions.createdAt, args: governedActions.args })
    .from(governedActions)
    .where(and(eq(governedActions.workspaceId, workspaceId), gt(governedActions.createdAt, since)))
    .orderBy(desc(governedActions.createdAt))
    .limit(limit);
  return rows.reverse().map((r) => ({ tool: r.tool, at: r.at, ...(r.args ? { args: r.args } : {}) }));
}

export async function pruneGovernedActions(db: Db, workspaceId: string, before: Date): Promise<void> {
  await db.delete(governedActions).where(and(eq(governedActions.workspaceId, workspaceId), lt(governedActions.createdAt, before)));
}
