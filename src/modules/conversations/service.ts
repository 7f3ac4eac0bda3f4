// Conversations: what a conversation_id resumes. Intent and chat keep their transcripts here (each in its
// own shape, under `state`), and the dialogue state both read the same way: the tool a clarification
// asked about, the fields the engine asked for and the arguments already known, so that a bare answer
// ("Lisbon", "42") is given to that tool's fields instead of being re-read from the assistant's prose.
import type { Db } from "../../db/index.ts";
import type { EngineResult } from "../../engine/intent/engine.ts";
import { conversationOfEscalation, findConversation, upsertConversation, type PendingTool } from "./store.ts";

export type { PendingTool } from "./store.ts";

export interface Conversation {
  id: string;
  state: Record<string, unknown>;
  /** The tool the last answer asked about (a clarification), until the conversation ends otherwise. */
  pending?: PendingTool;
}

export interface ConversationService {
  get(workspaceId: string, id: string): Promise<Conversation | undefined>;
  /** The whole conversation as it now stands; `pending` absent clears what it waited on. */
  save(workspaceId: string, conversation: Conversation, at: Date): Promise<void>;
  /** The conversation whose intent's execution waits on this escalation (a reviewer's question goes there). */
  ofEscalation(workspaceId: string, escalationId: string): Promise<{ conversationId: string; intentId: string } | undefined>;
}

export function createConversationService(deps: { db: Db }): ConversationService {
  const { db } = deps;
  return {
    get: async (workspaceId, id) => {
      const row = await findConversation(db, workspaceId, id);
      return row ? { id: row.id, state: row.state, ...(row.pending ? { pending: row.pending } : {}) } : undefined;
    },
    save: (workspaceId, conversation, at) => upsertConversation(db, workspaceId, conversation.id, conversation.state, conversation.pending ?? null, at),
    ofEscalation: (workspaceId, escalationId) => conversationOfEscalation(db, workspaceId, escalationId),
  };
}

/**
 * What a conversation waits on after an answer: a clarification about a tool keeps the tool, the fields it
 * asks for and the arguments known; a connection to make leaves an open question as it was; anything else
 * (an execution, a block, a direct answer) ends it.
 */
export function pendingAfter(outcome: EngineResult["outcome"], before: PendingTool | undefined): { pending?: PendingTool } {
  if (outcome.type === "clarify" && outcome.tool) {
    const fields = outcome.questions.flatMap((q) => (q.field ? [q.field] : []));
    return { pending: { tool: outcome.tool.name, fields, arguments: outcome.arguments } };
  }
  if (outcome.type === "connect_required" && before) return { pending: before };
  return {};
}
