// In-process recall over a workspace's memory, for MemoryService.related: the lookup behind every question
// asked to intent and chat. Answering it from SQL costs three or four round trips (known words, trigram
// corrections, full-text ranking, rows), milliseconds that a chat completion cannot spare; answered here it
// costs microseconds. GET /memory/search stays on SQL: its query language (quotes, -exclusion, or) and its
// filters are Postgres's.
//
// Ranking is BM25 over the same stems (src/engine/text/stem.ts, stop words dropped by contentStems) that the
// intent engine uses to judge whether an item covers a question (engine/intent/answer.ts), so the items
// ranked first are the ones the coverage test reads the same way. Typos are corrected as pg_trgm does it
// (same trigrams, same similarity, same threshold), against the words of the items held.
//
// Recall (below the index) decides which workspaces are held: lazily loaded, bounded per workspace and in
// total, kept fresh by the service's writes and by other processes' notifications (incrementally: the item a
// notification names is read again; dropped and loaded again on the next question when it names none).
import { setImmediate as yieldToEventLoop } from "node:timers/promises";
import { contentStems } from "../../engine/intent/rank.ts";
import { isEnglishWord } from "../../engine/language/nlp.ts";
import { termsOf, type MemoryRow, type SearchHit } from "./store.ts";

// BM25's usual constants: term frequency saturates softly, long items are discounted by three quarters.
const K1 = 1.2;
const B = 0.75;
// pg_trgm's default similarity_threshold (0.3), kept as a ratio so that the comparison is exact.
const SIMILAR_NUMERATOR = 3;
const SIMILAR_DENOMINATOR = 10;
/** The most hits one question gets, as for search. */
export const MAX_RECALL_LIMIT = 100;

/** The trigrams pg_trgm takes of one word: padded with two spaces before and one after, each counted once. */
export function trigramsOf(word: string): Set<string> {
  // Code points, not UTF-16 units: pg_trgm counts characters.
  const points = [" ", " ", ...word, " "];
  const grams = new Set<string>();
  for (let i = 0; i + 3 <= points.length; i++) grams.add(points[i]! + points[i + 1]! + points[i + 2]!);
  return grams;
}

/** pg_trgm's similarity: shared distinct trigrams over all distinct trigrams of the two words. */
export function similarity(a: string, b: string): number {
  const ta = trigramsOf(a);
  const tb = trigramsOf(b);
  let shared = 0;
  for (const g of ta) if (tb.has(g)) shared++;
  return shared / (ta.size + tb.size - shared);
}

/** The stems an item is found by: its text's and its tags' (tags are words the author chose to file it under). */
function stemsOfItem(row: MemoryRow): string[] {
  const stems = contentStems(row.body);
  for (const tag of row.tags ?? []) for (const s of contentStems(tag)) stems.push(s);
  return stems;
}

/** The words a typo may be corrected to: the item's words as the memory_terms lexicon keeps them, and its tags'. */
function vocabularyOfItem(row: MemoryRow): string[] {
  const words = new Set(termsOf(row.body));
  for (const tag of row.tags ?? []) for (const w of termsOf(tag)) words.add(w);
  return [...words];
}

/** Items of one stem and how often each holds it, as parallel arrays (scanned on every question). */
interface Posting {
  slots: number[];
  tfs: number[];
}

// What an item takes held here is counted in units of about 1.5 KB, what an item of 100 characters takes.
// Measured (row and index, one-byte text): 1.4 KB for 100 characters, 2.1 KB for 500, 4.3 KB for 2,000,
// 12.6 KB for 8,000: about 1,250 bytes plus 1.5 a character. So a long item weighs what it costs, and the
// budget bounds memory, not a count of items of any size.
const UNIT_BYTES = 1536;

