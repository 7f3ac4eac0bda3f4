import { shortText } from "../../safe-json.ts";
import type { Clock } from "../../clock.ts";
import type { Database, Db } from "../../db/index.ts";
import { AppError } from "../../errors/app-error.ts";
import type { Actor, AuditLog } from "../../events/audit.ts";
import type { Ids } from "../../ids.ts";
import { contentStems } from "../../engine/intent/rank.ts";
import type { MemorySearch } from "../../engine/ports.ts";
import { isEnglishWord } from "../../engine/language/nlp.ts";
import { findSecret, stringsIn } from "./secrets.ts";
import { MAX_RECALL_LIMIT, Recall, RECALL_BUDGET, RECALL_MAX_ITEMS, RECALL_WAIT_ITEMS, type RecallIndex, type RecallLimits, type RecallSource } from "./recall.ts";
import {
  addTerms,
  announceChange,
  correctTerms,
  countByType,
  countMemory,
  deleteMemory,
  findMemory,
  insertMemory,
  replaceMemory,
  searchFullText,
  itemForRecall,
  itemsForRecall,
  itemsOfType,
  MEMORY_CHANNEL,
  parseChange,
  termsOf,
  type MemoryRow,
  type SearchHit,
} from "./store.ts";

export const MEMORY_TYPES = ["reference", "preference", "episode", "precedent", "note", "project"] as const;
export const MEMORY_SCOPES = ["tenant", "global", "personal"] as const;
export type MemoryType = (typeof MEMORY_TYPES)[number];

export interface MemoryInput {
  type?: unknown;
  content?: unknown;
  domain?: unknown;
  scope?: unknown;
  authority?: unknown;
  tags?: unknown;
}

/** A search's answer: the engine's MemorySearch (which the intent engine reads), with this module's rows. */
export interface SearchResult extends MemorySearch {
  hits: SearchHit[];
}