/** The units an item takes: its text, plus the rest of its content when that holds more than the text. */
function unitsOf(row: MemoryRow): number {
  const content = row.content as Record<string, unknown> | null;
  const more = content !== null && typeof content === "object" && Object.keys(content).some((key) => key !== "text");
  const characters = row.body.length + (more ? JSON.stringify(content).length : 0);
  return Math.max(1, Math.round((1250 + 1.5 * characters) / UNIT_BYTES));
}

interface Doc {
  row: MemoryRow;
  /** What it weighs (unitsOf). */
  units: number;
  length: number;
  /** Distinct stems (to take the item out of their postings), and how often each occurs. */
  stems: string[];
  tfs: number[];
}

/**
 * A number for the last tie-break between items alike in everything else (a bulk import: same score, same
 * authority, same millisecond): comparing numbers, not strings, where thousands of items tie. FNV-1a.
 */
function tieKey(id: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < id.length; i++) hash = Math.imul(hash ^ id.charCodeAt(i), 0x01000193);
  return hash >>> 0;
}

/** Removes one element from an unordered array by swapping the last one in. */
function swapRemove(list: number[], at: number): void {
  const last = list.pop()!;
  if (at < list.length) list[at] = last;
}

export interface Recalled {
  hits: SearchHit[];
  /** Query words memory does not know, read as the closest word it knows. */
  corrected: Map<string, string>;
}

/**
 * One workspace's memory, indexed for questions. Items live in numbered slots (reused after a delete) so
 * that scoring runs over arrays, not maps.
 */
export class RecallIndex {
  private readonly slotOf = new Map<string, number>();
  private readonly docs: (Doc | undefined)[] = [];
  private readonly freeSlots: number[] = [];
  private readonly postings = new Map<string, Posting>();
  private totalLength = 0;
  private count = 0;
  private units = 0;
  // The vocabulary, with a trigram index over it for typo correction; a word stays while an item holds it.
  private readonly wordIds = new Map<string, number>();
  private readonly vocabulary: string[] = [];
  private readonly wordRefs: number[] = [];
  private readonly wordTrigrams: number[] = [];
  private readonly freeWordIds: number[] = [];
  private readonly trigramPostings = new Map<string, number[]>();
  // What scoring and ordering read of each slot, in flat arrays: a question touches thousands of items.
  private lengthOf = new Float64Array(64);
  private authorityOf = new Float64Array(64);
  private createdOf = new Float64Array(64);
  private tieOf = new Float64Array(64);
  // Scratch space for one question (questions are answered synchronously, one at a time).
  private scores = new Float64Array(64);
  private shared = new Int32Array(64);

  get size(): number {
    return this.count;
  }

  /** What the items held weigh, in units of about 1.5 KB (a short item weighs one). */
  get weight(): number {
    return this.units;
  }

  has(id: string): boolean {
    return this.slotOf.has(id);
  }

  /** Adds the item, or replaces the version held; an older version than the one held is ignored. */
  upsert(row: MemoryRow): void {
    const slot = this.slotOf.get(row.id);
    if (slot !== undefined) {
      // Two writes of one item may be reported out of order; versions only go up.
      if (this.docs[slot]!.row.version > row.version) return;
      this.remove(row.id);
    }
    this.add(row);
  }

  remove(id: string): boolean {
    const slot = this.slotOf.get(id);
    if (slot === undefined) return false;
    const doc = this.docs[slot]!;
    for (const stem of doc.stems) {
      const posting = this.postings.get(stem)!;
      const at = posting.slots.indexOf(slot);
      swapRemove(posting.slots, at);
      swapRemove(posting.tfs, at);
      if (posting.slots.length === 0) this.postings.delete(stem);
    }
    // Read again from the row rather than kept: removals are rare, and an item's words are a fair share of
    // what it takes here.
    for (const word of vocabularyOfItem(doc.row)) this.release(word);
    this.totalLength -= doc.length;
    this.count--;
    this.units -= doc.units;
    this.docs[slot] = undefined;
    this.slotOf.delete(id);
    this.freeSlots.push(slot);
    return true;
  }

  private add(row: MemoryRow): void {
    // The tsvector text is SQL's business and nothing reads it from a hit; holding it would double the
    // memory an item takes here. The body is content.text: one string held, not two equal ones.
    const text = (row.content as { text?: unknown }).text;
    const kept = { ...row, search: "", body: text === row.body ? text : row.body };
    const stems = stemsOfItem(kept);
    const tf = new Map<string, number>();
    for (const s of stems) tf.set(s, (tf.get(s) ?? 0) + 1);
    const slot = this.freeSlots.pop() ?? this.docs.length;
    const units = unitsOf(kept);
    this.docs[slot] = {
      row: kept,
      units,
      length: stems.length,
      stems: [...tf.keys()],
      tfs: [...tf.values()],
    };
    this.slotOf.set(kept.id, slot);
    for (const [stem, f] of tf) {
      let posting = this.postings.get(stem);
      if (!posting) this.postings.set(stem, (posting = { slots: [], tfs: [] }));
      posting.slots.push(slot);
      posting.tfs.push(f);
    }
    for (const word of vocabularyOfItem(kept)) this.hold(word);
    this.totalLength += stems.length;
    this.count++;
    this.units += units;
    if (this.scores.length <= slot) this.grow(this.docs.length * 2);
    this.lengthOf[slot] = stems.length;
    this.authorityOf[slot] = kept.authority;
    this.createdOf[slot] = kept.createdAt.getTime();
    this.tieOf[slot] = tieKey(kept.id);
  }

  private grow(size: number): void {
    const grown = (from: Float64Array) => {
      const to = new Float64Array(size);
      to.set(from);
      return to;
    };
    this.lengthOf = grown(this.lengthOf);
    this.authorityOf = grown(this.authorityOf);
    this.createdOf = grown(this.createdOf);
    this.tieOf = grown(this.tieOf);
    this.scores = new Float64Array(size);
  }

  private hold(word: string): void {
    const known = this.wordIds.get(word);
    if (known !== undefined) {
      this.wordRefs[known]!++;
      return;
    }
    const id = this.freeWordIds.pop() ?? this.vocabulary.length;
    const grams = trigramsOf(word);
    this.wordIds.set(word, id);
    this.vocabulary[id] = word;
    this.wordRefs[id] = 1;
    this.wordTrigrams[id] = grams.size;
    for (const g of grams) {
      let list = this.trigramPostings.get(g);
      if (!list) this.trigramPostings.set(g, (list = []));
      list.push(id);
    }
    if (this.shared.length < this.vocabulary.length) this.shared = new Int32Array(this.vocabulary.length * 2);
  }

  private release(word: string): void {
    const id = this.wordIds.get(word)!;
    if (--this.wordRefs[id]! > 0) return;
    for (const g of trigramsOf(word)) {
      const list = this.trigramPostings.get(g)!;
      swapRemove(list, list.indexOf(id));
      if (list.length === 0) this.trigramPostings.delete(g);
    }
    this.wordIds.delete(word);
    this.vocabulary[id] = "";
    this.freeWordIds.push(id);
  }

  /**
   * The vocabulary word closest to `word` by trigram similarity, at least pg_trgm's threshold; ties go to
   * the word first in code-point order (as `order by similarity desc, term` does under the C collation).
   */
  closest(word: string): string | undefined {
    const grams = trigramsOf(word);
    const touched: number[] = [];
    for (const g of grams) {
      const list = this.trigramPostings.get(g);
      if (!list) continue;
      for (let i = 0; i < list.length; i++) {
        const id = list[i]!;
        const before = this.shared[id]!;
        if (before === 0) touched.push(id);
        this.shared[id] = before + 1;
      }
    }
    let best: string | undefined;
    let bestShared = 0;
    let bestUnion = 1;
    for (const id of touched) {
      const shared = this.shared[id]!;
      this.shared[id] = 0;
      const union = grams.size + this.wordTrigrams[id]! - shared;
      if (shared * SIMILAR_DENOMINATOR < union * SIMILAR_NUMERATOR) continue;
      // shared/union against bestShared/bestUnion, by cross-multiplying: exact, so ties are ties.
      const order = shared * bestUnion - bestShared * union;
      const candidate = this.vocabulary[id]!;
      if (best === undefined || order > 0 || (order === 0 && candidate < best)) {
        best = candidate;
        bestShared = shared;
        bestUnion = union;
      }
    }
    return best;
  }