export interface MemoryService {
  create(actor: Actor, input: MemoryInput): Promise<MemoryRow>;
  get(workspaceId: string, id: string): Promise<MemoryRow>;
  search(workspaceId: string, query: string | undefined, filter: { domain?: string; tag?: string; limit?: number }): Promise<SearchResult>;
  /**
   * Items related to a question, for answering it: its content words (misspelt ones read as the workspace's
   * own words), any of them, ranked by relevance; the caller judges how well an item covers the question.
   * Answered in process from the workspace's recall index (recall.ts), without a database round trip once
   * the workspace is loaded; a workspace too large to hold is answered by SQL (relatedFromSql).
   */
  related(workspaceId: string, words: string[], limit: number): Promise<SearchResult>;
  /** The newest items of one type, at most `limit`. */
  ofType(workspaceId: string, type: string, limit: number): Promise<MemoryRow[]>;
  /**
   * The workspace's preference items as text, read on every planned action (intent, chat): cached,
   * dropped on every change in this process, read again after a few seconds for other processes' changes.
   */
  preferences(workspaceId: string): Promise<{ id: string; text: string }[]>;
  update(actor: Actor, id: string, input: MemoryInput): Promise<MemoryRow>;
  delete(actor: Actor, id: string): Promise<void>;
  /** How many items the workspace holds, per type. */
  counts(workspaceId: string): Promise<Record<string, number>>;
  /** Listens for other processes' memory writes (their workspaces' indexes are dropped, then loaded again). */
  start(): Promise<void>;
  stop(): Promise<void>;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const DEFAULT_LIMIT = 10;
const MAX_LIMIT = MAX_RECALL_LIMIT;
// A question's words looked up at most: a longer message is not a question about more things.
const MAX_QUESTION_TERMS = 24;

function checkId(id: string): void {
  if (!UUID.test(id)) throw new AppError("invalid_memory_id", { message: `"${id.slice(0, 64)}" is not a well-formed UUID.` });
}

function invalid(field: string, message: string): AppError {
  return new AppError("invalid_request", { message: `Invalid request: ${field} ${message}.`, details: [{ field, message }] });
}

/** The fields of an item after applying `input` over `base` (a new item when base is undefined). */
function normalise(input: MemoryInput, base?: MemoryRow) {
  const type = input.type ?? base?.type;
  if (typeof type !== "string" || !(MEMORY_TYPES as readonly string[]).includes(type)) {
    throw new AppError("invalid_memory_type", {
      message: `The memory type ${shortText(type ?? null)} is not one of ${MEMORY_TYPES.join(", ")}.`,
    });
  }
  const content = (input.content ?? base?.content) as Record<string, unknown> | undefined;
  const text = content && typeof content === "object" && !Array.isArray(content) ? content.text : undefined;
  if (typeof text !== "string" || text.trim() === "") {
    throw new AppError("memory_creation_failed", {
      message: "The memory item could not be stored: content.text must be a non-empty string.",
      details: [{ field: "content.text", message: "must be a non-empty string" }],
    });
  }
  const secret = stringsIn(content).map(findSecret).find(Boolean);
  if (secret) {
    throw new AppError("memory_contains_secret", {
      message: `The content looks like it holds a secret (${secret}); memory is searchable and shared, so secrets are not stored there.`,
    });
  }
  const domain = input.domain ?? base?.domain ?? "general";
  if (typeof domain !== "string" || domain.trim() === "" || domain.length > 100) throw invalid("domain", "must be a non-empty string of at most 100 characters");
  const scope = input.scope ?? base?.scope ?? "tenant";
  if (typeof scope !== "string" || !(MEMORY_SCOPES as readonly string[]).includes(scope)) throw invalid("scope", `must be one of ${MEMORY_SCOPES.join(", ")}`);
  const authority = input.authority ?? base?.authority ?? 5;
  if (!Number.isInteger(authority) || (authority as number) < 1 || (authority as number) > 10) throw invalid("authority", "must be a whole number from 1 to 10");
  const tags = input.tags ?? base?.tags ?? [];
  if (!Array.isArray(tags) || tags.some((t) => typeof t !== "string" || t === "" || t.length > 100) || tags.length > 50) {
    throw invalid("tags", "must be a list of at most 50 non-empty strings");
  }
  return {
    type,
    content: content as Record<string, unknown>,
    body: text,
    domain: domain.trim(),
    scope,
    authority: authority as number,
    tags: [...new Set(tags as string[])],
  };
}

/** The item's fields, checked as create checks them (setup's dry run uses it); throws like create. */
export function checkMemory(input: MemoryInput): ReturnType<typeof normalise> {
  return normalise(input);
}

/** A question's words as memory's lexicon keeps them (lower case, 3 to 40 letters or digits), each once. */
function questionTerms(words: string[]): string[] {
  return [...new Set(words.flatMap((w) => termsOf(w)))].slice(0, MAX_QUESTION_TERMS);
}

/** The words worth a typo correction: those no English dictionary knows ("refnd", not "use" or "right"). */
function correctable(terms: string[]): string[] {
  return terms.filter((t) => !isEnglishWord(t));
}

/**
 * `related` on a workspace's recall index: the items holding any of the question's words (or their
 * corrections), with the weight of every stem of the question in this workspace, for the caller to judge
 * which item answers it.
 */
export function relatedFromIndex(index: RecallIndex, words: string[], limit: number): SearchResult {
  const terms = questionTerms(words);
  if (terms.length === 0) return { hits: [], match: "none" };
  const { hits, corrected } = index.recall(terms, limit);
  if (hits.length === 0) return { hits, match: "none" };
  const df: Record<string, number> = {};
  for (const word of [...words, ...corrected.values()]) for (const s of contentStems(word)) df[s] ??= index.df(s);
  const frequencies = { items: index.size, df };
  return corrected.size > 0 ? { hits, match: "similar", corrected: Object.fromEntries(corrected), frequencies } : { hits, match: "any_word", frequencies };
}

/**
 * `related` on SQL: the workspace's lexicon corrects the words it does not know (trigram similarity), then
 * full-text search ranks the items holding any word. For workspaces too large to hold in process, and the
 * baseline of the memory benchmark.
 */
export async function relatedFromSql(db: Db, workspaceId: string, words: string[], limit: number): Promise<SearchResult> {
  const terms = questionTerms(words);
  if (terms.length === 0) return { hits: [], match: "none" };
  try {
    const corrections = await correctTerms(db, workspaceId, correctable(terms));
    const text = [...terms, ...corrections.values()].join(" ");
    const hits = await searchFullText(db, workspaceId, text, { limit: Math.min(Math.max(limit, 1), MAX_LIMIT) }, false);
    if (hits.length === 0) return { hits, match: "none" };
    return corrections.size > 0 ? { hits, match: "similar", corrected: Object.fromEntries(corrections) } : { hits, match: "any_word" };
  } catch (error) {
    throw new AppError("memory_search_failed", { cause: error });
  }
}

// Preference items read per workspace (the newest first), and how long a read is reused.
const MAX_PREFERENCES = 200;
const PREFERENCES_TTL_MS = 5_000;

export function createMemoryService(deps: { database: Database; ids: Ids; clock: Clock; audit: AuditLog; recall?: Partial<RecallLimits> }): MemoryService {
  const { database, ids, clock, audit } = deps;
  const db = database.db;
  const preferenceCache = new Map<string, { at: number; value: Promise<{ id: string; text: string }[]> }>();
  const limits: RecallLimits = { maxItems: RECALL_MAX_ITEMS, budget: RECALL_BUDGET, waitItems: RECALL_WAIT_ITEMS, ...deps.recall };
  const source: RecallSource = {
    count: (workspaceId) => countMemory(db, workspaceId),
    items: (workspaceId, limit) => itemsForRecall(db, workspaceId, limit),
    item: (workspaceId, id) => itemForRecall(db, workspaceId, id),
  };
  const recall = new Recall(source, limits, () => clock.nowMs());
  // Marks this process's announcements, which come back to it: its own writes are in its indexes already.
  const origin = ids.uuid();
  let unlisten: (() => Promise<void>) | undefined;
  const service: MemoryService = {
    create: async (actor, input) => {
      const fields = normalise(input);
      const now = clock.now();
      const created = await db.transaction(async (tx) => {
        const row = await insertMemory(tx, actor.workspaceId, { id: ids.uuid(), ...fields, version: 1, createdAt: now, updatedAt: now });
        await addTerms(tx, actor.workspaceId, [row.body]);
        await audit.record(tx, actor, { action: "memory.create", resourceType: "memory", resourceId: row.id, details: { type: row.type, domain: row.domain } });
        await announceChange(tx, actor.workspaceId, origin, row.id);
        return row;
      });
      recall.upsert(actor.workspaceId, created);
      return created;
    },

    get: async (workspaceId, id) => {
      checkId(id);
      const row = await findMemory(db, workspaceId, id);
      if (!row) throw new AppError("memory_not_found", { message: `No memory item ${id} in this workspace.` });
      return row;
    },

    ofType: (workspaceId, type, limit) => itemsOfType(db, workspaceId, type, limit),

    related: async (workspaceId, words, limit) => {
      if (questionTerms(words).length === 0) return { hits: [], match: "none" };
      const index = await recall.index(workspaceId);
      if (!index) return relatedFromSql(db, workspaceId, words, limit);
      return relatedFromIndex(index, words, limit);
    },

    search: async (workspaceId, query, filter) => {
      if (query === undefined || query.trim() === "") throw new AppError("memory_query_required");
      const limit = Math.min(Math.max(filter.limit || DEFAULT_LIMIT, 1), MAX_LIMIT);
      const scoped = { domain: filter.domain || undefined, tag: filter.tag || undefined, limit };
      const text = query.trim().slice(0, 1000);
      try {
        const exact = await searchFullText(db, workspaceId, text, scoped, true);
        if (exact.length > 0) return { hits: exact, match: "all_words" };
        // Operators (quotes, -exclusion, or) mean the caller wrote a precise query: it is neither corrected
        // nor loosened.
        if (/["]|(^|\s)-\S|\bor\b/i.test(text)) return { hits: [], match: "none" };
        // Near-misses first (cheap: a lookup in the workspace's lexicon): words memory does not know are
        // read as their closest known word, and the corrected query must match every word.
        const corrections = await correctTerms(db, workspaceId, correctable(termsOf(text)));
        const corrected = corrections.size > 0 ? termsOf(text).map((word) => corrections.get(word) ?? word).join(" ") : undefined;
        const correctedFields = corrected ? { corrected: Object.fromEntries(corrections) } : {};
        if (corrected) {
          const hits = await searchFullText(db, workspaceId, corrected, scoped, true);
          if (hits.length > 0) return { hits, match: "similar", ...correctedFields };
        }
        // A question rarely has all its words in one item: any of them will do (the words as written and
        // their corrections), ranked by relevance.
        const relaxed = corrected ? `${text} ${[...corrections.values()].join(" ")}` : text;
        const hits = await searchFullText(db, workspaceId, relaxed, scoped, false);
        if (hits.length === 0) return { hits, match: "none" };
        return corrected ? { hits, match: "similar", ...correctedFields } : { hits, match: "any_word" };
      } catch (error) {
        throw new AppError("memory_search_failed", { cause: error });
      }
    },

    update: async (actor, id, input) => {
      checkId(id);
      const updated = await db.transaction(async (tx) => {
        const previous = await findMemory(tx, actor.workspaceId, id, true);
        if (!previous) throw new AppError("memory_not_found", { message: `No memory item ${id} in this workspace.` });
        const fields = normalise(input, previous);
        const row = await replaceMemory(tx, actor.workspaceId, previous, { ...fields, version: previous.version + 1, updatedAt: clock.now() });
        await addTerms(tx, actor.workspaceId, [row.body]);
        await audit.record(tx, actor, { action: "memory.update", resourceType: "memory", resourceId: id, details: { version: row.version } });
        await announceChange(tx, actor.workspaceId, origin, id);
        return row;
      });
      recall.upsert(actor.workspaceId, updated);
      return updated;
    },

    delete: async (actor, id) => {
      checkId(id);
      await db.transaction(async (tx) => {
        if (!(await deleteMemory(tx, actor.workspaceId, id))) throw new AppError("memory_not_found", { message: `No memory item ${id} in this workspace.` });
        await audit.record(tx, actor, { action: "memory.delete", resourceType: "memory", resourceId: id });
        await announceChange(tx, actor.workspaceId, origin, id);
      });
      recall.remove(actor.workspaceId, id);
    },

    counts: async (workspaceId) => countByType(db, workspaceId),

    preferences: (workspaceId) => {
      const hit = preferenceCache.get(workspaceId);
      if (hit && Date.now() - hit.at < PREFERENCES_TTL_MS) return hit.value;
      const value = itemsOfType(db, workspaceId, "preference", MAX_PREFERENCES).then((rows) => rows.map((r) => ({ id: r.id, text: String((r.content as { text?: unknown }).text ?? "") })));
      if (preferenceCache.size > 10_000) preferenceCache.clear();
      preferenceCache.set(workspaceId, { at: Date.now(), value });
      value.catch(() => preferenceCache.delete(workspaceId));
      return value;
    },

    start: async () => {
      unlisten = await database.listen(MEMORY_CHANNEL, (payload) => {
        if (payload === null) return recall.forgetAll();
        const change = parseChange(payload);
        if (!change || change.origin === origin) return;
        if (change.itemId === undefined) recall.forget(change.workspaceId);
        else void recall.refresh(change.workspaceId, change.itemId);
      });
    },

    stop: async () => {
      await unlisten?.();
      unlisten = undefined;
    },
  };
  // Every write drops the workspace's cached preferences once it is done, whatever its outcome.
  const { create, update, delete: remove } = service;
  const afterwards = <T>(workspaceId: string, write: Promise<T>) => write.finally(() => preferenceCache.delete(workspaceId));
  service.create = (actor, input) => afterwards(actor.workspaceId, create(actor, input));
  service.update = (actor, id, input) => afterwards(actor.workspaceId, update(actor, id, input));
  service.delete = (actor, id) => afterwards(actor.workspaceId, remove(actor, id));
  return service;
}