  /**
   * Query words (as termsOf gives them) that memory does not know, with their corrections. A word is known
   * when an item holds it, or when its stems are indexed already ("refunds" where memory says "refund"):
   * such a word matches as written, and "correcting" it could only add a different word to the question.
   * Stop words and numbers carry nothing to correct, and neither does a word of the English lexicon
   * ("use" is not a misspelt "usd", nor "right" a misspelt "night"): only words no dictionary knows are typos.
   */
  corrections(terms: string[]): Map<string, string> {
    const corrected = new Map<string, string>();
    for (const term of terms) {
      if (corrected.has(term) || this.wordIds.has(term) || isEnglishWord(term)) continue;
      const stems = contentStems(term);
      if (stems.length === 0 || stems.every((s) => this.postings.has(s))) continue;
      const best = this.closest(term);
      if (best !== undefined) corrected.set(term, best);
    }
    return corrected;
  }

  /**
   * Items holding any of the terms (or their corrections), best first: BM25, then authority, then the
   * newest, then a fixed order of ids; at most `limit` (1 to 100).
   */
  recall(terms: string[], limit: number): Recalled {
    const corrected = this.corrections(terms);
    const stems = new Set<string>();
    for (const term of [...terms, ...corrected.values()]) for (const s of contentStems(term)) stems.add(s);
    return { hits: this.rank([...stems], limit), corrected };
  }

  /** How many items hold this stem. */
  df(stem: string): number {
    return this.postings.get(stem)?.slots.length ?? 0;
  }

  /** Items holding any of these stems, best first, at most `limit`. */
  rank(stems: string[], limit: number): SearchHit[] {
    const n = this.count;
    if (n === 0) return [];
    const cap = Math.min(Math.max(Math.trunc(limit) || 1, 1), MAX_RECALL_LIMIT);
    const avgLength = this.totalLength / n || 1;
    const { scores, lengthOf, authorityOf, createdOf, tieOf } = this;
    const terms: { stem: string; posting: Posting; idf: number }[] = [];
    for (const stem of new Set(stems)) {
      const posting = this.postings.get(stem);
      if (!posting) continue;
      const df = posting.slots.length;
      terms.push({ stem, posting, idf: Math.log(1 + (n - df + 0.5) / (df + 0.5)) });
    }
    // Rare terms first: they find few items and weigh the most.
    terms.sort((a, b) => a.posting.slots.length - b.posting.slots.length);
    // The most the terms from i on can add to any item's score: BM25's tf part stays below K1 + 1.
    const ceiling = new Array<number>(terms.length + 1).fill(0);
    for (let i = terms.length - 1; i >= 0; i--) ceiling[i] = ceiling[i + 1]! + terms[i]!.idf * (K1 + 1);
    const touched: number[] = [];
    let i = 0;
    for (; i < terms.length; i++) {
      const { posting, idf } = terms[i]!;
      // MaxScore: once `cap` items found so far score at least what the remaining terms could ever give an
      // item, an item holding only remaining terms cannot make the result; those terms (the common ones, with
      // the longest postings: "plan" in every item) then only add to the items already found.
      if (touched.length >= cap && posting.slots.length > touched.length && ceiling[i]! <= this.kthScore(touched, cap)) break;
      const { slots, tfs } = posting;
      for (let j = 0; j < slots.length; j++) {
        const slot = slots[j]!;
        const tf = tfs[j]!;
        const norm = K1 * (1 - B + (B * lengthOf[slot]!) / avgLength);
        // idf > 0 and tf >= 1: a touched item's score is never 0, so 0 marks "not touched yet".
        const score = scores[slot]!;
        if (score === 0) touched.push(slot);
        scores[slot] = score + (idf * tf * (K1 + 1)) / (tf + norm);
      }
    }
    for (; i < terms.length; i++) {
      const { stem, idf, posting } = terms[i]!;
      // Whichever is shorter: the term's posting (checking each item for "touched": a score not 0), or the
      // touched items (looking the stem up in each one's few stems). A word in every item ("office") has a
      // posting as long as memory, but reading it costs less than searching hundreds of items' stems.
      if (posting.slots.length <= touched.length * 8) {
        const { slots, tfs } = posting;
        for (let j = 0; j < slots.length; j++) {
          const slot = slots[j]!;
          const score = scores[slot]!;
          if (score === 0) continue;
          const tf = tfs[j]!;
          scores[slot] = score + (idf * tf * (K1 + 1)) / (tf + K1 * (1 - B + (B * lengthOf[slot]!) / avgLength));
        }
        continue;
      }
      for (const slot of touched) {
        const doc = this.docs[slot]!;
        const at = doc.stems.indexOf(stem);
        if (at < 0) continue;
        const tf = doc.tfs[at]!;
        scores[slot] = scores[slot]! + (idf * tf * (K1 + 1)) / (tf + K1 * (1 - B + (B * doc.length) / avgLength));
      }
    }
    // The best `cap` of the touched items, kept sorted. Only items scoring at least the cap-th best score
    // are compared in full (items alike, as in a bulk import, tie on score and often on everything else).
    const threshold = touched.length > cap ? this.kthScore(touched, cap) : 0;
    const top: number[] = [];
    const before = (a: number, b: number): boolean => {
      if (scores[a] !== scores[b]) return scores[a]! > scores[b]!;
      if (authorityOf[a] !== authorityOf[b]) return authorityOf[a]! > authorityOf[b]!;
      if (createdOf[a] !== createdOf[b]) return createdOf[a]! > createdOf[b]!;
      // Then a fixed order of ids (by a hash, then the id), so that the same items give the same answer.
      if (tieOf[a] !== tieOf[b]) return tieOf[a]! < tieOf[b]!;
      return this.docs[a]!.row.id < this.docs[b]!.row.id;
    };
    for (const slot of touched) {
      if (scores[slot]! < threshold || (top.length === cap && !before(slot, top[cap - 1]!))) continue;
      let at = top.length === cap ? cap - 1 : top.length;
      while (at > 0 && before(slot, top[at - 1]!)) {
        top[at] = top[at - 1]!;
        at--;
      }
      top[at] = slot;
    }
    const hits = top.map((slot) => ({ ...this.docs[slot]!.row, score: scores[slot]! }));
    for (const slot of touched) scores[slot] = 0;
    return hits;
  }

  /** The k-th highest score among these items (k <= their number). */
  private kthScore(slots: number[], k: number): number {
    const best: number[] = [];
    for (const slot of slots) {
      const score = this.scores[slot]!;
      if (best.length === k && score <= best[k - 1]!) continue;
      let at = best.length === k ? k - 1 : best.length;
      while (at > 0 && score > best[at - 1]!) {
        best[at] = best[at - 1]!;
        at--;
      }
      best[at] = score;
    }
    return best[k - 1]!;
  }
}

export interface RecallLimits {
  /** A workspace with more items is not held: its questions are answered by SQL. */
  maxItems: number;
  /**
   * What is held across all workspaces, in units of about 1.5 KB (a short item weighs one, a long one as
   * many as it takes; each workspace also counts one); the least recently asked go first. A workspace that
   * weighs more than all of it is not held.
   */
  budget: number;
  /**
   * Questions wait for the load of a workspace of up to this many items (tens of milliseconds); a larger
   * workspace's questions are answered by SQL while it loads, rather than waiting for seconds.
   */
  waitItems: number;
}

export const RECALL_MAX_ITEMS = 50_000;
// About 300 MB.
export const RECALL_BUDGET = 200_000;
export const RECALL_WAIT_ITEMS = 2_000;

/** Where a workspace's items are read from. */
export interface RecallSource {
  count(workspaceId: string): Promise<number>;
  /** The workspace's items, at most `limit`. */
  items(workspaceId: string, limit: number): Promise<MemoryRow[]>;
  /** One item as it is now, or undefined when it is gone. */
  item(workspaceId: string, id: string): Promise<MemoryRow | undefined>;
}

// A workspace too large to hold is counted again after this long (it may have shrunk).
const TOO_BIG_RECHECK_MS = 60_000;
// After a load was overtaken by another process's write, questions go to SQL this long before the next load:
// under a stream of remote writes, a workspace is loaded at most about once per interval, not per question.
const RELOAD_BACKOFF_MS = 1_000;
// Items indexed between two turns of the event loop while a workspace is loaded (a few milliseconds).
const BUILD_SLICE = 250;
// Local writes made while a load runs are replayed on its result; past this many, the load is dropped instead.
const MAX_PENDING_WRITES = 10_000;
// Another process's write to one item is read again this many times when this process writes to the
// workspace meanwhile (the read may predate that write); then the workspace is dropped instead.
const REREAD_ATTEMPTS = 3;

type Write = { kind: "upsert"; row: MemoryRow } | { kind: "remove"; id: string };

function applyWrite(index: RecallIndex, write: Write): void {
  if (write.kind === "upsert") index.upsert(write.row);
  else index.remove(write.id);
}

type SlotState =
  | { kind: "ready"; index: RecallIndex }
  | { kind: "loading"; promise: Promise<RecallIndex | undefined>; pending: Write[] }
  /** Answered by SQL until `until`: too large to hold, or a load was overtaken. */
  | { kind: "sql"; until: number };

interface Slot {
  /**
   * Bumped by every change this process cannot replay (another process's write): a load that started
   * under an older generation may have read the data before that change, and is not installed.
   */
  generation: number;
  /** Counts this process's writes applied: an item read again for another process's write is only applied
   * if none came between the read and its answer. */
  localWrites: number;
  /** The latest read started per item for other processes' writes: only the latest one is applied. */
  reads: Map<string, number>;
  state: SlotState;
}

/**
 * Which workspaces are held, and keeping them fresh. Slots are kept in least-recently-asked order (a Map
 * keeps insertion order; an access moves the slot to the end).
 */
export class Recall {
  private readonly slots = new Map<string, Slot>();
  private weight = 0;

  constructor(
    private readonly source: RecallSource,
    private readonly limits: RecallLimits,
    private readonly nowMs: () => number,
  ) {}

  /** What is held now, in the units of the budget (each item at least one, plus one per workspace). */
  get held(): number {
    return this.weight;
  }

  /** What this process holds for the workspace (tests and diagnostics). */
  stateOf(workspaceId: string): "absent" | SlotState["kind"] {
    return this.slots.get(workspaceId)?.state.kind ?? "absent";
  }

  /**
   * The workspace's index, loaded on first use (concurrent first questions share one load); undefined when
   * the question must go to SQL (too large, large and still loading, a load overtaken by another process's
   * write, a failed load).
   */
  index(workspaceId: string): RecallIndex | Promise<RecallIndex | undefined> | undefined {
    const slot = this.slots.get(workspaceId);
    if (slot) {
      const { state } = slot;
      if (state.kind === "ready") {
        this.slots.delete(workspaceId);
        this.slots.set(workspaceId, slot);
        return state.index;
      }
      if (state.kind === "loading") return state.promise;
      if (this.nowMs() < state.until) return undefined;
      this.drop(workspaceId);
    }
    return this.startLoad(workspaceId);
  }

  private startLoad(workspaceId: string): Promise<RecallIndex | undefined> {
    const pending: Write[] = [];
    // What questions wait for: the index, or undefined as soon as they had better ask SQL.
    let answer!: (index: RecallIndex | undefined) => void;
    const waited = new Promise<RecallIndex | undefined>((resolve) => (answer = resolve));
    const slot: Slot = { generation: 0, localWrites: 0, reads: new Map(), state: { kind: "loading", promise: waited, pending } };
    this.slots.set(workspaceId, slot);
    this.fill(workspaceId, slot, pending, () => answer(undefined)).then(answer, () => {
      // Nothing is remembered: the question goes to SQL (which reports the failure if it persists).
      if (this.slots.get(workspaceId) === slot) this.slots.delete(workspaceId);
      answer(undefined);
    });
    return waited;
  }

  private async fill(workspaceId: string, slot: Slot, pending: Write[], dontWait: () => void): Promise<RecallIndex | undefined> {
    const started = slot.generation;
    const overtaken = (): boolean => {
      if (this.slots.get(workspaceId) !== slot) return true;
      if (slot.generation === started) return false;
      this.settle(workspaceId, slot, { kind: "sql", until: this.nowMs() + RELOAD_BACKOFF_MS });
      return true;
    };
    const tooBig = (): undefined => {
      this.settle(workspaceId, slot, { kind: "sql", until: this.nowMs() + TOO_BIG_RECHECK_MS });
      return undefined;
    };
    // Counted first: a workspace too large to hold costs a count, not a full read.
    const count = await this.source.count(workspaceId);
    if (overtaken()) return undefined;
    if (count > this.limits.maxItems) return tooBig();
    if (count > this.limits.waitItems) dontWait();
    const rows = await this.source.items(workspaceId, this.limits.maxItems + 1);
    if (overtaken()) return undefined;
    if (rows.length > this.limits.maxItems) return tooBig();
    const index = new RecallIndex();
    for (let at = 0; at < rows.length; at += BUILD_SLICE) {
      // Building takes about 15 µs an item: a large workspace is built in slices, so that the requests
      // arriving meanwhile are served rather than held up behind it.
      if (at > 0) {
        await yieldToEventLoop();
        if (overtaken()) return undefined;
      }
      for (let i = at; i < Math.min(at + BUILD_SLICE, rows.length); i++) index.upsert(rows[i]!);
      // Heavier than everything may hold (long items): not held, and not built further.
      if (index.weight > this.limits.budget) return tooBig();
    }
    // Local writes committed while the rows were read: the rows may hold them or not, and replaying an
    // upsert or a delete by id (versions only going up) gives the same result either way.
    for (const write of pending) applyWrite(index, write);
    if (this.tooBigToHold(index)) return tooBig();
    this.settle(workspaceId, slot, { kind: "ready", index });
    return index;
  }

  /** More items than a workspace may have held, or heavier than everything may weigh. */
  private tooBigToHold(index: RecallIndex): boolean {
    return index.size > this.limits.maxItems || index.weight > this.limits.budget;
  }

  private weightOf(state: SlotState): number {
    if (state.kind === "ready") return state.index.weight + 1;
    return state.kind === "sql" ? 1 : 0;
  }

  private settle(workspaceId: string, slot: Slot, state: SlotState): void {
    this.weight -= this.weightOf(slot.state);
    slot.state = state;
    this.weight += this.weightOf(state);
    this.evict(workspaceId);
  }

  /** Drops the least recently asked workspaces (never `keep`, never a load in flight) beyond the budget. */
  private evict(keep: string): void {
    if (this.weight <= this.limits.budget) return;
    for (const [workspaceId, slot] of this.slots) {
      if (this.weight <= this.limits.budget) return;
      if (workspaceId === keep || slot.state.kind === "loading") continue;
      this.drop(workspaceId);
    }
  }

  private drop(workspaceId: string): void {
    const slot = this.slots.get(workspaceId);
    if (!slot) return;
    this.weight -= this.weightOf(slot.state);
    this.slots.delete(workspaceId);
  }

  /** A write of this process, after its commit: applied to the index held (or to the load in flight). */
  private apply(workspaceId: string, write: Write): void {
    const slot = this.slots.get(workspaceId);
    if (!slot) return;
    slot.localWrites++;
    const { state } = slot;
    if (state.kind === "loading") {
      if (state.pending.length < MAX_PENDING_WRITES) state.pending.push(write);
      else slot.generation++;
      return;
    }
    if (state.kind === "ready") this.applyToIndex(workspaceId, slot, state.index, write);
  }

  private applyToIndex(workspaceId: string, slot: Slot, index: RecallIndex, write: Write): void {
    const before = index.weight;
    applyWrite(index, write);
    this.weight += index.weight - before;
    if (this.tooBigToHold(index)) this.settle(workspaceId, slot, { kind: "sql", until: this.nowMs() + TOO_BIG_RECHECK_MS });
    else this.evict(workspaceId);
  }

  upsert(workspaceId: string, row: MemoryRow): void {
    this.apply(workspaceId, { kind: "upsert", row });
  }

  remove(workspaceId: string, id: string): void {
    this.apply(workspaceId, { kind: "remove", id });
  }

  /**
   * Another process wrote one item (after its commit): the item is read again and applied to the index
   * held, instead of dropping the workspace and reading all of it on the next question. A load in flight
   * is overtaken (it may have read the rows before the write). Resolves when applied (or given up).
   */
  async refresh(workspaceId: string, id: string): Promise<void> {
    const slot = this.slots.get(workspaceId);
    if (!slot) return;
    // Not held yet (a load in flight, overtaken by the write) or answered by SQL: as for any remote write.
    if (slot.state.kind !== "ready") return this.forget(workspaceId);
    for (let attempt = 0; attempt < REREAD_ATTEMPTS; attempt++) {
      const writes = slot.localWrites;
      // Two writes of one item in quick succession start two reads, which may answer out of order (an
      // update's read returning after a delete's): only the read started last is applied.
      const read = (slot.reads.get(id) ?? 0) + 1;
      slot.reads.set(id, read);
      let row: MemoryRow | undefined;
      try {
        row = await this.source.item(workspaceId, id);
      } catch {
        // Not known how the item stands: nothing held for the workspace can be trusted.
        if (this.slots.get(workspaceId) === slot) this.forget(workspaceId);
        return;
      }
      if (slot.reads.get(id) !== read) return;
      // Dropped or replaced meanwhile: whatever is loaded next reads the item as it is.
      if (this.slots.get(workspaceId) !== slot || slot.state.kind !== "ready") return;
      // This process wrote meanwhile, maybe this very item (a delete the read predates): read it again.
      if (slot.localWrites !== writes) continue;
      slot.reads.delete(id);
      this.applyToIndex(workspaceId, slot, slot.state.index, row ? { kind: "upsert", row } : { kind: "remove", id });
      return;
    }
    this.forget(workspaceId);
  }

  /** Another process changed the workspace's memory: what is held is dropped, a load in flight is overtaken. */
  forget(workspaceId: string): void {
    const slot = this.slots.get(workspaceId);
    if (!slot) return;
    if (slot.state.kind === "loading") slot.generation++;
    // Too large is a matter of size, which one write hardly changes; the marker expires on its own.
    else if (slot.state.kind === "ready") this.drop(workspaceId);
  }

  /** Notifications may have been missed: nothing held can be trusted. */
  forgetAll(): void {
    for (const [workspaceId, slot] of this.slots) {
      if (slot.state.kind === "loading") slot.generation++;
      else this.drop(workspaceId);
    }
  }
}
